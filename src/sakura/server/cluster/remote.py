"""A table owned by another process, as the app sees it: the same
:class:`~sakura.server.front.TableFront` calls as a table of this process (claim, join, act,
replace, rematch, chat, hint, leave), each sent to the owner as a typed request
(:mod:`.messages`) through the :class:`~.relay.Relay` and answered there by the real table.

One is made per request or connection (cheap: the owner's ``info`` is fetched once). The owner
checks the seat and the token and builds every message for this connection's seat, so nothing
here decides or filters anything.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from sakura.server.cluster import messages
from sakura.server.cluster.relay import Unreachable
from sakura.server.errors import TableError

if TYPE_CHECKING:
    from sakura.server.cluster.owner import ClusterLobby
    from sakura.server.protocol import Chat
    from sakura.server.table import Connection

UNREACHABLE = "this table's server is not answering just now (it may be moving to another); please try again"


class RemoteTable:
    """See the module docstring."""

    def __init__(self, lobby: ClusterLobby, table_id: str, owner: str, info: dict[str, Any]) -> None:
        self.lobby, self.id, self.owner, self._info = lobby, table_id, owner, info
        self.status: str = info["status"]
        self.cid: str | None = None  # this connection's id at the owner, once joined
        self.conn: Connection | None = None

    def info(self) -> dict[str, Any]:
        return self._info

    async def call(self, request: messages.Request) -> dict[str, Any]:
        return await ask(self.lobby, self.owner, messages.envelope(request, self.id, self.cid))

    async def claim(self, seat: int | None, name: str | None, account: str | None) -> tuple[int, str]:
        reply = await self.call(messages.Claim(seat, name, account))
        return int(reply["seat"]), str(reply["token"])

    async def join(self, conn: Connection, token: str | None, account: str | None) -> None:
        self.cid, self.conn = self.lobby.relay.new_id(), conn
        self.lobby.relay.local[self.cid] = conn
        self.lobby.watch(self.id, self.owner, self.cid)
        try:
            reply = await self.call(messages.Join(token, account, conn.address))
        except TableError as exc:
            self._forget()
            if exc.code == "storage":  # the owner is away: the page reconnects and finds the next one
                asyncio.get_running_loop().call_soon(conn.close)
            raise
        conn.seat = reply["seat"]

    async def act(self, conn: Connection, text: str) -> None:
        if conn.seat is None:
            raise TableError("spectators cannot act; take a seat to play", "not_seated")
        await self.call(messages.Act(text))

    async def replace(self, conn: Connection, seat: int) -> None:
        await self.call(messages.Replace(seat))

    async def rematch(self, conn: Connection) -> None:
        await self.call(messages.Rematch())

    async def decline_rematch(self, conn: Connection) -> None:
        await self.call(messages.Rematch(decline=True))

    # Chat, its history and hints are the owner's too: it stores the message and tells every
    # connection of the table (relayed ones included), and it holds the state a hint needs.
    async def greet(self, conn: Connection, name: str | None) -> None:
        await self.call(messages.Greet(name))

    async def say(self, conn: Connection, message: Chat) -> None:
        await self.call(messages.Say(message.text, message.phrase))

    async def hint(self, conn: Connection) -> None:
        await self.call(messages.Hint())

    async def moderate(self, what: str, message: int | None) -> None:
        await self.call(messages.Moderate(what, message))

    async def unbind(self, account: str) -> None:
        await self.call(messages.Unbind(account))

    async def since(self, token: str | None, account: str | None, seq: int) -> dict[str, Any]:
        reply = await self.call(messages.Since(token, account, seq))
        found: dict[str, Any] = reply["since"]
        return found

    async def leave(self, conn: Connection) -> None:
        if self.cid is not None and self.cid in self.lobby.relay.local:
            wire = messages.envelope(messages.Leave(), self.id, self.cid)
            self.lobby.relay.send(self.owner, dict(wire, k="req", **{"from": self.lobby.node}))
        self._forget()

    def _forget(self) -> None:
        if self.cid is not None:
            self.lobby.relay.local.pop(self.cid, None)
            self.lobby.unwatch(self.id, self.cid)


async def ask(
    lobby: ClusterLobby, owner: str, wire: dict[str, Any], timeout: float | None = None
) -> dict[str, Any]:
    """One request to ``owner`` (``wire``: :func:`.messages.envelope`); its refusal as the
    owner's own TableError. ``timeout``: how long to wait (default: long enough for the
    owner's database call)."""
    try:
        reply = await lobby.relay.request(owner, wire, timeout or lobby.request_seconds)
    except Unreachable:
        raise TableError(UNREACHABLE, "storage", retry_after=lobby.leases.ms / 1000) from None
    if not reply.get("ok"):
        raise TableError(
            str(reply.get("message") or UNREACHABLE),
            str(reply.get("code") or "storage"),
            retry_after=reply.get("retry_after"),
        )
    return reply
