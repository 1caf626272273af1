"""Who sits where at a table, and who is here: the seats, their secret tokens, the connections
and when each seat's player was last seen.

Tokens are stored hashed (:func:`hash_token`). The checks of a claim and of a replacement are
made here and raise a :class:`~sakura.server.errors.TableError` before anything changes; the
table stores the changed seat (:meth:`~.table.Table.change_seat`) and only then keeps it. A seat
whose player has gone may be handed to a bot only after it has been empty for
``Limits.replace_grace`` seconds (everyone is told when: ``replace_after``), so a page reload
never costs anyone their seat.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from sakura.server.errors import TableError

if TYPE_CHECKING:
    from sakura.server.table.outbox import Connection


def hash_token(token: str) -> str:
    """Tokens are stored hashed: the database alone never lets anyone act for a seat."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(slots=True)
class Seat:
    kind: str  # "human" | "bot"
    name: str = ""  # chosen by the player; empty: the client names the seat from its catalog
    bot: str | None = None  # the bot's spec for a bot seat
    level: str | None = None  # the bot's strength as the lobby names it
    token_hash: str | None = None  # set once a human has claimed the seat
    replaced: bool = False  # a human seat a bot plays for now (the player left)
    account: str | None = None  # the username of the account the seat is bound to (accounts.py)
    forfeit: bool = False  # at a rated table: a bot took over, so the player ranks last (ratings.py)
    handed: bool = False  # given to the bot for good: out of time too often (turn-based, turns/pace.py)

    def public(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "level": self.level,
            "claimed": self.token_hash is not None,
            "replaced": self.replaced,
            "account": self.account,
            "handed": self.handed,
        }


def bot_seats(seats: list[Seat]) -> list[int]:
    """The seats a bot plays: a bot's own, and a player's a bot took over."""
    return [i for i, s in enumerate(seats) if s.kind == "bot" or s.replaced]


def waiting_for_players(seats: list[Seat]) -> bool:
    """An invited seat nobody has taken yet: no clock runs (a bot would play for them)."""
    return any(s.kind == "human" and s.token_hash is None for s in seats)


class Seating:
    """The seats and the presence of one table (see the module docstring)."""

    def __init__(self, seats: list[Seat], *, grace: float, since: float) -> None:
        self.seats = seats
        self.grace: float | None = grace  # seconds a seat stays its player's once gone (None: for good)
        self.connections: set[Connection] = set()
        now = time.time()
        # when each seat's player was last seen (a claimed seat nobody is on: since start-up)
        self.absent_since: dict[int, float] = {i: now for i, s in enumerate(seats) if s.kind == "human"}
        self.last_seen = since  # the last time anyone was connected (time.time())
        self.idle_since = time.monotonic()  # last time the table had no connection left

    def seat_of(self, token: str | None) -> int | None:
        """The seat ``token`` opens; None without a token; ``bad_token`` if it opens none."""
        if not token:
            return None
        digest = hash_token(token)
        for i, seat in enumerate(self.seats):
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                return i
        raise TableError("this token opens no seat at this table", "bad_token")

    def seat_of_account(self, account: str) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s.account == account), None)

    def bot_seats(self) -> list[int]:
        return bot_seats(self.seats)

    def waiting_for_players(self) -> bool:
        return waiting_for_players(self.seats)

    def claimable(self, seat: int | None, account: str | None, *, rated: bool) -> int:
        """The free human seat a claim takes (the first one if ``seat`` is None), or why not."""
        if rated and account is None:
            raise TableError("a rated table is for accounts: log in to take a seat", "login_required")
        if rated and any(s.account == account for s in self.seats):
            raise TableError("you already have a seat at this rated table", "no_seat")
        free = [i for i, s in enumerate(self.seats) if s.kind == "human" and s.token_hash is None]
        if seat is None:
            if not free:
                raise TableError("no free seat at this table", "no_seat")
            seat = free[0]
        if seat not in free:
            raise TableError(f"seat {seat + 1} is not free", "no_seat")
        return seat

    def replacement(self, requester: int | None, seat: int, *, rated: bool, playing: bool) -> Seat:
        """``seat`` as it becomes when a bot plays for its player, or why it may not yet."""
        if requester is None:
            raise TableError("only a seated player may ask for a replacement", "not_seated")
        if not 0 <= seat < len(self.seats) or self.seats[seat].kind != "human":
            raise TableError(f"seat {seat + 1} is not a player's seat", "bad_seat")
        if self.connected()[seat]:
            raise TableError(f"seat {seat + 1}'s player is here", "bad_seat")
        if self.seats[seat].token_hash is None:
            raise TableError(f"seat {seat + 1} has not been taken yet: its player may still join", "bad_seat")
        if self.seats[seat].replaced:
            raise TableError(f"a bot already plays for seat {seat + 1}", "bad_seat")
        after = self.replace_after(seat, playing=playing)
        if after is not None and (wait := after - time.time()) > 0:
            raise TableError(
                f"seat {seat + 1}'s player left only a moment ago; a bot may take over in "
                f"{wait:.0f} s if they are not back",
                "grace",
                retry_after=wait,
            )
        return replace(self.seats[seat], replaced=True, forfeit=self.seats[seat].forfeit or rated)

    def connected(self) -> list[bool]:
        on = [False] * len(self.seats)
        for c in self.connections:
            if c.seat is not None:
                on[c.seat] = True
        return on

    def replace_after(self, seat: int, *, playing: bool, on: list[bool] | None = None) -> float | None:
        """When (``time.time()``) a bot may take over ``seat``: None while its player is here,
        for a bot's seat, an unclaimed one, or one a bot already plays."""
        s = self.seats[seat]
        if s.kind != "human" or s.token_hash is None or s.replaced or not playing or self.grace is None:
            return None
        if (on or self.connected())[seat]:
            return None
        return self.absent_since.get(seat, 0.0) + self.grace

    def public(self, *, playing: bool) -> list[dict[str, Any]]:
        """The seats as everyone may see them: who sits there, who is here, and when a bot
        may take over an empty one."""
        on = self.connected()
        return [
            dict(
                s.public(),
                connected=on[i] or s.kind == "bot",
                replace_after=self.replace_after(i, playing=playing, on=on),
            )
            for i, s in enumerate(self.seats)
        ]

    def seen(self, seat: int) -> None:
        """``seat``'s player counts as seen now (its grace, if it empties, starts again)."""
        self.absent_since[seat] = time.time()

    def arrive(self, conn: Connection) -> None:
        self.connections.add(conn)
        self.last_seen = time.time()

    def depart(self, conn: Connection) -> None:
        self.connections.discard(conn)
        self.last_seen = time.time()
        if conn.seat is not None and not self.connected()[conn.seat]:
            self.absent_since[conn.seat] = time.time()
        if not self.connections:
            self.idle_since = time.monotonic()
