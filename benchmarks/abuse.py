"""Replay the attacks of the server audit (issue #12) against a live server and show it unaffected.

Starts ``sakura``'s server in a subprocess exactly as ``sakura serve`` configures it (its
limits, its uvicorn protocols, SQLite in a temporary folder). A *victim* plays at a table of its
own and pings the server every 50 ms throughout. Each attack then runs, bounded in count and
time, from loopback only, and a row is printed: whether the server refused it (and how), its
resident memory before and after, and the victim's ping round trip (p50 / p99 / max) while the
attack ran. Asserts nothing; every row should read "refused" with a flat memory line and a
ping in milliseconds. ``--postgres`` runs it on a fresh schema of the PostgreSQL server
(the crowd attacks of ``crowds.py`` are the ones that told the two apart).

    python benchmarks/abuse.py
    python benchmarks/abuse.py --only huge-frames,flood
    python benchmarks/abuse.py --postgres --only chat-crowd,crowd-join,flood,chat-flood
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import multiprocessing
import os
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import websockets

from cluster_kill import DEFAULT_PG, drop_schema, pg_schema
from crowds import CROWD_ATTACKS
from loopback import free_port

Attack = Callable[["Bench"], Awaitable[str]]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Bench:
    def __init__(self, db: Path, port: int, log: Path, url: str | None = None) -> None:
        self.db = db
        self.url = url or f"sqlite:///{db}"
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.ws = f"ws://127.0.0.1:{port}/ws/"
        code = (
            "from sakura.server import create_app; from sakura.server.serving import config; "
            "from sakura.server.limits import Limits, LOOPBACK_HOSTS; import uvicorn; "
            "limits = Limits(allowed_hosts=LOOPBACK_HOSTS); "
            f"uvicorn.Server(config(create_app({self.url!r}, limits), host='127.0.0.1', port={port}, "
            "limits=limits)).run()"
        )
        self.log = log
        self.server = subprocess.Popen([sys.executable, "-c", code], stderr=log.open("wb"))
        for _ in range(400):
            try:
                httpx.get(self.base + "/api/tables", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.05)
        self.pings: list[float] = []
        self.setups = 0

    async def table(self, players: int = 2, bots: int = 0) -> dict[str, str]:
        """A table of ``players`` seats (``bots`` of them bots); every human seat's token. Made
        from an address of its own (127.0.0.x), so that the attacks' own refusals (per address)
        do not refuse the scene they are set in."""
        seats = [{"kind": "human"}] * (players - bots) + [{"kind": "bot", "level": "easy"}] * bots
        self.setups += 1
        source = f"127.0.{1 + self.setups // 200}.{10 + self.setups % 200}"
        transport = httpx.AsyncHTTPTransport(local_address=source)
        async with httpx.AsyncClient(base_url=self.base, timeout=30, transport=transport) as http:
            created = (await http.post("/api/tables", json={"players": players, "seats": seats})).json()
            table = created["table"]["id"]
            tokens = {"table": table, "0": created["token"]}
            for i in range(1, players - bots):
                tokens[str(i)] = (await http.post(f"/api/tables/{table}/join", json={})).json()["token"]
        return tokens


def victim(base: str, source: str, pipe: Any) -> None:
    """In a process of its own (the attacks' own CPU would slow its pings otherwise): plays at
    a table of its own, made from its own address, and pings every 50 ms until told to stop;
    then sends back its round trips, the "other table" figure."""

    async def run() -> list[float]:
        transport = httpx.AsyncHTTPTransport(local_address=source)
        async with httpx.AsyncClient(base_url=base, timeout=30, transport=transport) as http:
            created = (await http.post("/api/tables", json={"players": 2})).json()
        pings: list[float] = []
        url = base.replace("http://", "ws://") + "/ws/" + created["table"]["id"]
        async with websockets.connect(url, local_addr=(source, 0)) as ws:
            await ws.send(json.dumps({"type": "hello", "token": created["token"]}))
            while json.loads(await ws.recv())["type"] != "welcome":
                pass
            pipe.send("ready")
            while not pipe.poll():
                start = time.perf_counter()
                await ws.send(json.dumps({"type": "ping"}))
                while json.loads(await ws.recv())["type"] != "pong":
                    pass
                pings.append(time.perf_counter() - start)
                await asyncio.sleep(0.05)  # 20 a second: under the rate limit of a connection
        return pings

    pipe.send(asyncio.run(run()))


async def huge_frames(b: Bench) -> str:
    """20 sockets each sending a 15 MiB message (was: 170 MB -> 768 MB of server memory)."""
    table = (await b.table())["table"]
    closed = []
    for _ in range(20):
        async with websockets.connect(b.ws + table, max_size=None) as ws:
            try:
                await ws.send("x" * (15 * 1024 * 1024))
                await asyncio.wait_for(ws.recv(), 10)
            except websockets.ConnectionClosed as exc:
                closed.append(exc.rcvd.code if exc.rcvd else None)
    return f"closed {closed.count(1009)}/20 with 1009 (too big)"


async def huge_bodies(b: Bench) -> str:
    """4 POSTs of 100 MB (was: 990 MB)."""
    statuses = []

    async def body() -> object:
        for _ in range(100):
            yield b" " * (1024 * 1024)

    async with httpx.AsyncClient(base_url=b.base, timeout=30) as http:
        for _ in range(4):
            try:
                response = await http.post(
                    "/api/tables", content=body(), headers={"content-type": "application/json"}
                )
                statuses.append(response.status_code)
            except httpx.HTTPError:  # the server answered 413 and closed while we still sent
                statuses.append("413+cut")
    return f"answers {statuses} (413: body too large, the upload cut off)"


async def spectators(b: Bench) -> str:
    """1,000 spectators join one table (was: 501,500 messages, 44 s of CPU): how many table
    messages the seated player gets, and how many of the 1,000 are let in from one address."""
    table = await b.table()
    received = 0
    async with websockets.connect(b.ws + table["table"]) as player:
        await player.send(json.dumps({"type": "hello", "token": table["0"]}))
        await player.recv()
        refused = admitted = 0
        for _ in range(1000):
            async with websockets.connect(b.ws + table["table"]) as ws:
                await ws.send(json.dumps({"type": "hello"}))
                if json.loads(await ws.recv())["type"] == "welcome":
                    admitted += 1
                else:
                    refused += 1
        await player.send(json.dumps({"type": "ping"}))
        while json.loads(await player.recv())["type"] != "pong":
            received += 1
    return f"player got {received} table messages for 1,000 connect/close; all admitted: {admitted}"


async def connect_flood(b: Bench) -> str:
    """40 sockets at once from one address (beyond the per-address cap)."""
    table = (await b.table())["table"]
    sockets, refused, reason = [], 0, ""
    try:
        for _ in range(40):
            ws = await websockets.connect(b.ws + table)
            sockets.append(ws)
            try:
                await ws.send(json.dumps({"type": "hello"}))
                message = json.loads(await ws.recv())
                if message["type"] != "welcome":
                    refused, reason = refused + 1, message["message"]
            except websockets.ConnectionClosed as exc:
                refused, reason = refused + 1, exc.rcvd.reason if exc.rcvd else "closed"
    finally:
        for ws in sockets:
            await ws.close()
    return f"{refused} of 40 refused ({reason})"


async def raw_socket(b: Bench, table: str, receive_buffer: int | None = None) -> Any:
    """A WebSocket opened by hand (after the server's 101, as a client must wait for it): the
    attack decides what it sends and whether it ever reads."""
    reader, writer = await asyncio.open_connection("127.0.0.1", b.port, limit=1024)
    if receive_buffer is not None:  # a small window: the server's sends back up at once
        writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [
        f"GET /ws/{table} HTTP/1.1",
        f"Host: 127.0.0.1:{b.port}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {key}",
        "Sec-WebSocket-Version: 13",
        "",
        "",
    ]
    writer.write("\r\n".join(lines).encode())
    await reader.readuntil(b"\r\n\r\n")
    return reader, writer


async def slow_readers(b: Bench) -> str:
    """10 spectators that never read (nor answer pings), at a table being played (was: 3.85 MB
    queued each, still there 70 s later). Memory is bounded per socket (kernel buffer, outbox);
    the keepalive lets them go."""
    table = await b.table(6, 5)
    started = time.monotonic()
    raws = []
    for _ in range(10):
        reader, writer = await raw_socket(b, table["table"], receive_buffer=2048)
        payload = json.dumps({"type": "hello"}).encode()
        mask = os.urandom(4)
        masked = bytes(c ^ mask[i % 4] for i, c in enumerate(payload))
        writer.write(bytes([0x81, 0x80 | len(payload)]) + mask + masked)
        await writer.drain()
        raws.append((reader, writer))
    moves = 0
    async with websockets.connect(b.ws + table["table"]) as player:
        await player.send(json.dumps({"type": "hello", "token": table["0"]}))
        acted = None
        while True:
            message = json.loads(await asyncio.wait_for(player.recv(), 30))
            view = message.get("view")
            if message["type"] == "error":
                acted = None
            if view is None:
                continue
            if view["terminal"]:
                break
            if view["legal_actions"] and acted != message.get("seq"):
                await player.send(json.dumps({"type": "act", "action": view["legal_actions"][0]}))
                acted = message.get("seq")
                moves += 1
    await asyncio.sleep(max(0.0, started + 45 - time.monotonic()))  # the keepalive: 20 s + 20 s
    ours = {w.get_extra_info("sockname")[1] for _, w in raws}
    listing = subprocess.run(
        ["ss", "-tnH", "state", "established", f"( sport = :{b.port} )"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    held = sum(1 for line in listing.splitlines() if int(line.split()[-1].rsplit(":", 1)[1]) in ours)
    for _, writer in raws:
        writer.close()
    return f"{10 - held}/10 let go by the server within 45 s (a game of {moves} moves played meanwhile)"


async def replace_at_once(b: Bench) -> str:
    """Replace an opponent right after their page reload (was: a bot moved within 10 ms)."""
    table = await b.table()
    async with websockets.connect(b.ws + table["table"]) as first:
        await first.send(json.dumps({"type": "hello", "token": table["0"]}))
        async with websockets.connect(b.ws + table["table"]) as second:
            await second.send(json.dumps({"type": "hello", "token": table["1"]}))
            await second.recv()
        await first.send(json.dumps({"type": "replace", "seat": 1}))
        while (message := json.loads(await first.recv()))["type"] != "error":
            pass
    return f"refused: {message['code']} ({message['message'][:60]}...)"


async def many_tables(b: Bench) -> str:
    """10,000 table creations from one address (was: all accepted, lobby list 341 ms)."""
    statuses: dict[int, int] = {}
    async with httpx.AsyncClient(base_url=b.base, timeout=30) as http:
        for _ in range(10_000):
            status = (await http.post("/api/tables", json={"players": 2})).status_code
            statuses[status] = statuses.get(status, 0) + 1
        start = time.perf_counter()
        for _ in range(20):
            await http.get("/api/tables")
        listing = (time.perf_counter() - start) / 20
    elsewhere = httpx.AsyncHTTPTransport(local_address="127.0.3.1")
    async with httpx.AsyncClient(base_url=b.base, transport=elsewhere) as h:
        six = {"players": 6, "seats": [{"kind": "bot", "level": "hard"}] * 6}
        bots = (await h.post("/api/tables", json=six)).status_code
    return (
        f"answers {dict(sorted(statuses.items()))}; six hard bots: {bots}; lobby list {listing * 1000:.1f} ms"
    )


async def message_flood(b: Bench) -> str:
    """20,000 messages as fast as one socket sends them."""
    table = await b.table()
    kinds: dict[str, int] = {}
    async with websockets.connect(b.ws + table["table"]) as ws:
        await ws.send(json.dumps({"type": "hello", "token": table["0"]}))
        try:
            for _ in range(20_000):
                await ws.send('{"type": "act", "action": "play 99"}')
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 5))
                key = message.get("code", message["type"])
                kinds[key] = kinds.get(key, 0) + 1
        except websockets.ConnectionClosed as exc:
            return f"closed ({exc.rcvd.code if exc.rcvd else '-'}) after replies {kinds}"
        except TimeoutError:
            return f"still open; replies {kinds}"


async def half_headers(b: Bench) -> str:
    """200 connections that send half a request and wait (slow loris)."""
    writers = []
    for _ in range(200):
        reader, writer = await asyncio.open_connection("127.0.0.1", b.port)
        writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        writers.append((reader, writer))
    start = time.perf_counter()
    closed = 0
    for reader, _ in writers:
        try:
            if await asyncio.wait_for(reader.read(), 15) == b"":
                closed += 1
        except (TimeoutError, ConnectionError):
            closed += 1
    for _, writer in writers:
        writer.close()
    return f"{closed}/200 cut off by the server within {time.perf_counter() - start:.1f} s"


async def bad_utf8(b: Bench) -> str:
    """1,000 text frames that are not UTF-8 (was: 489 KB of tracebacks in the log)."""
    table = (await b.table())["table"]
    before = b.log.stat().st_size
    slow = 0
    for _ in range(1000):
        reader, writer = await raw_socket(b, table)
        writer.write(bytes([0x81, 0x82]) + b"\0\0\0\0" + b"\xff\xfe")
        await writer.drain()
        try:
            await asyncio.wait_for(reader.read(), 2)
        except TimeoutError:
            slow += 1
        writer.close()
    grown = b.log.stat().st_size - before
    return f"{1000 - slow}/1000 closed at once (1007); the log grew {grown / 1024:.0f} KB"


async def hostile_requests(b: Bench) -> str:
    """A NUL in an id, a rebinding Host, a foreign Origin."""
    async with httpx.AsyncClient(base_url=b.base) as http:
        nul = (await http.get("/api/tables/a%00b")).status_code
        host = (await http.get("/", headers={"host": f"attacker.example:{b.port}"})).status_code
    try:
        async with websockets.connect(b.ws + "x", origin="http://attacker.example"):
            origin = "accepted"
    except websockets.InvalidStatus as exc:
        origin = str(exc.response.status_code)
    return f"NUL id: {nul}; foreign Host: {host}; foreign Origin: {origin}"


async def locked_database(b: Bench) -> str:
    """SQLite held by another process while tables are created (was: 5 s frozen, then 500)."""
    other = sqlite3.connect(b.db, timeout=0, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    statuses = []
    async with httpx.AsyncClient(base_url=b.base, timeout=30) as http:
        for _ in range(3):
            response = await http.post("/api/tables", json={"players": 2})
            statuses.append(response.status_code)
    other.rollback()
    other.close()
    return f"answers {statuses} (503: try again)"


ATTACKS: dict[str, Attack] = {
    "locked-db": locked_database,
    "huge-frames": huge_frames,
    "huge-bodies": huge_bodies,
    "spectators": spectators,
    "connect-flood": connect_flood,
    "slow-readers": slow_readers,
    "replace": replace_at_once,
    "flood": message_flood,
    "half-headers": half_headers,
    "bad-utf8": bad_utf8,
    "hostile": hostile_requests,
    "many-tables": many_tables,
    **CROWD_ATTACKS,
}


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        url = pg_schema(args.postgres_url) if args.postgres else None
        bench = Bench(Path(tmp) / "abuse.db", free_port(), Path(tmp) / "server.log", url)
        try:
            names = args.only.split(",") if args.only else list(ATTACKS)
            print(
                f"{'attack':14} {'RSS before':>10} {'after':>7} {'ping p50':>8} {'p99':>7} {'max':>7}  result"
            )
            for name in names:
                spawn = multiprocessing.get_context("spawn")  # not forked from a running event loop
                ours, theirs = spawn.Pipe()
                source = f"127.0.2.{10 + names.index(name)}"
                process = spawn.Process(target=victim, daemon=True, args=(bench.base, source, theirs))
                process.start()
                if not ours.poll(60) or ours.recv() != "ready":
                    raise SystemExit("the victim could not sit down at a table")
                await asyncio.sleep(0.3)
                before = rss_mb(bench.server.pid)
                try:
                    result = await asyncio.wait_for(ATTACKS[name](bench), args.seconds)
                except Exception as exc:  # a row says what happened; the next attack runs
                    result = f"attack failed: {type(exc).__name__}: {exc}"
                after = rss_mb(bench.server.pid)
                ours.send("stop")
                pings = sorted(ours.recv()) or [float("nan")]
                process.join(10)
                p99 = pings[min(len(pings) - 1, int(len(pings) * 0.99))]
                print(
                    f"{name:14} {before:8.0f}MB {after:5.0f}MB {statistics.median(pings) * 1000:6.1f}ms "
                    f"{p99 * 1000:5.1f}ms {pings[-1] * 1000:5.0f}ms  {result}",
                    flush=True,
                )
        finally:
            bench.server.terminate()
            bench.server.wait(30)
            if url is not None:
                drop_schema(url)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated attacks: " + ",".join(ATTACKS))
    parser.add_argument("--postgres", action="store_true", help="on PostgreSQL, not SQLite")
    parser.add_argument("--postgres-url", default=DEFAULT_PG, help="the server --postgres uses")
    parser.add_argument("--seconds", type=float, default=120, help="longest an attack may run")
    asyncio.run(main(parser.parse_args()))
