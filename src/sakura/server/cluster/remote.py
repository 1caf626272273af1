"""A table owned by another process, as the app sees it: the same calls as a
:class:`~sakura.server.table.Table` (join, act, replace, leave, claim, info), each sent to the
owner through the :class:`~.relay.Relay` and answered there by the real table.

One is made per request or connection (cheap: the owner's ``info`` is fetched once). The owner
checks the seat and the token and builds every message for this connection's seat, so nothing
here decides or filters anything.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from sakura.server.cluster.relay import Unreachable
from sakura.server.errors import TableError
from sakura.server.table import Connection

if TYPE_CHECKING:
    from sakura.server.cluster.owner import ClusterLobby

UNREACHABLE = "this table's server is not answering just now (it may be moving to another); please try again"


class RemoteTable:
    """See the module docstring."""

    def __init__(self, lobby: ClusterLobby, table_id: str, owner: str, info: dict[str, Any]) -> None:
        self.lobby, self.id, self.owner, self._info = lobby, table_id, owner, info
        self.status: str = info["status"]
        self.lock = asyncio.Lock()  # the owner's table has the real one; this one orders nothing
        self.cid: str | None = None
        self.conn: Connection | None = None
        self.connections: set[Connection] = set()

    def info(self) -> dict[str, Any]:
        return self._info

    async def call(self, op: str, **args: Any) -> dict[str, Any]:
        return await ask(self.lobby, self.owner, self.id, op, c=self.cid, **args)

    async def claim(self, seat: int | None, name: str | None, account: str | None = None) -> tuple[int, str]:
        reply = await self.call("claim", seat=seat, name=name, account=account)
        return int(reply["seat"]), str(reply["token"])

    # Chat, its history and hints are the owner's too: it stores the message and tells every
    # connection of the table (relayed ones included), and it holds the state a hint needs.
    async def say(self, text: str | None, phrase: str | None) -> None:
        await self.call("chat", text=text, phrase=phrase)

    async def greet(self, name: str | None) -> None:
        await self.call("greet", name=name)

    async def hint(self) -> None:
        await self.call("hint")

    async def join(self, conn: Connection, token: str | None, account: str | None = None) -> None:
        self.cid, self.conn = self.lobby.relay.new_id(), conn
        self.lobby.relay.local[self.cid] = conn
        self.lobby.watch(self.id, self.owner, self.cid)
        try:
            reply = await self.call("join", token=token, account=account)
        except TableError as exc:
            self._forget()
            if exc.code == "storage":  # the owner is away: the page reconnects and finds the next one
                asyncio.get_running_loop().call_soon(conn.close)
            raise
        conn.seat = reply["seat"]
        self.connections.add(conn)

    async def act(self, seat: int | None, text: str, by: str = "player") -> None:
        if seat is None:
            raise TableError("spectators cannot act; take a seat to play", "not_seated")
        await self.call("act", text=text)

    async def replace(self, requester: int | None, seat: int) -> None:
        await self.call("replace", seat=seat)

    async def rematch(self, requester: int | None) -> None:
        await self.call("rematch")

    async def leave(self, conn: Connection) -> None:
        if self.cid is not None and self.cid in self.lobby.relay.local:
            self.lobby.relay.send(
                self.owner,
                {"k": "req", "op": "leave", "table": self.id, "c": self.cid, "from": self.lobby.node},
            )
        self._forget()

    def _forget(self) -> None:
        if self.cid is not None:
            self.lobby.relay.local.pop(self.cid, None)
            self.lobby.unwatch(self.id, self.cid)
        if self.conn is not None:
            self.connections.discard(self.conn)


async def ask(
    lobby: ClusterLobby, owner: str, table_id: str, op: str, *, timeout: float | None = None, **args: Any
) -> dict[str, Any]:
    """One request to ``owner`` about ``table_id``; its refusal as the owner's own TableError.
    ``timeout``: how long to wait (default: long enough for the owner's database call)."""
    try:
        reply = await lobby.relay.request(
            owner, dict(args, op=op, table=table_id), timeout or lobby.request_seconds
        )
    except Unreachable:
        raise TableError(UNREACHABLE, "storage", retry_after=lobby.leases.ms / 1000) from None
    if not reply.get("ok"):
        raise TableError(
            str(reply.get("message") or UNREACHABLE),
            str(reply.get("code") or "storage"),
            retry_after=reply.get("retry_after"),
        )
    return reply
