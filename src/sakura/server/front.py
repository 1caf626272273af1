"""What the app does with a table, wherever the table lives: one interface, two kinds.

:class:`TableFront` is every call the routes and the WebSocket handler make: a seat claimed,
a connection joining and leaving, an action, a replacement, a rematch, a chat message, its
history, a hint. :class:`LocalTable` answers them with a table held in this process (the
table, :mod:`~sakura.server.chat` and the lobby's :class:`~sakura.server.advice.Advisor`);
:class:`~sakura.server.cluster.remote.RemoteTable` sends the same calls to the process that
owns the table, where a :class:`LocalTable` answers them. So the handler never asks which
kind it holds.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from sakura.server import chat
from sakura.server.errors import TableError
from sakura.server.names import name_key
from sakura.server.turns import moves

if TYPE_CHECKING:
    from sakura.server.lobby import Lobby
    from sakura.server.protocol import Chat
    from sakura.server.table import Connection, Table


class TableFront(Protocol):
    """A table as the app sees it (see the module docstring)."""

    id: str

    @property
    def status(self) -> str: ...

    def info(self) -> dict[str, Any]: ...

    async def claim(self, seat: int | None, name: str | None, account: str | None) -> tuple[int, str]: ...

    async def join(self, conn: Connection, token: str | None, account: str | None) -> None: ...

    async def leave(self, conn: Connection) -> None: ...

    async def act(self, conn: Connection, text: str) -> None: ...

    async def replace(self, conn: Connection, seat: int) -> None: ...

    async def rematch(self, conn: Connection) -> None: ...

    async def decline_rematch(self, conn: Connection) -> None: ...

    async def greet(self, conn: Connection, name: str | None) -> None: ...

    async def say(self, conn: Connection, message: Chat) -> None: ...

    async def hint(self, conn: Connection) -> None: ...

    async def moderate(self, what: str, message: int | None) -> None: ...

    async def unbind(self, account: str) -> None: ...

    async def since(self, token: str | None, account: str | None, seq: int) -> dict[str, Any]: ...


class LocalTable:
    """A table of this process behind the :class:`TableFront` calls."""

    def __init__(self, table: Table, lobby: Lobby) -> None:
        self.table, self.lobby, self.id = table, lobby, table.id

    @property
    def status(self) -> str:
        return self.table.status

    def info(self) -> dict[str, Any]:
        return self.table.info()

    async def claim(self, seat: int | None, name: str | None, account: str | None) -> tuple[int, str]:
        async with self.table.lock:
            return await self.table.claim(seat, name, account)

    async def join(self, conn: Connection, token: str | None, account: str | None) -> None:
        await self.table.join(conn, token, account)

    async def leave(self, conn: Connection) -> None:
        await self.table.leave(conn)

    async def act(self, conn: Connection, text: str) -> None:
        await self.table.act(conn.seat, text)

    async def replace(self, conn: Connection, seat: int) -> None:
        await self.table.replace(conn.seat, seat)

    async def rematch(self, conn: Connection) -> None:
        await self.lobby.rematch(self.table, conn.seat)

    async def decline_rematch(self, conn: Connection) -> None:
        await self.lobby.decline_rematch(self.table, conn.seat)

    async def greet(self, conn: Connection, name: str | None) -> None:
        await chat.greet(self.table, conn, name)

    async def say(self, conn: Connection, message: Chat) -> None:
        await chat.say(self.table, conn, message)

    async def moderate(self, what: str, message: int | None) -> None:
        """A moderator's action, already stored: ``hide`` chat ``message`` live, or ``close``."""
        if what == "hide" and message is not None:
            chat.hidden(self.table, message)
        elif what == "close":
            await self.lobby.close_table(self.table)

    async def unbind(self, account: str) -> None:
        """``account`` deleted (stored already): its seats here keep their player (the seat's
        token) and lose the account and its name, stored, then changed in memory, so a later
        seat change cannot write the binding back."""
        table = self.table
        if table.status != "playing":
            return
        key = name_key(account)
        async with table.lock:
            for seat, held in enumerate(table.seats):
                if held.account is not None and name_key(held.account) == key:
                    await table.change_seat(seat, replace(held, account=None, name=""))
            table.broadcast_table()

    async def since(self, token: str | None, account: str | None, seq: int) -> dict[str, Any]:
        return moves.since(self.table, token, account, seq)

    async def hint(self, conn: Connection) -> None:
        if self.lobby.advisor is None:
            raise TableError("hints are not offered by this server", "no_hints")
        self.lobby.advisor.start_hint(self.table, conn)
