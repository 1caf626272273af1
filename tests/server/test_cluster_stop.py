"""SIGTERM stops a cluster process (``sakura serve --redis-url``) within the documented bound,
10 s, even with tables mid-game, a search bot thinking and hints being worked out (issue #30,
item 5: such a process outlived SIGTERM by more than a minute; ``serving.Server`` bounds it).

A real ``sakura serve`` process on a fresh PostgreSQL schema and Redis prefix; real WebSocket
clients act as fast as they are asked to, ask for hints, and are still playing when the signal
comes. Skipped, with the reason, where PostgreSQL or Redis is absent.
"""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import websockets
from tests.server.cluster_site import REDIS
from tests.server.conftest import eventually

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
import cluster_kill  # noqa: E402

PROMISE = 10.0  # docs/web.md: the process is gone within 10 s of SIGTERM


async def _play(port: int, table: str, token: str, acted: list[int]) -> None:
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{table}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        await ws.send(json.dumps({"type": "hint"}))
        try:
            async for raw in ws:
                view = json.loads(raw).get("view")
                if view and view["legal_actions"] and not view["terminal"]:
                    await ws.send(json.dumps({"type": "hint"}))
                    await ws.send(json.dumps({"type": "act", "action": view["legal_actions"][0]}))
                    acted.append(1)
        except websockets.ConnectionClosed:
            pass


def test_sigterm_stops_a_cluster_process_mid_game_within_ten_seconds(pg: str, prefix: str) -> None:
    port = cluster_kill.free_port()
    command = [str(Path(sys.executable).with_name("sakura")), "serve", "--no-open", "--port", str(port)]
    process = subprocess.Popen(
        [*command, "--database-url", pg, "--redis-url", REDIS, "--redis-prefix", prefix],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        cluster_kill.wait_up(port, process)
        seats: list[dict[str, Any]] = [{"kind": "human"}] * 3 + [{"kind": "bot", "level": "hard"}]
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            games = []
            for _ in range(10):
                created = http.post("/api/tables", json={"players": 4, "seats": seats}).json()
                table = created["table"]["id"]
                joined = [http.post(f"/api/tables/{table}/join", json={}).json()["token"] for _ in range(2)]
                games += [(table, token) for token in [created["token"], *joined]]
        acted: list[int] = []

        async def scene() -> float:
            clients = [asyncio.create_task(_play(port, t, token, acted)) for t, token in games]
            # every table under way (the clients still playing)
            assert await eventually(lambda: len(acted) >= 20 or all(c.done() for c in clients))
            assert len(acted) >= 20
            signalled = time.monotonic()
            process.send_signal(signal.SIGTERM)
            await eventually(lambda: process.poll() is not None, 60)
            took = time.monotonic() - signalled
            for client in clients:
                client.cancel()
            await asyncio.gather(*clients, return_exceptions=True)
            return took

        took = asyncio.run(scene())
        assert process.poll() is not None, "still running a minute after SIGTERM"
        assert took < PROMISE, f"gone {took:.1f} s after SIGTERM (promised: {PROMISE:g} s)"
        # and it stopped by itself, not by the hard exit that bounds a stop (serving.Server): a
        # task whose cancellation was lost once kept the process up until then (tasks.py)
        assert process.stderr is not None
        said = process.stderr.read().decode(errors="replace")
        assert "exiting now" not in said, said[-3000:]
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
