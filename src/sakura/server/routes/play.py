"""The WebSocket of a table (``/ws/{table_id}``), where the game is played.

One connection: ``hello`` first, then ``act`` / ``replace`` / ``rematch`` / ``chat`` / ``hint``
/ ``ping`` until it closes, or falls behind reading its messages, or floods. Each message
becomes one call of the table's :class:`~sakura.server.front.TableFront` (a table of this
process or of another: the same calls), and any refusal an ``error`` message with the table's
own words and code (``docs/protocol.md``). The connection's messages leave through its own
outbox and writer task (:class:`~sakura.server.table.Connection`), so a slow reader never holds
up the table; connections are bounded per client address and rate-limited each.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from sakura.server import protocol
from sakura.server.errors import TableError
from sakura.server.front import TableFront
from sakura.server.metrics import Metrics
from sakura.server.protocol import (
    Act,
    Chat,
    ClientMessage,
    Hello,
    Hint,
    Ping,
    ProtocolError,
    Rematch,
    Replace,
    parse_client,
)
from sakura.server.routes import deps
from sakura.server.table import Connection

router = APIRouter()
RATE_LIMITS = {"rate_limited": "messages", "chat_rate_limited": "chat"}  # refusal code -> metric's limit


@router.websocket("/ws/{table_id}")
async def websocket(ws: WebSocket, table_id: str) -> None:
    limits, address = deps.limits(ws), deps.address(ws)
    sockets: Counter[str] = ws.app.state.sockets
    await ws.accept()
    if sockets[address] >= limits.connections_per_address:
        most = limits.connections_per_address
        ws.app.state.metrics.refused("connections")
        await _refuse(ws, f"too many connections from your address (at most {most})", "too_many", 1013)
        return
    try:
        table = await deps.front(table_id, ws)
    except TableError as exc:
        await _refuse(ws, str(exc), exc.code, 4404 if exc.code == "no_table" else 1013)
        return
    try:
        account = await deps.account(ws)  # a logged-in player's seats, from any browser
    except TableError:
        account = None
    sockets[address] += 1
    try:
        await Session(ws, table, Connection(ws.send_text, address=address, limits=limits), account).serve()
    finally:
        sockets[address] -= 1
        if sockets[address] <= 0:
            del sockets[address]


async def _refuse(ws: WebSocket, message: str, code: str, close_code: int) -> None:
    """Say why in an ``error`` message and in the close frame's reason, then close."""
    with contextlib.suppress(Exception):
        await ws.send_text(protocol.dumps(protocol.error(message, code)))
        await ws.close(code=close_code, reason=message[:120])


async def _close(ws: WebSocket, code: int, reason: str) -> None:
    with contextlib.suppress(Exception):
        await ws.close(code=code, reason=reason)


class Session:
    """One connection's conversation with its table (see the module docstring)."""

    def __init__(self, ws: WebSocket, table: TableFront, conn: Connection, account: str | None) -> None:
        self.ws, self.table, self.conn, self.account = ws, table, conn, account
        self.metrics: Metrics = ws.app.state.metrics
        self.joined = False
        self.loop = asyncio.get_running_loop()
        self.writer = self.loop.create_task(_write(conn))
        self.tasks: list[asyncio.Task[None]] = []  # the chat's greeting, a closing socket
        conn.on_behind = self._drop
        conn.on_close = self._close_later

    def _drop(self) -> None:
        """The outbox overflowed: close (or abort) the socket; ``receive()`` then ends."""
        self._close_later(1008, "too far behind reading its messages")

    def _close_later(self, code: int, reason: str) -> None:
        """Close the socket from outside the receiving loop (the table moved: the page reconnects)."""
        self.writer.cancel()
        self.tasks.append(self.loop.create_task(_close(self.ws, code, reason)))

    async def serve(self) -> None:
        why: tuple[int, str] | None = None
        try:
            while True:
                frame = await self.ws.receive()
                if frame["type"] == "websocket.disconnect" or self.conn.behind:
                    break
                if not self.conn.allow():
                    if self.conn.refused >= self.conn.limits.flood_close:
                        why = (1008, "too many messages")
                        break
                    self._refuse_flood()
                    continue
                await self._answer(frame.get("text") or frame.get("bytes") or b"")
        except WebSocketDisconnect:
            pass
        finally:
            await self._end(why)

    def _refuse_flood(self) -> None:
        self.metrics.refused("messages")
        rate = self.conn.limits.messages_per_second
        refusal = protocol.error(
            f"too many messages: at most {rate:g} a second; this one was ignored", "rate_limited"
        )
        self.conn.push(dict(refusal, retry_after=round(self.conn.bucket.wait(), 3)))

    async def _answer(self, data: str | bytes) -> None:
        """One message: parsed, handled, and any refusal told as an ``error``."""
        try:
            await self._handle(parse_client(data))
        except ProtocolError as exc:
            self.conn.push(protocol.error(str(exc), "malformed"))
        except TableError as exc:
            if exc.code in RATE_LIMITS:
                self.metrics.refused(RATE_LIMITS[exc.code])
            refusal = protocol.error(str(exc), exc.code)
            if exc.retry_after is not None:
                refusal["retry_after"] = round(exc.retry_after, 3)
            self.conn.push(refusal)

    async def _handle(self, message: ClientMessage) -> None:
        table, conn = self.table, self.conn
        if not self.joined:
            if not isinstance(message, Hello):
                raise TableError('say hello first: {"type": "hello", "token": ...}', "no_hello")
            await table.join(conn, message.token, self.account)
            self.joined = True
            # the chat's history comes by itself: a slow database holds up no message
            self.tasks.append(self.loop.create_task(table.greet(conn, message.name)))
            return
        match message:
            case Hello():
                raise TableError("this connection has already said hello", "hello_again")
            case Act():
                started = self.loop.time()
                await table.act(conn, message.action)
                self.metrics.actions.inc()
                self.metrics.action_seconds.observe(self.loop.time() - started)
            case Replace():
                await table.replace(conn, message.seat)
            case Chat():
                await table.say(conn, message)
            case Rematch(decline=True):
                await table.decline_rematch(conn)
            case Rematch():
                await table.rematch(conn)
            case Ping():
                conn.push({"type": "pong"})
            case Hint():
                await table.hint(conn)

    async def _end(self, why: tuple[int, str] | None) -> None:
        if self.joined:
            await self.table.leave(self.conn)
        if why is not None:
            self.writer.cancel()
            await _close(self.ws, *why)
        self.conn.finish()
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await self.writer
        for task in self.tasks:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await task


async def _write(conn: Connection) -> None:
    with contextlib.suppress(Exception):  # the socket closed: nothing more to tell it
        await conn.writer()


__all__ = ["Session", "router"]
