"""Many sleeping turn-based tables on one process: memory, CPU while idle, and how soon a due
deadline fires. Prints numbers; asserts nothing.

``--tables`` turn-based tables (a claimed player and a bot, a day a move, the player due) are
written straight into a fresh SQLite file, each with ``--actions`` stored actions (a game under
way: the same seeded game for every table), then one server process's lobby restores them all,
as after a restart, and its one schedule task holds their deadlines. The lobby has the default
``Limits.db_timeout``: a load of the unfinished tables slower than that fails the start, as it
would fail a server's. Measured:

* the restore: the database call that reads every unfinished table, and the whole (the
  tables rebuilt, their actions replayed);
* RSS before and after (``/proc/self/status``), and per table;
* CPU time (user + system) over ``--idle`` seconds of wall time with every table asleep: one
  task sleeps until the earliest deadline, so it should be close to nothing;
* ``--fires`` deadlines brought to now + 0.2 s one after another: from the due second to the
  timer's move stored and told (the action's ``seq`` moving), median and worst;
* side by side, the same tables on the real-time clock (one event-loop timer each, a 3600 s
  timer): the ratio of the two processes' idle CPU and RSS a table.

    python benchmarks/turn_based.py
    python benchmarks/turn_based.py --tables 2000 --idle 3
    python benchmarks/turn_based.py --actions 40   # each table 40 actions into its game
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import multiprocessing
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

from sakura.engine import make_game  # noqa: E402
from sakura.server.db import Store  # noqa: E402
from sakura.server.limits import Limits  # noqa: E402
from sakura.server.lobby import Lobby  # noqa: E402
from sakura.server.models import ActionRow, DeadlineRow, TableRow  # noqa: E402
from sakura.server.turns.pace import decision_key  # noqa: E402

SEED = 1000  # every table's deal: one game under way, stored once a table


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu() -> float:
    times = os.times()
    return times.user + times.system


def a_game_under_way(actions: int) -> tuple[list[tuple[int, str]], str]:
    """At least ``actions`` actions of a two-player game (each seat's first legal one, the bot's
    first), stopped where only the player (seat 0) is due; and the decision pending then."""
    state = make_game("sakura", {"players": 2}).new_initial_state(SEED)
    played: list[tuple[int, str]] = []
    while len(played) < actions or state.current_players() != (0,):
        if state.is_terminal():
            raise SystemExit(f"a game has fewer than {actions} actions: ask for fewer")
        seat = max(state.current_players())  # the bot (seat 1) when it is due
        action = state.legal_actions(seat)[0]
        state.apply_action(seat, action)
        played.append((seat, str(action)))
    return played, decision_key(state.progress())


def write_tables(store: Store, count: int, paced: bool, actions: int) -> None:
    """``count`` tables in one transaction: seat 0 a claimed player (due), seat 1 a bot."""
    now = dt.datetime.now(dt.UTC)
    played, decision = a_game_under_way(actions) if actions else ([], "1:selection:0,1")
    seats = [
        {"kind": "human", "name": "Ada", "token_hash": "0" * 64},
        {"kind": "bot", "name": "", "bot": "greedy", "level": "beginner"},
    ]
    rows: list[dict[str, Any]] = []
    deadlines: list[dict[str, Any]] = []
    moves: list[dict[str, Any]] = []
    for i in range(count):
        rows.append(
            {
                "id": f"t{i:06d}",
                "game": "sakura",
                "config": {"players": 2},
                "seed": SEED if played else SEED + i,
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
            deadlines.append({"table_id": f"t{i:06d}", "due_at": due, "decision": decision})
        moves += [
            {"table_id": f"t{i:06d}", "seq": n, "seat": seat, "action": text, "by": "player", "at": now}
            for n, (seat, text) in enumerate(played, 1)
        ]
    with store.engine.begin() as conn:
        conn.execute(insert(TableRow), rows)
        if deadlines:
            conn.execute(insert(DeadlineRow), deadlines)
        for start in range(0, len(moves), 50_000):
            conn.execute(insert(ActionRow), moves[start : start + 50_000])


async def measure(store: Store, count: int, idle: float, fires: int, paced: bool) -> dict[str, float]:
    lobby = Lobby(store, Limits(live_tables=count + 10))  # the default db_timeout: as a server starts
    calls: list[float] = []  # each database call's seconds: the deadlines, then a page of tables each
    lobby.db.observe = calls.append
    before = rss_mib()
    started = time.perf_counter()
    tables = await lobby.restore()
    for table in tables:
        table.start()
    lobby.turns.start()
    restore = time.perf_counter() - started
    reads = list(calls)  # the restore's own (the schedule's writes come after)
    loaded = time.perf_counter()
    while not all(t.state.current_players() == (0,) for t in tables):  # each table's bot plays ...
        await asyncio.sleep(0.1)
    settled = time.perf_counter() - loaded
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
        "load_s": sum(reads),
        "worst_call_s": max(reads),
        "calls": len(reads),
        "settle_s": settled,
        "actions": sum(t.seq for t in tables) / max(1, len(tables)),
        "rss_mib": after,
        "kib_per_table": (after - before) * 1024 / max(1, len(tables)),
        "idle_cpu": idle_cpu,
    }
    if latencies:
        result["fire_median_ms"] = statistics.median(latencies) * 1000
        result["fire_worst_ms"] = max(latencies) * 1000
        result["fired"] = lobby.turns.fired
    return result


def write_at(url: str, count: int, paced: bool, actions: int) -> None:
    store = Store(url)
    try:
        write_tables(store, count, paced, actions)
    finally:
        store.close()


def one(count: int, idle: float, fires: int, paced: bool, actions: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'turns.db'}"
        # written by a child process: the rows built to write them would stay in this one's
        # memory, and the tables restored would fill it again unseen by the RSS measured
        writer = multiprocessing.get_context("spawn").Process(
            target=write_at, args=(url, count, paced, actions)
        )
        writer.start()
        writer.join()
        if writer.exitcode != 0:
            raise SystemExit("writing the tables failed")
        store = Store(url)
        try:
            return asyncio.run(measure(store, count, idle, fires, paced))
        finally:
            store.close()


def side(kind: str, args: argparse.Namespace) -> dict[str, float]:
    command = [sys.executable, __file__, "--one", kind, "--tables", str(args.tables)]
    command += ["--idle", str(args.idle), "--fires", str(args.fires), "--actions", str(args.actions)]
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
    parser.add_argument("--actions", type=int, default=0, help="stored actions a table (a game under way)")
    parser.add_argument("--one", choices=("turn", "real"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is not None:  # one side, in a process of its own (so neither sees the other's memory)
        print(json.dumps(one(args.tables, args.idle, args.fires, args.one == "turn", args.actions)))
        return
    turn, real = (side(kind, args) for kind in ("turn", "real"))
    print(f"{turn['tables']:.0f} turn-based tables on one process (a day a move, one schedule task)")
    print(
        f"  restored in {turn['restore_s']:.1f} s ({turn['actions']:.0f} actions a table); reading them "
        f"{turn['load_s']:.1f} s in {turn['calls']:.0f} database calls, the longest "
        f"{turn['worst_call_s']:.2f} s; RSS {turn['rss_mib']:.0f} MiB"
    )
    print(f"  {turn['kib_per_table']:.1f} KiB a table")
    print(f"  idle CPU {turn['idle_cpu'] * 100:.2f}% of a core over {args.idle:.0f} s")
    print(
        f"  a due deadline fired and its move stored: median {turn['fire_median_ms']:.1f} ms, "
        f"worst {turn['fire_worst_ms']:.1f} ms ({args.fires} deadlines)"
    )
    print(f"{real['tables']:.0f} real-time tables side by side (one event-loop timer each)")
    print(f"  restored in {real['restore_s']:.1f} s (reading them {real['load_s']:.1f} s)")
    print(f"  RSS {real['rss_mib']:.0f} MiB, {real['kib_per_table']:.1f} KiB a table")
    print(f"  idle CPU {real['idle_cpu'] * 100:.2f}%")
    print(
        "ratio turn-based / real-time: "
        f"RSS a table {turn['kib_per_table'] / max(real['kib_per_table'], 1e-9):.2f}, "
        f"idle CPU {turn['idle_cpu'] / max(real['idle_cpu'], 1e-9):.2f}"
    )


if __name__ == "__main__":
    main()
