"""The many-processes tests' shared parts: a site of real server processes on loopback ports
(:class:`Site`), one PostgreSQL schema and one Redis key prefix a test (the fixtures ``pg``,
``prefix`` and ``site_of``, offered to every test of ``tests/server`` by its conftest), and the
helpers the cluster tests have in common. Each fixture skips, with the reason, where PostgreSQL
or Redis is absent.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
import cluster_kill  # noqa: E402  (benchmarks/cluster_kill.py: the site's processes and clients)

REDIS = os.environ.get("SAKURA_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
PG = os.environ.get("SAKURA_TEST_POSTGRES_URL", cluster_kill.DEFAULT_PG)


def redis_up(url: str) -> bool:
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=1)
        client.ping()
        client.close()
        return True
    except Exception:
        return False


@pytest.fixture
def pg() -> Iterator[str]:
    try:
        url = cluster_kill.pg_schema(PG)
    except Exception as exc:
        pytest.skip(
            f"no PostgreSQL server reachable at {PG} ({type(exc).__name__}); set SAKURA_TEST_POSTGRES_URL"
        )
    try:
        yield url
    finally:
        cluster_kill.drop_schema(url)


@pytest.fixture
def prefix() -> Iterator[str]:
    if not redis_up(REDIS):
        pytest.skip(f"no Redis server reachable at {REDIS} (set SAKURA_TEST_REDIS_URL)")
    name = f"sakura-test-{uuid.uuid4().hex[:8]}:"
    try:
        yield name
    finally:
        cluster_kill.drop_prefix(REDIS, name)


class Site:
    """``count`` server processes on loopback ports, stopped at the end."""

    def __init__(self, db: str, redis_url: str, prefix: str, count: int, lease: float = 1.5) -> None:
        self.db, self.redis_url, self.prefix, self.lease = db, redis_url, prefix, lease
        self.ports = [cluster_kill.free_port() for _ in range(count)]
        self.nodes = [
            cluster_kill.start_node(db, redis_url, prefix, p, lease=lease, wait=False) for p in self.ports
        ]
        for port, node in zip(self.ports, self.nodes, strict=True):
            cluster_kill.wait_up(port, node)

    def owner(self, table: str) -> int | None:
        """The index of the process that owns ``table``."""
        pid = cluster_kill.owner_pid(self.redis_url, self.prefix, table)
        return next((i for i, n in enumerate(self.nodes) if n.pid == pid), None)

    def stored_deadline(self, table: str) -> float | None:
        """The timer's deadline of ``table`` as its owner last stored it in Redis."""
        import redis

        client = redis.Redis.from_url(self.redis_url)
        try:
            value = client.get(f"{self.prefix}deadline:{table}")
        finally:
            client.close()
        return None if value is None else float(value.decode())

    def stop(self) -> None:
        for node in self.nodes:
            if node.poll() is None:
                os.kill(node.pid, signal.SIGCONT)
                node.send_signal(signal.SIGTERM)
        for node in self.nodes:
            try:
                node.wait(30)
            except subprocess.TimeoutExpired:
                node.kill()


@pytest.fixture
def site_of(pg: str, prefix: str) -> Iterator[Any]:
    sites: list[Site] = []

    def make(count: int, redis_url: str = REDIS, lease: float = 1.5) -> Site:
        site = Site(pg, redis_url, prefix, count, lease)
        sites.append(site)
        return site

    try:
        yield make
    finally:
        for site in sites:
            site.stop()


def seated_table(site: Site, players: int, on: int = 0) -> tuple[str, list[str]]:
    """A table of human seats created on process ``on``, the other seats joined through the others."""
    created = httpx.post(
        f"http://127.0.0.1:{site.ports[on]}/api/tables",
        json={"players": players, "seats": [{"kind": "human"}] * players},
        timeout=30,
    )
    created.raise_for_status()
    table, tokens = created.json()["table"]["id"], [created.json()["token"]]
    for k in range(players - 1):
        port = site.ports[(on + k + 1) % len(site.ports)]
        joined = httpx.post(f"http://127.0.0.1:{port}/api/tables/{table}/join", json={}, timeout=30)
        joined.raise_for_status()
        tokens.append(joined.json()["token"])
    return table, tokens


@contextlib.asynccontextmanager
async def local_lobby(prefix: str, database: Path, clock: Any = None) -> Any:
    """A :class:`ClusterLobby` in this process, on the SQLite file ``database`` and the real
    Redis, not started (no keeper): a test drives its takeover and its timer's writes itself.
    With ``clock`` (a ``FakeClock``) its turn-based schedule runs on it."""
    from sakura.server.cluster.owner import ClusterLobby
    from sakura.server.db import Store

    store = Store(f"sqlite:///{database}")
    lobby = ClusterLobby(store, None, REDIS, prefix=prefix)
    redis = lobby.redis
    if clock is not None:
        lobby.turns.clock = clock
        lobby.turns.start()
    try:
        yield lobby
    finally:
        for table in list(lobby.tables.values()):
            await table.close()
        if clock is not None:
            await lobby.turns.stop()
        await lobby.writer.aclose()
        lobby.db.close()
        await redis.aclose()
        store.close()


async def next_message(ws: Any, kind: str, seconds: float = 60) -> dict[str, Any]:
    """The next message of type ``kind`` on ``ws`` (others are skipped)."""

    async def wait() -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(await ws.recv())
            if message["type"] == kind:
                return message

    return await asyncio.wait_for(wait(), seconds)
