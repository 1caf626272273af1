"""The crowd attacks of ``benchmarks/abuse.py`` (issue #30, item 4): many people at one table.

Each takes the running :class:`abuse.Bench` and returns its row's result; the victim's ping at
another table is measured around it by ``abuse.py``. Each client comes from an address of its
own (127.0.x.y), as a crowd does: the per-address bounds then do not refuse it outright, and
what is measured is the work the server does for it. Bounded in count and time; loopback only.

    python benchmarks/abuse.py --postgres --only chat-crowd,crowd-join,flood,chat-flood
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import websockets

CHAT_SPEAKERS = 100
CHAT_SECONDS = 20.0
JOINERS = 1000
JOIN_WAVE = 50
CHAT_FLOOD = 20_000


def crowd_address(i: int) -> str:
    """The ``i``-th member of a crowd's own loopback address (127.0.10.x onwards)."""
    return f"127.0.{10 + i // 250}.{1 + i % 250}"


async def _spectator(b: Any, table: str, i: int, name: str) -> Any:
    ws = await websockets.connect(b.ws + table, local_addr=(crowd_address(i), 0), max_queue=None)
    await ws.send(json.dumps({"type": "hello", "name": name}))
    while json.loads(await ws.recv())["type"] != "welcome":
        pass
    return ws


async def _drain(ws: Any, counts: dict[str, int]) -> None:
    """Read everything a socket is sent (a crowd that reads), counting it by type or code."""
    try:
        async for raw in ws:
            message = json.loads(raw)
            key = message.get("code", message["type"])
            counts[key] = counts.get(key, 0) + 1
    except websockets.ConnectionClosed:
        pass


async def chat_crowd(b: Any) -> str:
    """100 spectators, each from its own address, chatting 5 a second each for 20 s."""
    table = (await b.table())["table"]
    counts: dict[str, int] = {}
    sockets = [await _spectator(b, table, i, f"Fan {i}") for i in range(CHAT_SPEAKERS)]
    readers = [asyncio.create_task(_drain(ws, counts)) for ws in sockets]
    sent = 0

    async def speak(ws: Any, i: int) -> None:
        nonlocal sent
        end = time.monotonic() + CHAT_SECONDS
        while time.monotonic() < end:
            await ws.send(json.dumps({"type": "chat", "text": f"go go go {i} {sent}"}))
            sent += 1
            await asyncio.sleep(0.2)

    try:
        await asyncio.gather(*(speak(ws, i) for i, ws in enumerate(sockets)))
    finally:
        for ws in sockets:
            await ws.close()
        await asyncio.gather(*readers)
    limited = counts.get("chat_rate_limited", 0)
    return f"{sent} sent, {limited} refused (chat limit); {counts.get('chat', 0)} chat messages relayed"


async def crowd_join(b: Any) -> str:
    """1,000 spectators join one table, 50 at a time (each wave from its own addresses),
    each reading its welcome and the chat's history, then leaving."""
    table = (await b.table())["table"]
    admitted = refused = 0
    for wave in range(JOINERS // JOIN_WAVE):
        members = range(wave * JOIN_WAVE, (wave + 1) * JOIN_WAVE)
        results = await asyncio.gather(
            *(_spectator(b, table, i % 500, f"Join {i}") for i in members), return_exceptions=True
        )
        for ws in results:
            if isinstance(ws, BaseException):
                refused += 1
                continue
            admitted += 1
            await ws.close()
    return f"{admitted} of {JOINERS} admitted and left again ({refused} refused)"


async def chat_flood(b: Any) -> str:
    """20,000 chat messages as fast as one seated player's socket sends them."""
    table = await b.table()
    kinds: dict[str, int] = {}
    async with websockets.connect(b.ws + table["table"], max_queue=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": table["0"]}))
        reader = asyncio.create_task(_drain(ws, kinds))
        try:
            for i in range(CHAT_FLOOD):
                await ws.send(json.dumps({"type": "chat", "text": f"spam {i}"}))
        except websockets.ConnectionClosed as exc:
            return f"closed ({exc.rcvd.code if exc.rcvd else '-'}) after replies {kinds}"
        await ws.send(json.dumps({"type": "ping"}))
        end = time.monotonic() + 30
        while "pong" not in kinds and not reader.done() and time.monotonic() < end:
            await asyncio.sleep(0.05)
        reader.cancel()
    return f"replies {kinds}"


CROWD_ATTACKS = {"chat-crowd": chat_crowd, "crowd-join": crowd_join, "chat-flood": chat_flood}
