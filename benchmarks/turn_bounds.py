"""The bound on turn-based games at once (``sakura.server.turns.bounds``): the cost of the count
each turn-based create or join makes, at scale. ``--tables`` unfinished turn-based tables
(10,000 by default) and as many finished ones, two seats each, in SQLite or PostgreSQL: seats
of ``--accounts`` accounts and of anonymous players from ``--addresses`` addresses, one account
and one address holding ``--held`` seats (the bound's 50). Then ``--queries`` counts of each
kind timed as the server makes them (:func:`~sakura.server.turns.bounds.count`, one
transaction each): p50, p99, max, beside a ``SELECT 1`` in the same run (what any query costs
on that database and load). Table rows are written too (the count joins their status);
no action is. Prints numbers; asserts nothing.

    python benchmarks/turn_bounds.py                     # SQLite in a temporary folder
    python benchmarks/turn_bounds.py --database-url postgresql+psycopg://postgres@127.0.0.1/test
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import delete, insert, text

from sakura.server.db import Store, now
from sakura.server.models import TableRow, TurnSeatRow
from sakura.server.turns import bounds


def fill(store: Store, args: argparse.Namespace, rng: random.Random) -> None:
    """``args.tables`` unfinished and as many finished turn-based tables, their seats counted."""
    tables, accounts, addresses, held = args.tables, args.accounts, args.addresses, args.held
    table_rows, seat_rows = [], []
    for i in range(2 * tables):
        table_id = f"b{i:07d}"
        table_rows.append(
            {
                "id": table_id,
                "game": "sakura",
                "config": {"players": 2},
                "seed": i,
                "seats": [],
                "timer": None,
                "status": "playing" if i < tables else "finished",
                "rematch": None,
                "created": now(),
                "rated": False,
                "options": {"pace": "1d", "timeouts": 3},
            }
        )
        for seat in range(2):
            if i < held:  # the account and the address near the bound: their seats first
                who = ("busy", None) if seat == 0 else (None, bounds.holder(None, "192.0.2.1")[1])
            elif rng.random() < 0.5:
                who = (f"p{rng.randrange(accounts)}", None)
            else:
                who = (None, bounds.holder(None, f"198.51.{rng.randrange(addresses)}.1")[1])
            seat_rows.append({"table_id": table_id, "seat": seat, "account": who[0], "address": who[1]})
    with store.engine.begin() as conn:
        conn.execute(delete(TurnSeatRow).where(TurnSeatRow.table_id.like("b%")))
        conn.execute(delete(TableRow).where(TableRow.id.like("b%")))
        for start in range(0, len(table_rows), 5000):
            conn.execute(insert(TableRow), table_rows[start : start + 5000])
        for start in range(0, len(seat_rows), 5000):
            conn.execute(insert(TurnSeatRow), seat_rows[start : start + 5000])


def timed(call: Callable[[], int], times: int) -> tuple[int, list[float]]:
    seconds, found = [], 0
    for _ in range(times):
        t0 = time.perf_counter()
        found = call()
        seconds.append(time.perf_counter() - t0)
    return found, seconds


def _one(store: Store) -> int:
    """A query that reads nothing: what a transaction costs on this database and load."""
    with store.engine.connect() as conn:
        return int(conn.scalar(text("SELECT 1")) or 0) - 1


def line(label: str, found: int, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    p50 = statistics.median(ms)
    return f"{label:<26} {found:>3} seats   p50 {p50:6.2f} ms   p99 {p99:6.2f} ms   max {ms[-1]:6.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=None, help="default: SQLite in a temporary folder")
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--accounts", type=int, default=2_000)
    parser.add_argument("--addresses", type=int, default=1_000)
    parser.add_argument("--held", type=int, default=50)
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = args.database_url or f"sqlite:///{Path(folder) / 'bounds.db'}"
        store = Store(url)
        try:
            t0 = time.perf_counter()
            fill(store, args, random.Random(args.seed))
            print(
                f"{url.split(':')[0]}: {2 * args.tables} turn-based tables ({args.tables} unfinished), "
                f"{4 * args.tables} seats, written in {time.perf_counter() - t0:.1f} s"
            )
            address = bounds.holder(None, "192.0.2.1")[1]
            print(line("SELECT 1 (the baseline)", *timed(lambda: _one(store), args.queries)))
            for label, who in (
                ("an account at the bound", ("busy", None)),
                ("an address at the bound", (None, address)),
                ("an account with a few", ("p7", None)),
                ("an account with none", ("nobody", None)),
            ):
                found, seconds = timed(lambda who=who: bounds.count(store, *who), args.queries)
                print(line(label, found, seconds))
        finally:
            with store.engine.begin() as conn:
                conn.execute(delete(TurnSeatRow).where(TurnSeatRow.table_id.like("b%")))
                conn.execute(delete(TableRow).where(TableRow.id.like("b%")))
            store.close()


if __name__ == "__main__":
    main()
