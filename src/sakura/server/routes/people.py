"""Players' pages and the leaderboards: read-only and public (a username and a rating are
public; nothing of an account's secrets is here), every query through the
:class:`~sakura.server.database.Database`'s threads. Accounts themselves (sign-up, log-in) are
:mod:`sakura.server.accounts`."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse

from sakura.server import archive, ratings
from sakura.server.errors import TableError
from sakura.server.pages import page
from sakura.server.routes.deps import LobbyDep, TableDep

router = APIRouter()
PageNumber = Annotated[int, Query(ge=0, le=100_000)]


@router.get("/u/{username}", include_in_schema=False)
async def player_page(username: str, request: Request) -> HTMLResponse:
    return page("player.html", request)


@router.get("/leaderboard", include_in_schema=False)
async def leaderboard_page(request: Request) -> HTMLResponse:
    return page("leaderboard.html", request)


@router.get("/api/players/{username}")
async def player(username: str, lobby: LobbyDep, page: PageNumber = 0) -> dict[str, Any]:
    """An account's ratings by mode (``realtime``, ``turn``) and class, with their history,
    and its finished games."""
    found = await lobby.db.call(ratings.player, lobby.store, username[:64], what="reading a player")
    if found is None:
        raise HTTPException(404, "no such player")
    found["games"] = await lobby.db.call(
        archive.search, lobby.store, None, page, account=found["username"], what="listing a player's games"
    )
    result: dict[str, Any] = found
    return result


@router.get("/api/leaderboard")
async def leaderboard(
    lobby: LobbyDep,
    page: PageNumber = 0,
    klass: Annotated[
        str, Query(alias="class", json_schema_extra={"enum": list(ratings.CLASSES)})
    ] = "sakura-3-6",
    mode: Annotated[str, Query(json_schema_extra={"enum": list(ratings.MODES)})] = "realtime",
) -> dict[str, Any]:
    """One page of a class's leaderboard in a mode: ``realtime`` or ``turn`` (turn-based)."""
    if klass not in ratings.CLASSES:
        raise TableError(f"no such class; classes: {', '.join(ratings.CLASSES)}", "bad_table")
    if mode not in ratings.MODES:
        raise TableError(f"no such mode; modes: {', '.join(ratings.MODES)}", "bad_table")
    result: dict[str, Any] = await lobby.db.call(
        ratings.leaderboard, lobby.store, klass, page, mode=mode, what="reading the leaderboard"
    )
    return result


@router.get("/api/tables/{table_id}/ratings")
async def seat_ratings(table: TableDep, lobby: LobbyDep) -> dict[str, Any]:
    """At a rated table, each seat's rating in the table's class and mode (shown next to the
    names); an unrated table has none."""
    if not table.rated:
        return {"rated": False, "seats": []}
    game = table.game
    klass = ratings.klass_of(game.name, game.num_players, game.config_json().get("variant"))
    mode = ratings.mode_of(table.options)
    accounts = [s.account for s in table.seating.seats]
    seats = await lobby.db.call(
        ratings.of_seats, lobby.store, klass, accounts, mode, what="reading the seats' ratings"
    )
    return {"rated": True, "class": klass, "mode": mode, "seats": seats}
