""" "Your move": every game in progress of an account, or of this browser's seats, with whose
move it is, the deadline and the last move's outcome; and the page that lists them.

An anonymous player's seats are the tokens this browser keeps (``localStorage``): the page
sends them and each is checked as a ``hello`` would check it, so a token opens only its own
seat's view. A logged-in account's seats come from the tables themselves. Only what a seat may
see is sent: its view's progress and the last action's events as ``event.seen_by(seat)``.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from sakura.server import protocol
from sakura.server.errors import TableError
from sakura.server.pages import page
from sakura.server.routes.deps import AccountDep, LobbyDep, TableDep
from sakura.server.table import Table

router = APIRouter()
MAX_SEATS = 200  # tokens one request may name (a browser's seats)
MAX_SINCE = 80  # moves a "since you last looked" replays at most (the older ones: in the log)


class SeatToken(BaseModel):
    model_config = ConfigDict(extra="forbid")
    table: str = Field(max_length=32)
    token: str = Field(max_length=64)


class MovesRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seats: list[SeatToken] = Field(default_factory=list, max_length=MAX_SEATS)


def game_entry(table: Table, seat: int) -> dict[str, Any]:
    """One game in progress as ``seat`` sees it (its view's facts, and the past as it saw it)."""
    info = table.info()
    bots = set(table.seating.bot_seats())
    due = [s for s in table.state.current_players() if s not in bots]
    past = table.history_for(seat)
    return {
        "id": table.id,
        "game": info["game"],
        "seat": seat,
        "seats": info["seats"],
        "round": info["round"],
        "pace": info.get("pace"),
        "timer": info["timer"],
        "to_move": due,
        "your_move": seat in due and not table.seats[seat].handed,
        "deadline": table.deadline,
        "seq": table.seq,
        "last_round": last_round(past),
    }


def last_round(past: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The steps of the last round played to its end (from one ``round_started`` event to the
    next), or of the round under way when none has ended yet.

    >>> start = {"events": [{"type": "round_started"}]}
    >>> steps = [start, {"events": []}, start]
    >>> len(last_round(steps)), last_round(steps[:2]) == steps[:2]
    (2, True)
    """
    starts = [
        i for i, step in enumerate(past) if any(e.get("type") == "round_started" for e in step["events"])
    ]
    if len(starts) >= 2:
        return past[starts[-2] : starts[-1]]
    return past[-12:]


@router.post("/api/moves")
async def moves(lobby: LobbyDep, account: AccountDep, body: MovesRequest | None = None) -> dict[str, Any]:
    """Every game in progress of this browser's seats (``seats``: table and token) and of the
    logged-in account; ``your_move``: how many wait for you."""
    found: dict[str, tuple[Table, int]] = {}
    for claim in (body or MovesRequest()).seats:
        table = lobby.tables.get(claim.table)
        if table is None or table.status != "playing":
            continue
        try:
            seat = table.seating.seat_of(claim.token)
        except TableError:  # a token that opens nothing here: left out
            continue
        if seat is not None:
            found[table.id] = (table, seat)
    if account is not None:
        for table in list(lobby.tables.values()):
            seat = table.seating.seat_of_account(account)
            if seat is not None and table.status == "playing" and table.id not in found:
                found[table.id] = (table, seat)
    games = [game_entry(table, seat) for table, seat in found.values()]
    games.sort(key=lambda g: (not g["your_move"], g["deadline"] or float("inf")))
    return {"games": games, "your_move": sum(g["your_move"] for g in games)}


class SinceRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str | None = Field(default=None, max_length=64)
    seq: int = Field(ge=0)


@router.post("/api/tables/{table_id}/since")
async def since(table: TableDep, account: AccountDep, body: SinceRequest) -> dict[str, Any]:
    """What happened at the table since the seat's player last looked (their page's ``seq``):
    the view they last saw and, one a move, the updates since, as the table sent them live
    (``update`` messages, filtered for the seat), for the page to stage them in order."""
    seat = table.seating.seat_of(body.token)
    if seat is None and account is not None:
        seat = table.seating.seat_of_account(account)
    if seat is None:
        raise TableError("take a seat to see what happened since you last looked", "not_seated")
    commits = table.commits
    actions = commits.actions[: table.seq]
    start = min(max(body.seq, len(actions) - MAX_SINCE), len(actions))
    state = table.game.new_initial_state(commits.seed)
    for acting, text in actions[:start]:
        state.apply_action(acting, table.game.parse_action(text))
    view = state.view(seat).to_json()
    updates = []
    for i, (acting, text) in enumerate(actions[start:], start):
        events = state.apply_action(acting, table.game.parse_action(text))
        updates.append(
            protocol.update(
                i + 1,
                acting,
                action=text if acting == seat else None,  # as live: one's own card only
                by=_by(table, i, acting),
                events=[e.seen_by(seat).to_dict() for e in events],
                view=state.view(seat).to_json(),
                deadline=None,
            )
        )
    if updates:
        updates[-1]["deadline"] = table.deadline
    return {"seq": start, "view": view, "updates": updates}


def _by(table: Table, index: int, seat: int) -> str:
    """Who made action ``index``: a bot for a late player (``timer``), the seat's bot, or its player."""
    if index in table.commits.timed:
        return "timer"
    return "bot" if table.seats[seat].kind == "bot" else "player"


@router.get("/moves", include_in_schema=False)
async def moves_page(request: Request) -> HTMLResponse:
    return page("moves.html", request)
