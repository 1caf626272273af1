"""The archive's search at scale: ``--games`` finished games (100,000 by default) in SQLite or
PostgreSQL, and the time of one search page (p50/p99/max) as the server runs it
(:func:`sakura.server.archive.search`): by a player's name, by an account, and unfiltered.

Generation is bounded: ``--distinct`` games are really played by random bots through the
engine (their seats, scores, winners, length and rounds are what the archive keeps), and the
archive is filled with ``--games`` rows cycling through them, each with players' names drawn
from a pool of ``--names`` and a date within a year. Table rows are written too (the archive's
rows point at them); actions are not (no search reads them). Prints numbers; asserts nothing.

    python benchmarks/archive_query.py                     # SQLite in a temporary folder
    python benchmarks/archive_query.py --database-url postgresql+psycopg://postgres@127.0.0.1/test
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from sakura.bots import make_bot
from sakura.engine import make_game
from sakura.server import archive
from sakura.server.db import Store
from sakura.server.models import TableRow
from sakura.server.names import name_key
from sakura.server.people_models import ArchivePlayerRow, ArchiveRow
from sakura.server.ratings import klass_of

SYLLABLES = ["ka", "mi", "to", "ra", "ne", "sa", "yu", "ko", "ha", "ri", "no", "ta", "zo", "lu", "an", "el"]


def played(count: int, rng: random.Random) -> list[dict[str, Any]]:
    """``count`` games of 2 to 5 players played to the end by random bots."""
    games = []
    for i in range(count):
        players = rng.choice([2, 3, 4, 5])
        config: dict[str, Any] = {"players": players}
        if players == 2:
            config["variant"] = rng.choice(["court", "tactical"])
        game = make_game("sakura", config)
        state = game.new_initial_state(i)
        bots = [make_bot("random", game, rng.randrange(2**32)) for _ in range(players)]
        actions = 0
        while not state.is_terminal():
            seat = state.current_players()[0]
            state.apply_action(seat, bots[seat].act(state.view(seat)))
            actions += 1
        outcome = state.outcome()
        assert outcome is not None
        games.append(
            {
                "config": game.config_json(),
                "players": players,
                "actions": actions,
                "rounds": getattr(state, "round", None),
                "scores": list(outcome.scores),
                "winners": list(outcome.winners),
                "variant": config.get("variant"),
            }
        )
    return games


def fill(store: Store, total: int, base: list[dict[str, Any]], names: list[str], rng: random.Random) -> None:
    start = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    batch = 5000
    with store.engine.begin() as conn:
        for first in range(0, total, batch):
            tables, games, seats = [], [], []
            for i in range(first, min(total, first + batch)):
                g = base[i % len(base)]
                finished = start + dt.timedelta(seconds=rng.randrange(365 * 86400))
                people = rng.sample(names, g["players"])
                accounts = [n if rng.random() < 0.3 else None for n in people]
                table_id = f"bench{i:07d}"
                pairs = list(enumerate(zip(people, accounts, strict=True)))
                seat_rows = [
                    {
                        "name": n,
                        "kind": "human",
                        "level": None,
                        "account": a,
                        "forfeit": False,
                        "score": g["scores"][s],
                    }
                    for s, (n, a) in pairs
                ]
                tables.append(
                    {
                        "id": table_id,
                        "game": "sakura",
                        "config": g["config"],
                        "seed": 0,
                        "seats": seat_rows,
                        "timer": None,
                        "status": "finished",
                        "rematch": None,
                        "created": finished,
                        "rated": False,
                        "options": None,
                    }
                )
                games.append(
                    {
                        "table_id": table_id,
                        "game": "sakura",
                        "players": g["players"],
                        "rated": False,
                        "klass": klass_of("sakura", g["players"], g["variant"]),
                        "finished": finished,
                        "actions": g["actions"],
                        "rounds": g["rounds"],
                        "seats": seat_rows,
                        "winners": g["winners"],
                    }
                )
                seats += [
                    {
                        "table_id": table_id,
                        "seat": s,
                        "name_key": name_key(n),
                        "winner": s in g["winners"],
                        "account": name_key(a) if a else None,
                        "finished": finished,
                    }
                    for s, (n, a) in pairs
                ]
            conn.execute(TableRow.__table__.insert(), tables)
            conn.execute(ArchiveRow.__table__.insert(), games)
            conn.execute(ArchivePlayerRow.__table__.insert(), seats)


def timed(fn: Any, runs: int) -> tuple[list[float], list[float]]:
    """Wall-clock and this process's CPU milliseconds of each run (on a shared machine the
    wall clock also counts the time other processes held the cores)."""
    walls, cpus = [], []
    for _ in range(runs):
        start, cpu = time.perf_counter(), time.process_time()
        fn()
        walls.append((time.perf_counter() - start) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    return walls, cpus


def p99(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def report(label: str, runs: tuple[list[float], list[float]]) -> None:
    walls, cpus = runs
    print(
        f"{label:<34} wall p50 {statistics.median(walls):6.2f} p99 {p99(walls):6.2f} "
        f"max {max(walls):6.2f} ms"
        f"   cpu p50 {statistics.median(cpus):5.2f} p99 {p99(cpus):5.2f} ms"
    )


def explain(store: Store, names: list[str], rng: random.Random, runs: int) -> None:
    """PostgreSQL's own execution time of the name search (EXPLAIN ANALYZE), apart from the
    client, the network and the scheduling of a loaded machine."""
    from sqlalchemy import text

    query = (
        "SELECT a.* FROM sakura_archive a JOIN (SELECT table_id, finished "
        "FROM sakura_archive_players WHERE name_key = :k "
        "ORDER BY finished DESC, table_id DESC LIMIT 21) p "
        "ON p.table_id = a.table_id "
        "ORDER BY p.finished DESC, p.table_id DESC"
    )
    times = []
    with store.engine.connect() as conn:
        for _ in range(runs):
            plan = conn.execute(
                text(f"EXPLAIN (ANALYZE, FORMAT JSON) {query}"), {"k": name_key(rng.choice(names))}
            ).scalar()
            times.append(float(plan[0]["Execution Time"]))
    print(
        f"{'name search, inside PostgreSQL':<34} p50 {statistics.median(times):6.2f} ms   "
        f"p99 {p99(times):6.2f} ms   max {max(times):6.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--distinct", type=int, default=1000, help="games really played by bots")
    parser.add_argument("--names", type=int, default=2000, help="players' names in the pool")
    parser.add_argument("--queries", type=int, default=300, help="searches of each kind")
    parser.add_argument("--database-url", default=None, help="an empty database (default: SQLite, temporary)")
    args = parser.parse_args()
    rng = random.Random(15)
    names = sorted(
        {
            "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))).capitalize()
            for _ in range(args.names * 2)
        }
    )[: args.names]
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite:///{Path(tmp) / 'archive.db'}"
        store = Store(url)
        try:
            t0 = time.perf_counter()
            base = played(args.distinct, rng)
            t1 = time.perf_counter()
            fill(store, args.games, base, names, rng)
            t2 = time.perf_counter()
            print(
                f"{store.engine.dialect.name}: {args.distinct} games played by bots in {t1 - t0:.1f} s, "
                f"{args.games} archived games written in {t2 - t1:.1f} s "
                f"({args.games * sum(g['players'] for g in base) / len(base):.0f} seats)"
            )
            hits = archive.search(store, names[0])
            print(f"a name's first page: {len(hits['games'])} games (more: {hits['more']})")
            for name in names:  # a running server's caches are warm: one search a name first
                archive.search(store, name, 0)
            report(
                "search by name, page 1",
                timed(lambda: archive.search(store, rng.choice(names), 0), args.queries),
            )
            report(
                "search by name, page 3",
                timed(lambda: archive.search(store, rng.choice(names), 2), args.queries),
            )
            report(
                "a player's games (account)",
                timed(lambda: archive.search(store, None, 0, account=rng.choice(names)), args.queries),
            )
            report(
                "unfiltered, a page in the first 50",
                timed(lambda: archive.search(store, None, rng.randrange(50)), args.queries),
            )
            report(
                "a name nobody has", timed(lambda: archive.search(store, "Nobody at all", 0), args.queries)
            )
            if store.engine.dialect.name == "postgresql":
                explain(store, names, rng, args.queries)
        finally:
            store.close()


if __name__ == "__main__":
    main()
