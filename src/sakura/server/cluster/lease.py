"""Table ownership as leases in Redis: ``SET key node NX PX`` to take one, renewed by a script
that extends it only while it still names this process, released the same way.

A lease is only a claim to be the one who writes: what keeps two writers apart is the database's
fencing (:mod:`.fencing`), so an owner whose lease lapsed while it was paused cannot do harm.
Every process also keeps a presence key (``node:<id>``) alive: an owner forgets a relayed
connection whose process is gone.
"""

from __future__ import annotations

from typing import Any

_RENEW = """
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if not holder then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]); return 2 end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class Leases:
    """The leases of one process (``node``), under a key prefix, lasting ``seconds``."""

    def __init__(self, redis: Any, prefix: str, node: str, seconds: float) -> None:
        self.redis, self.prefix, self.node = redis, prefix, node
        self.ms = int(seconds * 1000)
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)

    def key(self, table_id: str) -> str:
        return f"{self.prefix}lease:{table_id}"

    async def take(self, table_id: str) -> bool:
        """Take the lease if nobody holds it."""
        return bool(await self.redis.set(self.key(table_id), self.node, nx=True, px=self.ms))

    async def renew(self, table_ids: list[str]) -> tuple[list[str], list[str]]:
        """Extend these leases: the ids of those another process holds now (lost), and of those
        that had lapsed, unclaimed, and are taken again (to be checked against the database:
        nobody may have raised the table's lease number meanwhile)."""
        if not table_ids:
            return [], []
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id in table_ids:
                await self._renew(keys=[self.key(table_id)], args=[self.node, self.ms], client=pipe)
            answers = await pipe.execute()
        pairs = list(zip(table_ids, answers, strict=True))
        return [t for t, a in pairs if a == 0], [t for t, a in pairs if a == 2]

    async def release(self, table_id: str) -> None:
        await self._release(keys=[self.key(table_id)], args=[self.node])

    async def owners(self, table_ids: list[str]) -> dict[str, str | None]:
        """Who holds each lease (a node id), or None."""
        if not table_ids:
            return {}
        values = await self.redis.mget([self.key(t) for t in table_ids])
        return {t: v.decode() if isinstance(v, bytes) else v for t, v in zip(table_ids, values, strict=True)}

    # ---------------------------------------------------------------- presence of processes

    def node_key(self, node: str) -> str:
        return f"{self.prefix}node:{node}"

    async def alive(self) -> None:
        await self.redis.set(self.node_key(self.node), "1", px=self.ms)

    async def gone(self, nodes: list[str]) -> set[str]:
        """The processes among ``nodes`` whose presence key has lapsed."""
        if not nodes:
            return set()
        values = await self.redis.mget([self.node_key(n) for n in nodes])
        return {n for n, v in zip(nodes, values, strict=True) if v is None}
