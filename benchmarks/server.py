"""Many concurrent tables on one server over loopback: how many it holds, messages per second,
and the latency from a client's action to the view that answers it (p50/p99).

Starts ``sakura``'s app under uvicorn in a subprocess (SQLite in a temporary folder), creates
``--tables`` four-seat tables whose seats are all taken by WebSocket clients in this process,
and lets every client play random legal actions from its own view until every game ends
(or ``--seconds`` pass). Prints numbers; asserts nothing.

    python benchmarks/server.py --tables 200
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.messages = 0
        self.finished = 0


async def client(url: str, token: str, seed: int, stats: Stats, stop: float) -> None:
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
            if kind == "update" and message["seat"] == me and sent_at is not None:
                stats.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if kind not in ("welcome", "update"):
                continue
            view = message["view"]
            if view["terminal"]:
                stats.finished += 1
                return
            if view["legal_actions"] and sent_at is None:
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": rng.choice(view["legal_actions"])}))


async def run(base: str, tables: int, seconds: float) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        seats: list[tuple[str, str]] = []
        for _ in range(tables):
            body = {"players": 4, "seats": [{"kind": "human"}] * 4}
            created = (await http.post("/api/tables", json=body)).json()
            table_id = created["table"]["id"]
            seats.append((table_id, created["token"]))
            for _ in range(3):
                joined = await http.post(f"/api/tables/{table_id}/join", json={})
                seats.append((table_id, joined.json()["token"]))
    stats = Stats()
    ws_base = base.replace("http", "ws")
    start = time.perf_counter()
    stop = start + seconds
    await asyncio.gather(*(client(f"{ws_base}/ws/{t}", tok, i, stats, stop)
                           for i, (t, tok) in enumerate(seats)))
    elapsed = time.perf_counter() - start
    lat = sorted(stats.latencies)

    def p(q: float) -> float:
        return lat[min(len(lat) - 1, int(q * len(lat)))] * 1000 if lat else float("nan")

    print(f"tables held concurrently: {tables} (4 seats each, {len(seats)} WebSocket clients)")
    print(f"games finished:           {stats.finished // 4} in {elapsed:.1f} s")
    print(f"actions:                  {len(lat)} ({len(lat) / elapsed:.0f} per second)")
    print(f"messages received:        {stats.messages} ({stats.messages / elapsed:.0f} per second)")
    print(f"action -> view latency:   p50 {p(0.50):.1f} ms, p99 {p(0.99):.1f} ms, "
          f"mean {statistics.fmean(lat) * 1000 if lat else float('nan'):.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=120.0, help="stop after this long")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{Path(tmp) / 'bench.db'}"
        code = ("import uvicorn; from sakura.server import create_app; "
                f"uvicorn.run(create_app({db!r}), host='127.0.0.1', port={port}, log_level='warning')")
        server = subprocess.Popen([sys.executable, "-c", code])
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(200):
                try:
                    httpx.get(base + "/api/tables", timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.1)
            asyncio.run(run(base, args.tables, args.seconds))
        finally:
            server.terminate()
            server.wait(30)


if __name__ == "__main__":
    main()
