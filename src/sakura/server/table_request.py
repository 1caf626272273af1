"""What a request to create a table says, checked: the lobby form's (and the API's) ``NewTable``
and its seats, the names and rated-table rules applied to it, and the options stored with it.

Kept apart from :mod:`sakura.server.lobby`, which holds the live tables: this is the request's
shape and its validation, which the routes' schema (OpenAPI) and the tests read too.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from sakura.bots import LEGACY, LEVEL_NAMES
from sakura.server.errors import TableError
from sakura.server.names import NAME_RULES, fold, optional_name
from sakura.server.turns import DEFAULT_TIMEOUTS, Pace

# The strengths a lobby offers: the ladder's levels (sakura.bots.levels), and the names it
# used before them (easy, medium, hard), which stand for levels so that old links still work.
BOT_LEVELS: tuple[str, ...] = (*LEVEL_NAMES, *LEGACY)
DEFAULT_LEVEL = "club"


class SeatRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: str = Field(pattern="^(human|bot)$")
    level: str | None = Field(default=None, pattern=f"^({'|'.join(BOT_LEVELS)})$")
    name: str | None = Field(default=None, json_schema_extra=NAME_RULES)  # else: 400 bad_name (names.py)


class NewTable(BaseModel):
    """What the lobby form sends to create a table: any game of the engine's registry
    (``sakura`` by default, ``sakura-cards``), with its own player counts and variants."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(default="sakura", max_length=32)
    players: int = Field(ge=2, le=6)
    variant: str | None = Field(default=None, max_length=16)
    seats: list[SeatRequest] | None = None
    timer: float | None = Field(default=None, ge=1, le=3600)
    # turn-based (turns/pace.py): a move's time instead of the timer, and the seat's timeouts
    # (a bot plays each timed-out move) before a bot takes it over for good
    pace: Pace | None = Field(default=None, description="turn-based: the time a move may take")
    timeouts: int = Field(
        default=DEFAULT_TIMEOUTS, ge=1, le=10, description="turn-based: timeouts before a bot takes the seat"
    )
    name: str | None = Field(default=None, json_schema_extra=NAME_RULES)  # else: 400 bad_name (names.py)
    rated: bool = False  # accounts only, no bots (ratings.py)
    spectator_chat: bool = True  # False: "spectators may not chat"
    hints: bool = True  # False: no "Suggest" at this table (a rated game never has it)

    @model_validator(mode="after")
    def _seats_match(self) -> NewTable:
        if self.seats is not None and len(self.seats) != self.players:
            raise ValueError(f"{self.players} seats expected, {len(self.seats)} given")
        if self.pace is not None and self.timer is not None:
            raise ValueError("a table has a timer (real time) or a pace (turn-based), not both")
        return self


def checked_seat_names(requests: list[SeatRequest], creator: str | None) -> list[str | None]:
    """The seats' names as given, checked (names.py), and none like another (``name_taken``),
    the creator's name standing for the first player's seat's."""
    names = [optional_name(r.name) for r in requests]
    first = next(i for i, r in enumerate(requests) if r.kind == "human")
    folded = [fold(n) for n in [*names[:first], creator or names[first], *names[first + 1 :]] if n]
    if len(set(folded)) < len(folded):
        raise TableError("two seats at this table have one name, or names that look alike", "name_taken")
    return names


def rated_rules(request: NewTable, seats: list[SeatRequest], *, claim: bool, account: str | None) -> None:
    """A rated table is for accounts and has no bots (ratings.py)."""
    if request.rated and claim and account is None:
        raise TableError("a rated table is for accounts: log in to create one", "login_required")
    if request.rated and any(r.kind == "bot" for r in seats):
        raise TableError("a rated table has no bots: every seat is a player's", "bad_table")


def table_options(request: NewTable) -> dict[str, Any]:
    """The table's choices as stored: only what differs from the default."""
    options: dict[str, Any] = {}
    if request.pace is not None:
        options["pace"], options["timeouts"] = request.pace.value, request.timeouts
    if not request.spectator_chat:
        options["spectator_chat"] = False
    if not request.hints:
        options["hints"] = False
    return options
