"""The way out of a table: each client's bounded outbox, and the messages a table sends to all
of its connections, built once per viewer.

A :class:`Connection` is one client socket: its seat (or ``None``) and an outbox of serialized
messages drained by its own writer task, so a slow client never holds up the table.

Each message is built and serialized once per viewer (a seat or the spectators) and the same
text is queued to all of that viewer's connections (:class:`Broadcast`). The ``table`` message
(who is seated and present) goes out only when what it says changes: a spectator coming or
going changes nothing of it, so a thousand watchers cost a thousand welcomes, not half a million
broadcasts.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from sakura.engine import Event, State
from sakura.server import protocol
from sakura.server.limits import Limits, TokenBucket

if TYPE_CHECKING:
    from sakura.server.table.commit import Stored

log = logging.getLogger("sakura.server")


class Connection:
    """One client socket (see the module docstring).

    The outbox is bounded (``Limits.outbox_messages`` and ``outbox_bytes``, in characters of
    JSON, nearly all ASCII): a client that stops reading falls behind, is marked ``behind`` and
    gets dropped by its handler instead of growing the server's memory without end. Its
    messages are rate-limited too (``allow``)."""

    def __init__(
        self, send: Callable[[str], Any], *, address: str = "", limits: Limits | None = None
    ) -> None:
        self.seat: int | None = None
        self.address = address
        self.limits = limits or Limits()
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.queued = 0  # characters in the outbox
        self.behind = False  # the outbox overflowed: the socket is being dropped
        self.bucket = TokenBucket(self.limits.messages_per_second, self.limits.message_burst)
        self.refused = 0  # messages refused in a row by the rate limit
        self.on_behind: Callable[[], None] | None = None  # the handler's: drop the socket
        self.on_close: Callable[[int, str], None] | None = None  # the handler's: close (code, reason)
        self._send = send

    def push(self, message: dict[str, Any]) -> None:
        self.push_text(protocol.dumps(message))

    def push_text(self, text: str) -> None:
        """Queue a message already serialized (shared by every connection of one viewer)."""
        if self.behind:
            return
        full = self.outbox.qsize() >= self.limits.outbox_messages
        if full or self.queued + len(text) > self.limits.outbox_bytes:
            log.warning(
                "dropping a connection from %s: it does not read its messages (%d queued)",
                self.address or "?",
                self.outbox.qsize(),
            )
            self.behind = True
            if self.on_behind is not None:
                self.on_behind()
            return
        self.queued += len(text)
        self.outbox.put_nowait(text)

    def allow(self) -> bool:
        """Take one message from the rate limit: False when this one must be refused."""
        if self.bucket.take():
            self.refused = 0
            return True
        self.refused += 1
        return False

    def close(self, code: int = 1012, reason: str = "the table moved to another server process") -> None:
        """Close the socket (the page reconnects): its table moved (:mod:`sakura.server.cluster`)."""
        if self.on_close is not None:
            self.on_close(code, reason)

    def finish(self) -> None:
        """No more messages: the writer stops after what is queued."""
        self.outbox.put_nowait(None)

    async def writer(self) -> None:
        while (text := await self.outbox.get()) is not None:
            self.queued -= len(text)
            await self._send(text)


class Broadcast:
    """What a table tells all its connections: who is seated and present (when that changes),
    and each update, serialized once per viewer."""

    def __init__(self) -> None:
        self._presence = ""  # the last table message sent, to send it only when it changes

    def presence(self, info: dict[str, Any], connections: Iterable[Connection]) -> None:
        """The ``table`` message, if what it says changed since it was last sent."""
        presence = protocol.dumps({k: info[k] for k in ("seats", "status", "rematch")})
        if presence == self._presence:
            return
        self._presence = presence
        text = protocol.dumps(protocol.table_info(info))
        for c in connections:
            c.push_text(text)

    @staticmethod
    def update(
        connections: Iterable[Connection],
        state: State[Any],
        seq: int,
        done: Stored,
        *,
        deadline: float | None,
    ) -> None:
        """The ``update`` after action ``seq`` (``done``), ``state`` after it: built and
        serialized once per viewer, the same text queued to each of its connections."""
        seat, action, by, events = done.seat, done.action, done.by, done.events
        texts: dict[int | None, str] = {}
        public: dict[int, dict[str, Any]] = {}  # events every viewer sees alike: converted once
        for c in connections:
            viewer = c.seat
            text = texts.get(viewer)
            if text is None:
                text = texts[viewer] = protocol.dumps(
                    protocol.update(
                        seq,
                        seat,
                        action=action if viewer == seat else None,
                        by=by,
                        events=seen(events, viewer, public),
                        view=state.view(viewer).to_json(),
                        deadline=deadline,
                    )
                )
            c.push_text(text)


def seen(events: list[Event], viewer: int | None, public: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    """The events as ``viewer`` may see them; those that hide nothing (``seen_by`` gives the event
    itself) are converted once, in ``public`` by position, for every viewer."""
    out = []
    for i, event in enumerate(events):
        event_seen = event.seen_by(viewer)
        if event_seen is not event:
            out.append(event_seen.to_dict())
        elif (plain := public.get(i)) is not None:
            out.append(plain)
        else:
            out.append(public.setdefault(i, event.to_dict()))
    return out
