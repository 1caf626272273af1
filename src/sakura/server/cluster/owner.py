"""The lobby of one process among many: which tables it owns, and everything the others ask.

:class:`ClusterLobby` is the :class:`~sakura.server.lobby.Lobby` with ownership. ``get`` gives
the table itself when this process owns it (or takes it, if nobody does), else a
:class:`~.remote.RemoteTable` that relays to the owner. A keeper task, every third of the lease
time, keeps this process present, renews its leases (a lost one: the table is dropped here and
its connections closed, so they reconnect to its new owner), takes every unfinished table whose
lease lapsed (failover: rebuilt from the database's events, its timer re-armed with the deadline
it had), closes relayed connections whose owner changed, and forgets relayed connections of
processes that are gone. It also publishes the summaries of the tables it owns in a Redis hash
(``live``) and reads everyone's back: the lobby's lists show the whole site, at most one keeper
round old (as the one-process lists are cached for ``lobby_cache_seconds``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import secrets
import socket
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from sakura.server.cluster import messages, sitewide
from sakura.server.cluster.fencing import lease_of, playing_ids, raise_lease
from sakura.server.cluster.lease import Leases
from sakura.server.cluster.moves import moves_here, site_moves
from sakura.server.cluster.reach import Reach
from sakura.server.cluster.relay import Relay, RelayConnection
from sakura.server.cluster.remote import UNREACHABLE, RemoteTable, ask
from sakura.server.cluster.timers import RedisDeadlines
from sakura.server.db import Store
from sakura.server.errors import TableError
from sakura.server.front import LocalTable, TableFront
from sakura.server.limits import Limits
from sakura.server.lobby import Lobby
from sakura.server.protocol import Chat
from sakura.server.table import Table
from sakura.server.tasks import halt
from sakura.server.turns.moves import Claim

log = logging.getLogger("sakura.server")

MOVED = {"ok": False, "message": UNREACHABLE, "code": "storage"}
REDIS_CONNECTIONS = 32  # per process
TAKE_PER_ROUND = 50  # orphaned tables one process takes per keeper round (the others take the rest)


class ClusterLobby(Lobby):
    """See the module docstring. ``start()`` after the event loop runs, ``stop()`` at the end."""

    def __init__(
        self, store: Store, limits: Limits | None, redis_url: str, *, prefix: str = "sakura:"
    ) -> None:
        super().__init__(store, limits)
        lease_seconds = self.limits.lease_seconds
        import redis.asyncio as aioredis

        self.node = f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        # a bounded pool whose callers wait their turn: 800 clients arriving at once do not open
        # 800 connections to Redis (nor fail with "too many connections")
        pool = aioredis.BlockingConnectionPool.from_url(
            redis_url,
            max_connections=REDIS_CONNECTIONS,
            timeout=5,
            socket_connect_timeout=1.0,
            socket_timeout=2.0,
        )
        self.redis = aioredis.Redis(connection_pool=pool)
        self.prefix = prefix
        self.leases = Leases(self.redis, prefix, self.node, lease_seconds)
        self.relay = Relay(self.redis, prefix, self.node, self._answer)
        self.request_seconds = lease_seconds + self.limits.db_timeout
        self.relayed: dict[tuple[str, str], tuple[Table, RelayConnection]] = {}  # (node, cid), at the owner
        self._order: dict[tuple[str, str], asyncio.Lock] = defaultdict(asyncio.Lock)
        self.watched: dict[str, tuple[str, set[str]]] = {}  # table -> (owner, relayed cids here)
        self._starter: asyncio.Task[None] | None = None
        self._keeper: asyncio.Task[None] | None = None
        self.reach = Reach()  # Redis reached yet? (a process starts serving without it)
        self._renewer: asyncio.Task[None] | None = None
        self._taking: dict[str, asyncio.Future[Table | None]] = {}  # tables being taken over here
        self.timers = RedisDeadlines(self.redis, prefix)  # the real-time deadlines, for the next owner
        self.taken = 0  # tables this process took over from another (failover), for the curious
        self.site: list[dict[str, Any]] = []  # every process's unfinished tables, as last read

    async def start(self) -> None:
        """Serve at once, Redis or not: reaching it goes on in the background (:mod:`.reach`),
        then the relay and the keeper start; ``/readyz`` answers 503 until then."""
        self._starter = asyncio.get_running_loop().create_task(self._reach())

    async def _reach(self) -> None:
        await self.reach.until_reached(self.leases.alive)
        self.relay.start()
        loop = asyncio.get_running_loop()
        self._keeper = loop.create_task(self._rounds())
        self._renewer = loop.create_task(self._renewals())

    async def peers_unready(self) -> str | None:
        return await self.reach.unready(self.redis.ping)

    async def stop(self) -> None:
        await halt((self._starter, self._keeper, self._renewer))  # a cancel may be lost: tasks.py
        await self.relay.stop()
        for table_id in list(self.tables):
            with contextlib.suppress(Exception):
                await self.leases.release(table_id)
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def restore(self) -> list[Table]:
        """Nothing at start-up: the keeper takes whatever unfinished table nobody owns."""
        return []

    # ---------------------------------------------------------------- owning

    async def _reserve(self, table_id: str) -> None:
        """A table this process is creating: its lease, taken before the table is stored (so no
        other process's keeper takes it for an orphan)."""
        try:
            taken = await self.leases.take(table_id)
        except Exception as exc:
            log.warning("table %s: no lease (Redis: %s)", table_id, exc)
            taken = False
        if not taken:
            raise TableError(UNREACHABLE, "storage", retry_after=1.0)

    async def _adopt(self, table: Table) -> None:
        """The table just created: its lease number from the database."""
        table.lease = await self.db.call(raise_lease, self.store, table.id, what=f"fencing table {table.id}")
        table.watch_clock(self.timers.changed)

    async def _take(self, table_id: str) -> Table | None:
        """Take ``table_id`` if its lease is free, and rebuild it. Meanwhile ``_taking`` holds a
        future of the outcome: a player arriving then waits for the table (``_taken``)."""
        if table_id in self._taking:
            return None
        taking: asyncio.Future[Table | None] = asyncio.get_running_loop().create_future()
        self._taking[table_id] = taking
        taken: Table | None = None
        try:
            if await self.leases.take(table_id):
                taken = await self._rebuild(table_id)
                self.metrics.failovers.inc()  # by the keeper, or for a player who came first
            return taken
        finally:
            del self._taking[table_id]
            taking.set_result(taken)

    async def _rebuild(self, table_id: str) -> Table:
        """Under the lease just taken: fence the database, then rebuild the table from it (so
        every write of a previous owner is in, or refused). The lease is let go if that fails."""
        try:
            lease = await self.db.call(raise_lease, self.store, table_id, what=f"fencing table {table_id}")
            stored = await self.db.call(self.store.load, table_id, what=f"loading table {table_id}")
            if stored is None:
                raise KeyError(table_id)
            await self.turns.recall([table_id])  # a turn-based table's deadline (turns/schedule.py)
            table = self._table(stored)
            table.lease = lease
            table.watch_clock(self.timers.changed)
            deadline = await self.timers.read(table_id)
            self.tables[table.id] = table  # served from now on: its timer is armed just below
            self._lists.clear()
            table.start()
            if deadline is not None:  # the timer goes on where it was
                table.resume_clock(deadline)
        except BaseException:
            with contextlib.suppress(Exception):
                await self.leases.release(table_id)
            raise
        log.info("table %s: taken (lease %d, %d actions)", table_id, lease, table.seq)
        return table

    async def _taken(self, table_id: str, seconds: float) -> Table | None:
        """The table, if this process is taking it over just now (failover) and has it within
        ``seconds``: whoever arrives meanwhile waits for it rather than being told to retry."""
        taking = self._taking.get(table_id)
        if taking is None:
            return None
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                return await asyncio.shield(taking)
        return None

    def _drop(self, table: Table, why: str) -> None:
        """This process no longer owns ``table``: stop it here, send its connections away."""
        log.warning("table %s: %s; dropped here", table.id, why)
        self.tables.pop(table.id, None)
        table.watch_clock(None)  # its deadline in Redis is the new owner's to write now
        self.timers.forget(table.id)
        self._lists.clear()  # its lease number stays: a write still under way is refused by the database
        asyncio.get_running_loop().create_task(table.close())
        for conn in list(table.connections):
            conn.close()
        table.connections.clear()
        for key in [k for k, (t, _) in self.relayed.items() if t is table]:
            del self.relayed[key]

    async def close_table(self, table: Table) -> None:  # closed in the database: nobody takes it again
        await super().close_table(table)  # (its connections stay: they are told, and see it closed)
        table.watch_clock(None)
        self.timers.forget(table.id)
        with contextlib.suppress(Exception):
            await self.leases.release(table.id)

    # ---------------------------------------------------------------- what the app asks

    async def get(self, table_id: str) -> Any:  # a Table, or a RemoteTable that relays to one
        table = await self._here(table_id)
        return table if table is not None else await self._remote(table_id)

    async def front(self, table_id: str) -> TableFront:
        table = await self._here(table_id)
        return LocalTable(table, self) if table is not None else await self._remote(table_id)

    async def _here(self, table_id: str) -> Table | None:
        """The table if this process serves it: owned, being taken, over (read-only: any
        process serves it) or taken now because nobody owns it; None if another process does."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        taken = await self._taken(table_id, self.request_seconds)
        if taken is not None:
            return taken
        stored = await self.db.call(self.store.load, table_id, what=f"loading table {table_id}")
        if stored is None:
            raise KeyError(table_id)
        if stored.status != "playing":  # over: read-only, any process serves it
            return await super().get(table_id)
        try:
            return await self._take(table_id)
        except TableError:
            raise
        except Exception as exc:
            log.warning("table %s: could not be taken: %s", table_id, exc)
            raise TableError(UNREACHABLE, "storage", retry_after=1.0) from None

    async def _remote(self, table_id: str) -> RemoteTable:
        """The table in its owner's memory, relayed to: a live owner answers at once, a dead
        one is not waited for long."""
        owner = (await self.leases.owners([table_id])).get(table_id)
        if owner is None or owner == self.node:
            raise TableError(UNREACHABLE, "storage", retry_after=1.0)
        reply = await ask(self, owner, messages.envelope(messages.Info(), table_id), self.leases.ms / 1000)
        return RemoteTable(self, table_id, owner, reply["info"])

    def watch(self, table_id: str, owner: str, cid: str) -> None:
        self.watched.setdefault(table_id, (owner, set()))[1].add(cid)

    def unwatch(self, table_id: str, cid: str) -> None:
        entry = self.watched.get(table_id)
        if entry is not None:
            entry[1].discard(cid)
            if not entry[1]:
                del self.watched[table_id]

    async def moves(self, claims: Sequence[Claim], account: str | None) -> dict[str, Any]:
        """ "Your move" across the site (:func:`.moves.site_moves`)."""
        return await site_moves(self, claims, account)

    async def _answer(self, message: dict[str, Any]) -> dict[str, Any]:
        """A request from another process, for a table this process owns (in arrival order per
        relayed connection), or for its tables (:class:`.messages.Moves`)."""
        if message.get("op") == messages.Moves.op:
            return moves_here(self, messages.from_wire(message))
        table_id = str(message.get("table", ""))
        table = self.tables.get(table_id)
        if table is None:  # perhaps being taken over here just now: answer once it is
            table = await self._taken(table_id, self.leases.ms / 1000)
        if table is None or table.lease is None:
            return MOVED
        key = (str(message["from"]), str(message.get("c")))
        async with self._order[key]:
            try:
                return await self._do(table, key, message)
            except TableError as exc:
                return {"ok": False, "message": str(exc), "code": exc.code, "retry_after": exc.retry_after}
            finally:
                if key not in self.relayed:
                    self._order.pop(key, None)

    async def _do(self, table: Table, key: tuple[str, str], message: dict[str, Any]) -> dict[str, Any]:
        """One request (:mod:`.messages`), answered by the table's :class:`LocalTable` for the
        relayed connection ``key``: the same calls the app makes for a connection of its own."""
        request = messages.from_wire(message)
        front = LocalTable(table, self)
        match request:
            case messages.Info():
                return {"ok": True, "info": table.info()}
            case messages.Claim(seat, name, account):
                seat, token = await front.claim(seat, name, account)
                return {"ok": True, "seat": seat, "token": token}
            case messages.Join(token, account, address):
                relay = RelayConnection(self.relay, key[0], key[1], address, limits=self.limits)
                await front.join(relay, token, account)
                self.relayed[key] = (table, relay)
                return {"ok": True, "seat": relay.seat}
            case messages.Moderate(what, chat_id):
                await front.moderate(what, chat_id)
                return {"ok": True}
            case messages.Unbind(account):
                await front.unbind(account)
                return {"ok": True}
            case messages.Since(token, account, seq):
                return {"ok": True, "since": await front.since(token, account, seq)}
        held = self.relayed.get(key)
        if held is None or held[0] is not table:
            return MOVED
        await self._relayed(front, key, held[1], request)
        return {"ok": True}

    async def _relayed(
        self, front: LocalTable, key: tuple[str, str], relay: RelayConnection, request: messages.Request
    ) -> None:
        """A request of a relayed connection that has joined."""
        match request:
            case messages.Leave():
                del self.relayed[key]
                await front.leave(relay)
            case messages.Act(text):
                await front.act(relay, text)
            case messages.Replace(seat):
                await front.replace(relay, seat)
            case messages.Rematch(decline=True):
                await front.decline_rematch(relay)
            case messages.Rematch():
                await front.rematch(relay)
            case messages.Say(text, phrase):
                await front.say(relay, Chat.model_validate({"type": "chat", "text": text, "phrase": phrase}))
            case messages.Greet(name):
                await front.greet(relay, name)
            case messages.Hint():
                await front.hint(relay)

    # ---------------------------------------------------------------- the keeper

    async def _rounds(self) -> None:
        pause = self.leases.ms / 3000
        while True:
            await asyncio.sleep(pause)
            for step in (self._take_orphans, self._check_watched, self._forget_gone, self._publish_lists):
                try:
                    await step()
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # Redis or the database away: the next round tries again
                    log.warning("cluster keeper: %s: %s", step.__name__, exc)

    async def _renewals(self) -> None:
        """The leases' own loop: nothing else (a slow database call, a long list) delays them."""
        pause = self.leases.ms / 3000
        while True:
            await asyncio.sleep(pause)
            try:
                await self._renew()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis away: the next round tries again
                log.warning("cluster keeper: renewing leases: %s", exc)

    async def _renew(self) -> None:
        await self.leases.alive()
        owned = [t for t in self.tables.values() if t.lease is not None]
        lost, retaken = await self.leases.renew([t.id for t in owned])
        for table_id in lost:
            table = self.tables.get(table_id)
            if table is not None:
                self._drop(table, "its lease was lost")
        for table_id in retaken:  # it lapsed (this process was slow) and nobody took it: still ours?
            table = self.tables.get(table_id)
            if table is None:
                continue
            current = await self.db.call(lease_of, self.store, table_id, what=f"table {table_id}: its lease")
            if current != table.lease:
                self._drop(table, "another process owned it meanwhile")

    async def _take_orphans(self) -> None:
        if self.live_count() >= self.limits.live_tables:
            return
        ids = [
            i
            for i in await self.db.call(playing_ids, self.store, what="listing tables in play")
            if i not in self.tables
        ]
        owners = await self.leases.owners(ids)
        free = [i for i, owner in owners.items() if owner is None]
        random.shuffle(free)
        for table_id in free[:TAKE_PER_ROUND]:
            if await self._take(table_id) is not None:
                self.taken += 1

    async def _check_watched(self) -> None:
        owners = await self.leases.owners(list(self.watched))
        for table_id, owner in owners.items():
            entry = self.watched.get(table_id)
            if entry is not None and owner != entry[0]:  # the owner changed or died: reconnect there
                for cid in list(entry[1]):
                    conn = self.relay.local.get(cid)
                    if conn is not None:
                        conn.close()

    # ---------------------------------------------------------------- the lobby's lists, site-wide

    async def _publish_lists(self) -> None:
        """This process's tables out, everyone's back (:func:`.sitewide.exchange`)."""
        owned = [t for t in self.tables.values() if t.lease is not None]
        self.site = await sitewide.exchange(self.redis, self.prefix, owned, 2 * self.leases.ms / 1000 + 1)
        self._lists.clear()

    def live_listing(self) -> dict[str, list[dict[str, Any]]]:
        return sitewide.live_listing(self.site)

    def open_tables(self, page: int = 0) -> list[dict[str, Any]]:
        everything: list[dict[str, Any]] = self.cached("open", 0, lambda: sitewide.open_tables(self.site))
        size = self.limits.lobby_page
        return everything[page * size : (page + 1) * size]

    async def _forget_gone(self) -> None:
        nodes = sorted({node for node, _ in self.relayed})
        for node in await self.leases.gone(nodes):
            for key in [k for k in self.relayed if k[0] == node]:
                table, relay = self.relayed.pop(key)
                with contextlib.suppress(Exception):
                    await table.leave(relay)
