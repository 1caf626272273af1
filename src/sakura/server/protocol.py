"""The WebSocket protocol: small JSON messages with a ``type`` field (see ``docs/protocol.md``).

Client messages are validated with pydantic before anything else happens; a message that does
not validate gets an ``error`` reply and changes nothing. Server messages are built here too,
so that every byte a client receives is assembled in one place, from views and filtered events.

>>> parse_client('{"type": "act", "action": "play 17"}')
Act(type='act', action='play 17')
>>> parse_client('{"type": "act"}')
Traceback (most recent call last):
...
sakura.server.protocol.ProtocolError: bad message: action: Field required
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

MAX_MESSAGE = 4096  # bytes; every client message is far smaller


class ProtocolError(ValueError):
    """A client message is not JSON or not one of the protocol's messages."""


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Hello(_Message):
    """First message of a connection: a seat's secret token, or none to watch."""

    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=128)
    name: str | None = Field(default=None, max_length=64)  # a spectator's name in the chat


class Act(_Message):
    """Play for your seat: an action's text form (``play 17``, ``forward``, ``back``)."""

    type: Literal["act"]
    action: str = Field(max_length=64)


class Replace(_Message):
    """Ask a bot to play for a seat whose player has left (no connection)."""

    type: Literal["replace"]
    seat: int = Field(ge=0, le=7)


class Rematch(_Message):
    """After the game: start a new table with the same seats (the others are offered it), or,
    with ``decline``, say no to the one offered (the table is told who declined)."""

    type: Literal["rematch"]
    decline: bool = False


class Chat(_Message):
    """Say something at the table: ``text`` (at most 300 characters) or a quick ``phrase``."""

    type: Literal["chat"]
    text: str | None = Field(default=None, max_length=1200)  # chat.py refuses past 300, in words
    phrase: Literal["gg", "wp", "oops", "hello", "thanks", "blossom"] | None = None


class Ping(_Message):
    type: Literal["ping"]


class Hint(_Message):
    """Ask for each legal action's estimated win chance, from your seat's view (not in rated games)."""

    type: Literal["hint"]


ClientMessage = Annotated[Hello | Act | Replace | Rematch | Chat | Ping | Hint, Field(discriminator="type")]
_adapter: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


def parse_client(text: str | bytes) -> ClientMessage:
    """Read one client message; raises :class:`ProtocolError` with a short reason."""
    size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE:  # bytes on the wire, not characters: four-byte emoji count as four
        raise ProtocolError(f"message too long (over {MAX_MESSAGE} bytes)")
    try:
        return _adapter.validate_json(text)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or str(first["loc"][0]) if first["loc"] else ""
        reason = first["msg"]
        text = f"bad message: {where}: {reason}" if where else f"bad message: {reason}"
        raise ProtocolError(text) from None


def dumps(message: dict[str, Any]) -> str:
    """A server message as compact JSON text, the form every message takes on the wire.
    orjson: every update is encoded once per viewer, and the standard library's encoder was
    about a tenth of the server's time under load.

    >>> dumps({"type": "pong", "name": "نگار"})
    '{"type":"pong","name":"نگار"}'
    """
    return orjson.dumps(message).decode()


def error(message: str, code: str = "bad_request") -> dict[str, Any]:
    """``{"type": "error"}``: the request changed nothing."""
    return {"type": "error", "code": code, "message": message}


def welcome(
    table: dict[str, Any], seat: int | None, seq: int, view: dict[str, Any], *, deadline: float | None
) -> dict[str, Any]:
    """The whole situation for one connection: sent on hello (and so on every reconnect)."""
    return {"type": "welcome", "table": table, "seat": seat, "seq": seq, "view": view, "deadline": deadline}


def update(  # noqa: PLR0913 (the message's fields, each by keyword as the wire names it)
    seq: int,
    seat: int,
    *,
    action: str | None,
    by: str,
    events: list[dict[str, Any]],
    view: dict[str, Any],
    deadline: float | None,
) -> dict[str, Any]:
    """One applied action: who did what (``action`` is hidden from others while it is a secret
    card choice), the events as this connection may see them, and its new view."""
    return {
        "type": "update",
        "seq": seq,
        "seat": seat,
        "action": action,
        "by": by,
        "events": events,
        "view": view,
        "deadline": deadline,
    }


def table_info(table: dict[str, Any]) -> dict[str, Any]:
    return {"type": "table", "table": table}


def rematch(table_id: str, token: str | None, by: int | None = None) -> dict[str, Any]:
    """The rematch's table (and this seat's token there); ``by``: the seat that asked for it."""
    return {"type": "rematch", "table": table_id, "token": token, "by": by}


def rematch_declined(seat: int) -> dict[str, Any]:
    return {"type": "rematch_declined", "seat": seat}
