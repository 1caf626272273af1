"""Many concurrent tables on one server over loopback: how many it holds, messages per second,
and the latency from a client's action to the view that answers it (p50/p99).

Starts ``sakura``'s app under uvicorn in a subprocess (uvicorn's defaults, as ``sakura serve``
runs it; SQLite in a temporary folder, or ``--database-url``), creates ``--tables``
four-seat tables whose seats are all taken by WebSocket clients, and lets every client play
random legal actions from its own view until every game ends (or ``--seconds`` pass).
Clients act as soon as they may (bots), or after a random think time (``--think``: uniform
between 0 and twice the mean, like people); they run in this process or split over
``--client-processes`` processes. Prints numbers, the CPU time the server and the clients
used, and the machine's load; asserts nothing.

    python benchmarks/server.py --tables 200
    python benchmarks/server.py --tables 200 --think 2 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


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


async def client(url: str, token: str, seed: int, stats: Stats, *, stop: float, think: float) -> None:
    rng = random.Random(seed)
    async with websockets.connect(url, max_queue=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_at: float | None = None
        me = None
        while time.perf_counter() < stop:
            message = json.loads(await ws.recv())
            stats.messages += 1
            kind = message["type"]
            if kind == "welcome":
                me = message["seat"]
                stats.connected += 1
                stats.peak = max(stats.peak, stats.connected)
            if kind == "error":
                stats.errors += 1
                sent_at = None
                continue
            if kind == "update" and message["seat"] == me and sent_at is not None:
                stats.latencies.append(time.perf_counter() - sent_at)
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


async def play(ws_base: str, seats: list[tuple[int, str, str]], seconds: float, think: float) -> Stats:
    stats = Stats()
    cpu = time.process_time()
    start = time.perf_counter()
    stop = start + seconds
    await asyncio.gather(*(client(f"{ws_base}/ws/{t}", tok, i, stats, stop=stop, think=think)
                           for i, t, tok in seats))
    stats.elapsed = time.perf_counter() - start
    stats.cpu = time.process_time() - cpu
    return stats


def play_in_process(args: tuple[str, list[tuple[int, str, str]], float, float]) -> Stats:
    return asyncio.run(play(*args))


async def create_tables(base: str, tables: int) -> list[tuple[int, str, str]]:
    seats: list[tuple[int, str, str]] = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        for _ in range(tables):
            body = {"players": 4, "seats": [{"kind": "human"}] * 4}
            created = (await http.post("/api/tables", json=body)).json()
            table_id = created["table"]["id"]
            seats.append((len(seats), table_id, created["token"]))
            for _ in range(3):
                joined = await http.post(f"/api/tables/{table_id}/join", json={})
                seats.append((len(seats), table_id, joined.json()["token"]))
    return seats


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc), or NaN elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(base: str, server_pid: int, args: argparse.Namespace) -> None:
    seats = asyncio.run(create_tables(base, args.tables))
    ws_base = base.replace("http", "ws")
    load_before = os.getloadavg()
    server_cpu = cpu_seconds(server_pid)
    if args.client_processes <= 1:
        parts = [play_in_process((ws_base, seats, args.seconds, args.think))]
    else:
        n = args.client_processes
        chunks = [seats[i::n] for i in range(n)]
        with multiprocessing.get_context("fork").Pool(n) as pool:
            parts = pool.map(play_in_process, [(ws_base, c, args.seconds, args.think) for c in chunks])
    server_cpu = cpu_seconds(server_pid) - server_cpu
    load_after = os.getloadavg()
    elapsed = max(s.elapsed for s in parts)
    lat = sorted(x for s in parts for x in s.latencies)
    messages = sum(s.messages for s in parts)

    def p(q: float) -> float:
        return lat[min(len(lat) - 1, int(q * len(lat)))] * 1000 if lat else float("nan")

    pace = f"think {args.think:g} s on average" if args.think else "as fast as they can"
    print(f"clients:                  {len(seats)} WebSocket clients at {args.tables} four-seat tables, "
          f"random legal actions, {pace}, in {len(parts)} process(es)")
    peak = sum(s.peak for s in parts)
    print(f"tables held concurrently: {peak / 4:g} (most clients connected and welcomed at once: {peak})")
    print(f"games finished:           {sum(s.finished for s in parts) // 4} in {elapsed:.1f} s")
    print(f"actions:                  {len(lat)} ({len(lat) / elapsed:.0f} per second), "
          f"{sum(s.errors for s in parts)} errors")
    print(f"messages received:        {messages} ({messages / elapsed:.0f} per second)")
    print(f"action -> view latency:   p50 {p(0.50):.1f} ms, p99 {p(0.99):.1f} ms, "
          f"mean {statistics.fmean(lat) * 1000 if lat else float('nan'):.1f} ms")
    print(f"CPU time:                 server {server_cpu:.1f} s "
          f"({server_cpu / max(1, len(lat)) * 1e3:.2f} ms an action), "
          f"clients {sum(s.cpu for s in parts):.1f} s, over {elapsed:.1f} s of wall time")
    print(f"load average (1 min):     {load_before[0]:.2f} before, {load_after[0]:.2f} after "
          f"on {os.cpu_count()} cores")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=120.0, help="stop after this long")
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean think time of a client before each action, seconds (0: bots)")
    parser.add_argument("--client-processes", type=int, default=1,
                        help="split the clients over this many processes")
    parser.add_argument("--database-url", default=None,
                        help="SQLAlchemy URL of an empty database (default: SQLite in a temporary folder)")
    parser.add_argument("--no-deflate", action="store_true",
                        help="serve without permessage-deflate (sakura serve compresses, as uvicorn does)")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.database_url or f"sqlite:///{Path(tmp) / 'bench.db'}"
        code = ("import uvicorn; from sakura.server import create_app; "
                f"uvicorn.run(create_app({db!r}), host='127.0.0.1', port={port}, log_level='warning', "
                f"ws_per_message_deflate={not args.no_deflate})")
        server = subprocess.Popen([sys.executable, "-c", code])
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(200):
                try:
                    httpx.get(base + "/api/tables", timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.1)
            run(base, server.pid, args)
        finally:
            server.terminate()
            server.wait(30)


if __name__ == "__main__":
    main()
