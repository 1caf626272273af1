"""Many sleeping turn-based tables on one process: memory, CPU while idle, and how soon a due
deadline fires. Prints numbers; asserts nothing.

``--tables`` turn-based tables (a claimed player and a bot, a day a move, the player due) are
written straight into a fresh SQLite file, then one server process's lobby restores them all,
as after a restart, and its one schedule task holds their deadlines. Measured:

* RSS before and after (``/proc/self/status``), and per table;
* CPU time (user + system) over ``--idle`` seconds of wall time with every table asleep: one
  task sleeps until the earliest deadline, so it should be close to nothing;
* ``--fires`` deadlines brought to now + 0.2 s one after another: from the due second to the
  timer's move stored and told (the action's ``seq`` moving), median and worst;
* side by side, the same tables on the real-time clock (one event-loop timer each, a 3600 s
  timer): the ratio of the two processes' idle CPU and RSS a table.

    python benchmarks/turn_based.py
    python benchmarks/turn_based.py --tables 2000 --idle 3
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from sqlalchemy import insert  # noqa: E402

from sakura.server.db import Store  # noqa: E402
from sakura.server.limits import Limits  # noqa: E402
from sakura.server.lobby import Lobby  # noqa: E402
from sakura.server.models import DeadlineRow, TableRow  # noqa: E402


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu() -> float:
    times = os.times()
    return times.user + times.system


def write_tables(store: Store, count: int, paced: bool) -> None:
    """``count`` tables in one transaction: seat 0 a claimed player (due), seat 1 a bot."""
    now = dt.datetime.now(dt.UTC)
    seats = [
        {"kind": "human", "name": "Ada", "token_hash": "0" * 64},
        {"kind": "bot", "name": "", "bot": "greedy", "level": "beginner"},
    ]
    rows: list[dict[str, Any]] = []
    deadlines: list[dict[str, Any]] = []
    for i in range(count):
        rows.append(
            {
                "id": f"t{i:06d}",
                "game": "sakura",
                "config": {"players": 2},
                "seed": 1000 + i,
                "seats": seats,
                "timer": None if paced else 3600.0,
                "status": "playing",
                "created": now,
                "rated": False,
                "options": {"pace": "1d", "timeouts": 3} if paced else None,
            }
        )
        if paced:  # spread over the coming day
            due = now + dt.timedelta(seconds=3600 + 80_000 * i / count)
            deadlines.append({"table_id": f"t{i:06d}", "due_at": due, "decision": "1:selection:0,1"})
    with store.engine.begin() as conn:
        conn.execute(insert(TableRow), rows)
        if deadlines:
            conn.execute(insert(DeadlineRow), deadlines)


async def measure(store: Store, count: int, idle: float, fires: int, paced: bool) -> dict[str, float]:
    # restoring 10,000 tables reads them one by one (store.load_unfinished): longer than the
    # default 5 s a request may wait for the database, so the benchmark waits longer
    lobby = Lobby(store, Limits(live_tables=count + 10, db_timeout=600))
    before = rss_mib()
    started = time.perf_counter()
    tables = await lobby.restore()
    for table in tables:
        table.start()
    lobby.turns.start()
    restore = time.perf_counter() - started
    while not all(t.seq >= 1 for t in tables):  # each table's bot plays its first card at once ...
        await asyncio.sleep(0.1)
    await lobby.turns.flushed()  # ... and the deadlines that changed are stored: then all sleep
    await asyncio.sleep(1.0)
    after = rss_mib()
    cpu0, wall0 = cpu(), time.perf_counter()
    await asyncio.sleep(idle)
    idle_cpu = (cpu() - cpu0) / (time.perf_counter() - wall0)
    latencies = []
    for table in tables[:fires] if paced else []:
        seq = table.seq
        due = time.time() + 0.2  # the table's deadline brought near, in the schedule itself
        pending = lobby.turns.stored(table.id)
        assert pending is not None, "a sleeping table has a deadline"
        lobby.turns.set(table.id, due, pending[1])
        while table.seq == seq:
            await asyncio.sleep(0.001)
        latencies.append(time.time() - due)
    for table in tables:
        await table.close()
    await lobby.turns.stop()
    await lobby.writer.aclose()
    lobby.db.close()
    result = {
        "tables": len(tables),
        "restore_s": restore,
        "rss_mib": after,
        "kib_per_table": (after - before) * 1024 / max(1, len(tables)),
        "idle_cpu": idle_cpu,
    }
    if latencies:
        result["fire_median_ms"] = statistics.median(latencies) * 1000
        result["fire_worst_ms"] = max(latencies) * 1000
        result["fired"] = lobby.turns.fired
    return result


def one(count: int, idle: float, fires: int, paced: bool) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{Path(tmp) / 'turns.db'}")
        try:
            write_tables(store, count, paced)
            return asyncio.run(measure(store, count, idle, fires, paced))
        finally:
            store.close()


def side(kind: str, args: argparse.Namespace) -> dict[str, float]:
    command = [sys.executable, __file__, "--one", kind, "--tables", str(args.tables)]
    command += ["--idle", str(args.idle), "--fires", str(args.fires)]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    result: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--idle", type=float, default=5.0, help="seconds of idle CPU measured")
    parser.add_argument("--fires", type=int, default=20)
    parser.add_argument("--one", choices=("turn", "real"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is not None:  # one side, in a process of its own (so neither sees the other's memory)
        print(json.dumps(one(args.tables, args.idle, args.fires, paced=args.one == "turn")))
        return
    turn, real = (side(kind, args) for kind in ("turn", "real"))
    print(f"{turn['tables']:.0f} turn-based tables on one process (a day a move, one schedule task)")
    print(f"  restored in {turn['restore_s']:.1f} s; RSS {turn['rss_mib']:.0f} MiB")
    print(f"  {turn['kib_per_table']:.1f} KiB a table")
    print(f"  idle CPU {turn['idle_cpu'] * 100:.2f}% of a core over {args.idle:.0f} s")
    print(
        f"  a due deadline fired and its move stored: median {turn['fire_median_ms']:.1f} ms, "
        f"worst {turn['fire_worst_ms']:.1f} ms ({args.fires} deadlines)"
    )
    print(f"{real['tables']:.0f} real-time tables side by side (one event-loop timer each)")
    print(f"  RSS {real['rss_mib']:.0f} MiB, {real['kib_per_table']:.1f} KiB a table")
    print(f"  idle CPU {real['idle_cpu'] * 100:.2f}%")
    print(
        "ratio turn-based / real-time: "
        f"RSS a table {turn['kib_per_table'] / max(real['kib_per_table'], 1e-9):.2f}, "
        f"idle CPU {turn['idle_cpu'] / max(real['idle_cpu'], 1e-9):.2f}"
    )


if __name__ == "__main__":
    main()
