"""The requests one process sends the owner of a table, as typed values.

Each is a frozen dataclass named for what it asks; on the wire (Redis, :mod:`.relay`) it is a
JSON object with its ``op`` and its fields (:func:`to_wire`), read back by :func:`from_wire`.
The owner answers each with one call of its :class:`~sakura.server.front.LocalTable`
(:meth:`~.owner.ClusterLobby._answer`), so a request can do nothing the app itself could not.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar

from sakura.server.errors import TableError


@dataclass(frozen=True, slots=True)
class Info:
    """The table's public facts (asked before relaying anything to it)."""

    op: ClassVar[str] = "info"


@dataclass(frozen=True, slots=True)
class Claim:
    op: ClassVar[str] = "claim"
    seat: int | None = None
    name: str | None = None
    account: str | None = None


@dataclass(frozen=True, slots=True)
class Join:
    op: ClassVar[str] = "join"
    token: str | None = None
    account: str | None = None
    address: str = ""  # the client's, for the limits kept per address (the chat's)


@dataclass(frozen=True, slots=True)
class Leave:
    op: ClassVar[str] = "leave"


@dataclass(frozen=True, slots=True)
class Act:
    op: ClassVar[str] = "act"
    text: str = ""


@dataclass(frozen=True, slots=True)
class Replace:
    op: ClassVar[str] = "replace"
    seat: int = 0


@dataclass(frozen=True, slots=True)
class Rematch:
    op: ClassVar[str] = "rematch"
    decline: bool = False


@dataclass(frozen=True, slots=True)
class Say:
    """A chat message: its text or a quick phrase's key."""

    op: ClassVar[str] = "chat"
    text: str | None = None
    phrase: str | None = None


@dataclass(frozen=True, slots=True)
class Greet:
    """After a relayed connection's hello: a spectator's name, and the chat's history."""

    op: ClassVar[str] = "greet"
    name: str | None = None


@dataclass(frozen=True, slots=True)
class Hint:
    op: ClassVar[str] = "hint"


@dataclass(frozen=True, slots=True)
class Moderate:
    """A moderator's action, already stored, for the owner to carry out live: ``hide`` the chat
    message ``message`` from every page at the table, or ``close`` the table."""

    op: ClassVar[str] = "moderate"
    what: str = "hide"
    message: int | None = None


@dataclass(frozen=True, slots=True)
class Unbind:
    """An account deleted (already stored): its seats at the table keep their player (the seat's
    token) and lose the account and its name, in the owner's memory too."""

    op: ClassVar[str] = "unbind"
    account: str = ""


@dataclass(frozen=True, slots=True)
class Since:
    """What happened at the table since move ``seq``, for the seat of ``token`` (or ``account``)."""

    op: ClassVar[str] = "since"
    token: str | None = None
    account: str | None = None
    seq: int = 0


@dataclass(frozen=True, slots=True)
class Moves:
    """ "Your move" (:mod:`sakura.server.turns.moves`), asked of a process rather than of one
    table: the entries of the games at its tables in ``seats`` (each ``[table, token]``; a
    token None: ``account``'s seat there), as each seat sees them."""

    op: ClassVar[str] = "moves"
    seats: tuple[tuple[str, str | None], ...] = ()
    account: str | None = None


Request = (
    Info
    | Claim
    | Join
    | Leave
    | Act
    | Replace
    | Rematch
    | Say
    | Greet
    | Hint
    | Moderate
    | Unbind
    | Since
    | Moves
)
KINDS: dict[str, type[Request]] = {
    kind.op: kind
    for kind in (
        Info,
        Claim,
        Join,
        Leave,
        Act,
        Replace,
        Rematch,
        Say,
        Greet,
        Hint,
        Moderate,
        Unbind,
        Since,
        Moves,
    )
}


def to_wire(request: Request) -> dict[str, Any]:
    """``{"op": ..., **fields}``, as :func:`from_wire` reads it back.

    >>> to_wire(Act("b3"))
    {'text': 'b3', 'op': 'act'}
    """
    return dict(asdict(request), op=request.op)


def envelope(request: Request, table_id: str, cid: str | None = None) -> dict[str, Any]:
    """The request on its way: for ``table_id``, from the relayed connection ``cid`` (if any)."""
    return dict(to_wire(request), table=table_id, c=cid)


def from_wire(message: dict[str, Any]) -> Request:
    """The request in ``message`` (extra keys, the relay's own, are left aside).

    >>> from_wire({"op": "replace", "seat": 2, "from": "n1", "c": "7"})
    Replace(seat=2)
    """
    kind = KINDS.get(str(message.get("op")))
    if kind is None:
        raise TableError(f"unknown request {message.get('op')!r}", "bad_request")
    return kind(**{f.name: message[f.name] for f in fields(kind) if f.name in message})
