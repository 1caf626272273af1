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

from sakura.server.pages import page
from sakura.server.routes.deps import AccountDep, FrontDep, LobbyDep

router = APIRouter()
MAX_SEATS = 200  # tokens one request may name (a browser's seats)


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
async def since(front: FrontDep, account: AccountDep, body: SinceRequest) -> dict[str, Any]:
    """What happened at the table since the seat's player last looked (their page's ``seq``):
    the view they last saw and, one a move, the updates since, as the table sent them live
    (``update`` messages, filtered for the seat), for the page to stage them in order; built
    where the table is played (:func:`sakura.server.turns.moves.since`)."""
    return await front.since(body.token, account, body.seq)


@router.get("/moves", include_in_schema=False)
async def moves_page(request: Request) -> HTMLResponse:
    return page("moves.html", request)
