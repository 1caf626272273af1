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


@router.post("/api/moves")
async def moves(lobby: LobbyDep, account: AccountDep, body: MovesRequest | None = None) -> dict[str, Any]:
    """Every game in progress of this browser's seats (``seats``: table and token) and of the
    logged-in account, wherever its table is served; ``your_move``: how many wait for you."""
    claims = [(claim.table, claim.token) for claim in (body or MovesRequest()).seats]
    return await lobby.moves(claims, account)


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
