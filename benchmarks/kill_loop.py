"""Kill -9 the server under load, again and again, and count acknowledged against stored actions.

A client is told of an action only once the database holds it: that is the server's promise
(``docs/web.md``). This script keeps it honest. It starts ``sakura``'s server in a subprocess
(on SQLite in a temporary folder, or ``--database-url``), seats WebSocket clients at
``--tables`` tables that play random legal actions, and ``--kills`` times kills the server with
SIGKILL at a random moment, starts it again on the same database and lets the clients reconnect
(as the page does). Afterwards it reads the database and checks every action any client was
told of: it must be stored, at its place, by its seat (and for a client's own actions, the same
action). It prints the counts and exits non-zero on any loss. Loopback only, bounded in time.

    python benchmarks/kill_loop.py --tables 8 --kills 20
    python benchmarks/kill_loop.py --database-url postgresql+psycopg://postgres@127.0.0.1/test
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

from loopback import free_port


@dataclass
class Told:
    """What the clients heard: (table, seq) -> seat, and their own acknowledged actions."""

    seats: dict[tuple[str, int], int] = field(default_factory=dict)
    own: dict[tuple[str, int], tuple[int, str]] = field(default_factory=dict)
    reconnects: int = 0
    finished: set[str] = field(default_factory=set)


def start_server(db: str, port: int) -> subprocess.Popen[bytes]:
    code = (
        "from sakura.server import create_app; from sakura.server.serving import config; "
        "from sakura.server.limits import Limits; import uvicorn; "
        "limits = Limits(connections_per_address=10_000, creates_per_minute=10_000, "
        "messages_per_second=1000, message_burst=1000); "
        f"uvicorn.Server(config(create_app({db!r}, limits), host='127.0.0.1', port={port}, "
        "limits=limits)).run()"
    )
    process = subprocess.Popen([sys.executable, "-c", code])
    for _ in range(300):
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=1)
            return process
        except httpx.HTTPError:
            time.sleep(0.05)
    raise SystemExit("the server did not start")


async def seat(
    url: str,
    table: str,
    token: str,
    me: int,
    *,
    told: Told,
    rng: random.Random,
    stop: asyncio.Event,
    think: float,
) -> None:
    while not stop.is_set() and table not in told.finished:
        try:
            async with websockets.connect(url, open_timeout=5) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                sent: str | None = None
                async for raw in ws:
                    message = json.loads(raw)
                    kind = message["type"]
                    if kind == "update":
                        told.seats[(table, message["seq"])] = message["seat"]
                        if message["seat"] == me and message["action"] is not None:
                            told.own[(table, message["seq"])] = (me, message["action"])
                            sent = None
                    elif kind == "error":
                        sent = None
                    view = message.get("view")
                    if view is None:
                        continue
                    if view["terminal"]:
                        told.finished.add(table)
                        return
                    if view["legal_actions"] and sent is None and kind in ("welcome", "update"):
                        if think:
                            await asyncio.sleep(rng.uniform(0, 2 * think))
                        sent = rng.choice(view["legal_actions"])
                        await ws.send(json.dumps({"type": "act", "action": sent}))
                    if stop.is_set():
                        return
        except (OSError, websockets.WebSocketException, TimeoutError):
            told.reconnects += 1
            await asyncio.sleep(0.1)


async def run(args: argparse.Namespace, db: str) -> int:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(db, port)
    rng = random.Random(args.seed)
    told = Told()
    stop = asyncio.Event()
    tasks = []
    tables = []
    try:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            for _ in range(args.tables):
                players = rng.choice([2, 3, 4])
                created = (
                    await http.post(
                        "/api/tables", json={"players": players, "seats": [{"kind": "human"}] * players}
                    )
                ).json()
                table = created["table"]["id"]
                tokens = [created["token"]] + [
                    (await http.post(f"/api/tables/{table}/join", json={})).json()["token"]
                    for _ in range(players - 1)
                ]
                tables.append(table)
                for i, token in enumerate(tokens):
                    socket_url = f"ws://127.0.0.1:{port}/ws/{table}"
                    tasks.append(
                        asyncio.create_task(
                            seat(
                                socket_url,
                                table,
                                token,
                                i,
                                told=told,
                                stop=stop,
                                rng=random.Random(rng.random()),
                                think=args.think,
                            )
                        )
                    )
        deadline = time.monotonic() + args.seconds
        for kill in range(args.kills):
            await asyncio.sleep(rng.uniform(0.2, args.interval))
            os.kill(server.pid, signal.SIGKILL)
            server.wait()
            server = start_server(db, port)
            print(
                f"kill {kill + 1}/{args.kills}: {len(told.seats)} actions told so far, "
                f"{len(told.finished)}/{len(tables)} games over",
                flush=True,
            )
            if time.monotonic() > deadline:
                break
        while len(told.finished) < len(tables) and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
    finally:
        stop.set()
        await asyncio.wait(tasks, timeout=10) if tasks else None
        for task in tasks:
            task.cancel()
        server.send_signal(signal.SIGTERM)
        server.wait(30)
    return check(db, tables, told)


def tally(db: str, tables: list[str], told: Any) -> tuple[int, int, int, int]:
    """(actions told to clients, stored, lost, different) of ``tables``: every action a client
    was told must be stored under its seq by the same seat, every acknowledged one exactly.
    ``told`` has ``seats`` and ``own`` (this script's ``Told``, or the cluster loop's)."""
    from sakura.server.db import Store

    store = Store(db)
    lost = wrong = stored_total = 0
    try:
        for table in tables:
            stored = store.load(table)
            actions = stored.actions if stored is not None else []
            stored_total += len(actions)
            for (t, seq), seat in told.seats.items():
                if t != table:
                    continue
                if seq > len(actions):
                    lost += 1
                elif actions[seq - 1][0] != seat:
                    wrong += 1
            for (t, seq), (seat, action) in told.own.items():
                if t == table and seq <= len(actions) and actions[seq - 1] != (seat, action):
                    wrong += 1
    finally:
        store.close()
    return len(told.seats), stored_total, lost, wrong


def check(db: str, tables: list[str], told: Told) -> int:
    _, stored_total, lost, wrong = tally(db, tables, told)
    print(f"tables {len(tables)}, finished {len(told.finished)}, reconnects {told.reconnects}")
    print(
        f"actions told to clients {len(told.seats)} (own, acknowledged: {len(told.own)}), "
        f"stored {stored_total}, lost {lost}, different {wrong}"
    )
    return 1 if lost or wrong else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--interval", type=float, default=1.5, help="longest wait between two kills (s)")
    parser.add_argument("--think", type=float, default=0.1, help="mean think time of a client (s)")
    parser.add_argument("--seconds", type=float, default=120, help="stop after this long, whatever is left")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.database_url or f"sqlite:///{Path(tmp) / 'kill.db'}"
        sys.exit(asyncio.run(run(args, db)))


if __name__ == "__main__":
    main()
