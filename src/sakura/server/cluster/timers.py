"""The real-time deadlines an owner keeps in Redis (``deadline:<table>``) for whoever takes its
tables over: a failover's new owner goes on to the deadline the table had rather than giving
the decision its full time again (a turn-based table's deadline is in the database instead,
:mod:`sakura.server.turns`).

One writer task per table stores the latest value, one command after another: two commands
in flight at once (a re-armed timer first clears its deadline, then sets the new one) may
reach Redis on two connections in either order, and the clearing one landing last would lose
the deadline.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sakura.server.table import Table

log = logging.getLogger("sakura.server")


class RedisDeadlines:
    """The deadlines of one process's tables in Redis, under ``prefix``."""

    def __init__(self, redis: Any, prefix: str) -> None:
        self.redis, self.prefix = redis, prefix
        self.pending: dict[str, float | None] = {}  # deadlines to store, by table
        self.writers: dict[str, asyncio.Task[None]] = {}

    def key(self, table_id: str) -> str:
        return f"{self.prefix}deadline:{table_id}"

    async def read(self, table_id: str) -> float | None:
        """The deadline the table's previous owner stored, if any."""
        stored = await self.redis.get(self.key(table_id))
        return None if stored is None else float(stored)

    def changed(self, table: Table) -> None:
        """Store ``table``'s deadline (a table's ``watch_clock`` listener)."""
        self.pending[table.id] = table.deadline
        if table.id not in self.writers:  # a writer leaves only once nothing is left
            self.writers[table.id] = asyncio.get_running_loop().create_task(self._store(table.id))

    def forget(self, table_id: str) -> None:
        """Store nothing more for ``table_id`` (it is another owner's now, or closed)."""
        self.pending.pop(table_id, None)
        writer = self.writers.pop(table_id, None)
        if writer is not None:
            writer.cancel()

    async def _store(self, table_id: str) -> None:
        key = self.key(table_id)
        while table_id in self.pending:
            deadline = self.pending.pop(table_id)
            try:
                if deadline is None:
                    await self.redis.delete(key)
                else:
                    keep = int(1000 * (deadline - time.time())) + 60_000
                    await self.redis.set(key, repr(deadline), px=keep)
            except Exception as exc:  # the next owner restarts the clock in full: not worth more
                log.warning("table %s: its deadline was not stored (Redis: %s)", table_id, exc)
        self.writers.pop(table_id, None)
