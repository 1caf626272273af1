"""The lobby's API: the tables in play listed, a table created, looked at, and a seat taken."""

from __future__ import annotations

from contextlib import nullcontext
from typing import Annotated, Any

from fastapi import APIRouter, Body, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from sakura.server import farm, listing
from sakura.server.names import NAME_RULES, name_key, optional_name
from sakura.server.routes.deps import AccountDep, AddressDep, FrontDep, LobbyDep
from sakura.server.routes.deps import address as client_address
from sakura.server.table_request import NewTable

router = APIRouter()
PageNumber = Annotated[int, Query(ge=0, le=10_000)]


class JoinRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int | None = Field(default=None, ge=0, le=7)
    name: str | None = Field(default=None, json_schema_extra=NAME_RULES)  # else: 400 bad_name (names.py)


@router.get("/api/tables")
async def tables(lobby: LobbyDep, page: PageNumber = 0) -> dict[str, Any]:
    """One page of the tables in play and of the finished games (``?page=``, from 0)."""
    finished = await lobby.finished_ids(page)
    return {
        "open": lobby.open_tables(page),
        "finished": finished,
        "page": page,
        "page_size": lobby.limits.lobby_page,
        "listing": lobby.cached("listing", 0, lobby.live_listing),
    }


@router.get("/api/finished")
async def finished_games(lobby: LobbyDep, page: PageNumber = 0) -> dict[str, Any]:
    """Finished games with players, winner and date, newest first, ten a page."""
    return await listing.finished(lobby, page)


@router.post("/api/tables", status_code=201)
async def create(
    request: NewTable, lobby: LobbyDep, account: AccountDep, address: AddressDep, http: Request
) -> dict[str, Any]:
    await _note(lobby, account, http)
    table, seat, token = await lobby.create(request, address=address, account=account)
    return {"table": table.info(), "seat": seat, "token": token}


@router.get("/api/tables/{table_id}")
async def table_info(table: FrontDep) -> dict[str, Any]:
    return table.info()


@router.post("/api/tables/{table_id}/join")
async def join(
    table: FrontDep,
    account: AccountDep,
    lobby: LobbyDep,
    http: Request,
    body: Annotated[JoinRequest | None, Body()] = None,
) -> dict[str, Any]:
    request, address = body or JoinRequest(), client_address(http)
    turn_based = table.info().get("pace") is not None  # bounded per person (turns/bounds.py)
    async with lobby.turn_slot(account, address) if turn_based else nullcontext():
        await _note(lobby, account, http)
        seat, token = await table.claim(request.seat, optional_name(request.name), account)
        if turn_based:
            await lobby.count_turn_seat(table.id, seat, account, address)
    return {"seat": seat, "token": token}


async def _note(lobby: Any, account: str | None, http: Request) -> None:
    """A logged-in player's address and device, noted for the rating-farm rule (farm.py)."""
    if account is not None:
        keys = farm.marks_of(http)
        await lobby.db.call(
            farm.note, lobby.store, name_key(account), keys, what="noting an account's address"
        )
