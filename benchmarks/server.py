"""Many concurrent tables on one server over loopback: how many it holds, messages per second,
and the latency from a client's action to the view that answers it (p50/p99).

Starts ``sakura``'s app under uvicorn in a subprocess (configured as ``sakura serve`` runs it,
with the per-address and creation limits lifted, since every client comes from one address;
SQLite in a temporary folder, or ``--database-url``), creates ``--tables``
four-seat tables whose seats are all taken by WebSocket clients, and lets every client play
random legal actions from its own view until every game ends (or ``--seconds`` pass).
Clients act as soon as they may, or after a random think time (``--think``: uniform between
0 and twice the mean; several values run one after another on the same server, each with
fresh tables, and end with a summary table); they run in this process or split over
``--client-processes`` processes. Prints numbers, the CPU time the server and the clients
used, and the machine's load; asserts nothing.

With no think time the run is a closed loop at saturation: every client waits only for its
own answer, so the latency is the number of actions in flight divided by the throughput
(Little's law) and measures throughput, not responsiveness. A think time sets the offered
load, as bots that take their time (or people) do; the sweep shows up to which pace 200
tables are answered within a given latency.

    python benchmarks/server.py --tables 200
    python benchmarks/server.py --tables 200 --think 2 1 0.5 0.25 0 --seconds 40

With ``--redis-url`` the site is several processes (``sakura.server.cluster``, a fresh Redis key
prefix each run) on one database, ``--processes 1 2 3`` one run each: table ``t`` is created
on process ``t mod N`` and its seat ``k`` connects to process ``(t + k) mod N``, so with two or
more processes most clients are relayed, as behind a load balancer without sticky sessions.
The server CPU is summed over the processes. The load generator shares the machine's cores
with the servers, so more processes compete with it (and with each other) for the same cores.

    python benchmarks/server.py --tables 200 --think 0.25 --processes 1 2 3 \
        --redis-url redis://127.0.0.1:6379/0 --database-url postgresql+psycopg://postgres@127.0.0.1/test
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

from builds import compare_builds, past_revision
from loopback import free_port, serve

try:  # the load generator's own parsing competes with the server for the same cores
    from orjson import loads
except ImportError:  # pragma: no cover
    from json import loads


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    messages: int = 0
    finished: int = 0  # clients that saw the end of their game
    connected: int = 0  # clients connected and welcomed now
    peak: int = 0  # most clients connected and welcomed at once
    errors: int = 0
    elapsed: float = 0.0
    cpu: float = 0.0  # this process's CPU seconds while playing
    connect_seconds: float = 0.0  # until every client had its welcome
    stop: float = 0.0  # perf_counter() time the run ends (0: not started)
    measure_from: float = 0.0  # perf_counter() time the measurement starts (after the warm-up)
    server_cpu: float = 0.0  # the server's CPU seconds while playing


async def client(url: str, token: str, seed: int, stats: Stats, go: asyncio.Event, *, think: float) -> None:
    """One seat: connect and say hello, wait for every client to be welcomed (``go``), then
    play from its views until the game ends or the run's time is up."""
    rng = random.Random(seed)
    async with websockets.connect(url, max_queue=None, open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_at: float | None = None
        me = None
        while True:
            message = loads(await ws.recv())
            now = time.perf_counter()
            if stats.stop and now >= stats.stop:
                return
            measuring = stats.measure_from and now >= stats.measure_from
            stats.messages += bool(measuring)
            kind = message["type"]
            if kind == "welcome":
                me = message["seat"]
                stats.connected += 1
                stats.peak = max(stats.peak, stats.connected)
                await go.wait()
            if kind == "error":
                stats.errors += 1
                sent_at = None
                continue
            if kind == "update" and message["seat"] == me and sent_at is not None:
                if measuring:
                    stats.latencies.append(now - sent_at)
                sent_at = None
            if kind not in ("welcome", "update"):
                continue
            view = message["view"]
            if view["terminal"]:
                stats.finished += 1
                stats.connected -= 1
                return
            if view["legal_actions"] and sent_at is None:
                if think:  # nobody else can change a seat's options while it is due
                    await asyncio.sleep(rng.uniform(0, 2 * think))
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": rng.choice(view["legal_actions"])}))


async def play(
    ws_base: str,
    seats: list[tuple[int, str, str]],
    seconds: float,
    think: float,
    server_pid: int,
    *,
    warmup: float,
) -> Stats:
    """Connect every client first (timed apart: a storm of 800 connections is another test),
    then let them all play at once; measure after ``warmup`` seconds (the first moves of 200
    tables started together are a burst no server sees in steady play)."""
    stats = Stats()
    go = asyncio.Event()
    started = time.perf_counter()
    tasks = [
        asyncio.ensure_future(
            client(url if "://" in url else f"{ws_base}/ws/{url}", tok, i, stats, go, think=think)
        )
        for i, url, tok in seats
    ]
    while stats.connected < len(seats) and not any(t.done() for t in tasks):
        await asyncio.sleep(0.01)
    stats.connect_seconds = time.perf_counter() - started
    start = time.perf_counter()
    stats.stop = start + seconds
    stats.measure_from = start + warmup
    go.set()
    await asyncio.sleep(warmup)
    cpu, server_cpu = time.process_time(), cpu_seconds(server_pid)
    await asyncio.gather(*tasks)
    stats.elapsed = time.perf_counter() - stats.measure_from
    stats.cpu = time.process_time() - cpu
    stats.server_cpu = cpu_seconds(server_pid) - server_cpu
    return stats


def play_in_process(args: tuple[str, list[tuple[int, str, str]], float, float, int, float]) -> Stats:
    *rest, warmup = args
    return asyncio.run(play(*rest, warmup=warmup))


async def create_tables(
    base: str, tables: int, others: list[str] | None = None
) -> list[tuple[int, str, str]]:
    """Four-seat tables: (client index, table id or the WebSocket URL of its seat, token).
    ``others``: every process's base URL; table ``t``'s seat ``k`` then connects to process
    ``(t + k) mod N`` (the table is created on process ``t mod N``)."""
    seats: list[tuple[int, str, str]] = []
    bases = others or [base]
    for t in range(tables):
        home = bases[t % len(bases)]
        async with httpx.AsyncClient(base_url=home, timeout=60) as http:
            body = {"players": 4, "seats": [{"kind": "human"}] * 4}
            created = (await http.post("/api/tables", json=body)).json()
            table_id = created["table"]["id"]
            tokens = [created["token"]]
            for _ in range(3):
                joined = await http.post(f"/api/tables/{table_id}/join", json={})
                tokens.append(joined.json()["token"])
        for k, token in enumerate(tokens):
            where = (
                table_id
                if others is None
                else (f"{bases[(t + k) % len(bases)].replace('http', 'ws')}/ws/{table_id}")
            )
            seats.append((len(seats), where, token))
    return seats


def cpu_seconds(pid: int | list[int]) -> float:
    """User + system CPU time of a process (Linux /proc; of several: summed), or NaN elsewhere."""
    if isinstance(pid, list):
        return sum(cpu_seconds(p) for p in pid)
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(
    base: str, server_pid: Any, args: argparse.Namespace, think: float, bases: list[str] | None = None
) -> dict[str, float]:
    seats = asyncio.run(create_tables(base, args.tables, bases))
    ws_base = base.replace("http", "ws")
    load_before = os.getloadavg()
    if args.client_processes <= 1:
        parts = [play_in_process((ws_base, seats, args.seconds, think, server_pid, args.warmup))]
    else:
        n = args.client_processes
        chunks = [seats[i::n] for i in range(n)]
        with multiprocessing.get_context("fork").Pool(n) as pool:
            jobs = [(ws_base, c, args.seconds, think, server_pid, args.warmup) for c in chunks]
            parts = pool.map(play_in_process, jobs)
    server_cpu = max(s.server_cpu for s in parts)
    load_after = os.getloadavg()
    elapsed = max(s.elapsed for s in parts)
    lat = sorted(x for s in parts for x in s.latencies)
    messages = sum(s.messages for s in parts)

    def p(q: float) -> float:
        return lat[min(len(lat) - 1, int(q * len(lat)))] * 1000 if lat else float("nan")

    pace = f"think {think:g} s on average" if think else "as fast as they can"
    if bases:
        print(f"site:                     {len(bases)} server process(es) on Redis (sakura.server.cluster)")
    print(
        f"clients:                  {len(seats)} WebSocket clients at {args.tables} four-seat tables, "
        f"random legal actions, {pace}, in {len(parts)} process(es)"
    )
    peak = sum(s.peak for s in parts)
    print(
        f"tables held concurrently: {peak / 4:g} (most clients connected and welcomed at once: {peak}; "
        f"all welcomed {max(s.connect_seconds for s in parts):.1f} s after the first connected)"
    )
    print(
        f"games finished:           {sum(s.finished for s in parts) // 4}; measured over {elapsed:.1f} s "
        f"after a {args.warmup:g} s warm-up"
    )
    print(
        f"actions:                  {len(lat)} ({len(lat) / elapsed:.0f} per second), "
        f"{sum(s.errors for s in parts)} errors"
    )
    print(f"messages received:        {messages} ({messages / elapsed:.0f} per second)")
    print(
        f"action -> view latency:   p50 {p(0.50):.1f} ms, p99 {p(0.99):.1f} ms, "
        f"mean {statistics.fmean(lat) * 1000 if lat else float('nan'):.1f} ms"
    )
    print(
        f"CPU time:                 server {server_cpu:.1f} s "
        f"({server_cpu / max(1, len(lat)) * 1e3:.2f} ms an action), "
        f"clients {sum(s.cpu for s in parts):.1f} s, over {elapsed:.1f} s of wall time"
    )
    print(
        f"load average (1 min):     {load_before[0]:.2f} before, {load_after[0]:.2f} after "
        f"on {os.cpu_count()} cores"
    )
    return {
        "think": think,
        "rate": len(lat) / elapsed,
        "messages": messages / elapsed,
        "p50": p(0.50),
        "p99": p(0.99),
        "cpu": server_cpu / max(1, len(lat)) * 1e3,
        "load": load_after[0],
        "games": sum(s.finished for s in parts) // 4,
        "processes": len(bases or [base]),
    }


def summary(rows: list[dict[str, float]], tables: int) -> None:
    print(
        f"\n{tables} tables | processes | think (mean, s) | actions/s | messages/s | p50 ms | p99 ms | "
        "server CPU ms/action | load | games finished"
    )
    for r in rows:
        print(
            f"| {r['processes']:g} | {r['think']:g} | {r['rate']:.0f} | {r['messages']:.0f} | "
            f"{r['p50']:.1f} | {r['p99']:.1f} | {r['cpu']:.2f} | {r['load']:.1f} | {r['games']:.0f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=120.0, help="stop after this long")
    parser.add_argument(
        "--warmup",
        type=float,
        default=3.0,
        help="seconds of play before the measurement starts (the synchronised first moves)",
    )
    parser.add_argument(
        "--think",
        type=float,
        nargs="+",
        default=[0.0],
        help="mean think time of a client before each action, seconds (0: at once); "
        "several values: one run each",
    )
    parser.add_argument(
        "--client-processes", type=int, default=1, help="split the clients over this many processes"
    )
    parser.add_argument(
        "--database-url",
        default=None,
        help="SQLAlchemy URL of an empty database (default: SQLite in a temporary folder)",
    )
    parser.add_argument(
        "--no-deflate",
        action="store_true",
        help="serve without permessage-deflate (sakura serve compresses, as uvicorn does)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        nargs="+",
        default=[1],
        help="with --redis-url: server processes of the site (several values: one run each)",
    )
    parser.add_argument("--redis-url", default=None, help="run a site of --processes processes on this Redis")
    parser.add_argument(
        "--against",
        metavar="REV",
        default=None,
        help="a past revision's server (pure), this checkout's pure and compiled ones, "
        "in turn, --rounds times, fresh tables each",
    )
    parser.add_argument("--rounds", type=int, default=3, help="with --against")
    if "--against" not in sys.argv and not compare_builds(__file__, higher_is_better=False):
        return
    args = parser.parse_args()
    if args.redis_url is not None:
        cluster_runs(args)
        return
    if args.against is not None:
        against(args)
        return
    with tempfile.TemporaryDirectory() as tmp:
        rows = []
        with server(args, tmp) as (base, pid):
            for think in args.think:
                rows.append(run(base, pid, args, think))
                print()
        if len(rows) > 1:
            summary(rows, args.tables)


# sakura serve's limits, but for the ones that one load generator on one address must pass
LIMITS = (
    "connections_per_address=100_000, creates_per_minute=100_000, live_tables=100_000, "
    "messages_per_second=1000, message_burst=1000"
)


def server(
    args: argparse.Namespace, tmp: str, env: dict[str, str] | None = None
) -> contextlib.AbstractContextManager[tuple[str, int]]:
    """This benchmark's server (``loopback.serve``): yields its base URL and pid."""
    return serve(LIMITS, args.database_url, tmp, deflate=not args.no_deflate, env=env)


def against(args: argparse.Namespace) -> None:
    """The server of revision ``args.against`` (its source in a temporary worktree, pure: the
    engine of that day), this checkout's pure build and its compiled one, each a fresh process
    and fresh tables, in turn, ``--rounds`` times per think time; each keeps its best round
    (the least CPU an action: the machine is shared, the least disturbed round is the fairest)."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="sakura-server-") as tmp, past_revision(args.against) as past:
        variants = {
            f"{args.against} pure": {
                **os.environ,
                "SAKURA_PURE": "1",
                "PYTHONPATH": os.pathsep.join([str(past / "src"), os.environ.get("PYTHONPATH", "")]),
            },
            "now pure": {**os.environ, "SAKURA_PURE": "1"},
            "now compiled": {**os.environ, "SAKURA_PURE": "0"},
        }
        for think in args.think:
            best: dict[str, dict[str, float]] = {}
            for _ in range(args.rounds):
                for name, env in variants.items():
                    print(f"[{name}]")
                    with server(args, tmp, env) as (base, pid):
                        row = run(base, pid, args, think)
                    print()
                    if name not in best or row["cpu"] < best[name]["cpu"]:
                        best[name] = row
            for name, row in best.items():
                rows.append({**row, "name": name})
    print(f"\n{args.tables} four-seat tables, best of {args.rounds} interleaved rounds (least server CPU)")
    print("| server | think (s) | actions/s | p50 ms | p99 ms | server CPU ms/action | × the first |")
    first: dict[float, float] = {}
    for r in rows:
        ref = first.setdefault(r["think"], r["cpu"])
        print(
            f"| {r['name']} | {r['think']:g} | {r['rate']:.0f} | {r['p50']:.1f} | {r['p99']:.1f} | "
            f"{r['cpu']:.3f} | {ref / r['cpu']:.2f}× less |"
        )


def cluster_runs(args: argparse.Namespace) -> None:
    """One run per process count and think time, each site on a fresh Redis prefix (and, without
    --database-url, a fresh SQLite file)."""
    import uuid

    from cluster_kill import drop_prefix, start_node, wait_up

    rows = []
    for count in args.processes:
        for think in args.think:
            prefix = f"sakura-bench-{uuid.uuid4().hex[:8]}:"
            with tempfile.TemporaryDirectory() as tmp:
                db = args.database_url or f"sqlite:///{Path(tmp) / 'bench.db'}"
                if args.database_url is not None:
                    from cluster_kill import pg_schema

                    db = pg_schema(args.database_url)
                ports = [free_port() for _ in range(count)]
                nodes = [
                    start_node(db, args.redis_url, prefix, p, lease=3.0, wait=False, bench=True)
                    for p in ports
                ]
                try:
                    for port, node in zip(ports, nodes, strict=True):
                        wait_up(port, node)
                    bases = [f"http://127.0.0.1:{p}" for p in ports]
                    rows.append(run(bases[0], [n.pid for n in nodes], args, think, bases))
                    print()
                finally:
                    for node in nodes:
                        node.terminate()
                    for node in nodes:
                        node.wait(30)
                    drop_prefix(args.redis_url, prefix)
                    if args.database_url is not None:
                        from cluster_kill import drop_schema

                        drop_schema(db)
    summary(rows, args.tables)


if __name__ == "__main__":
    main()
