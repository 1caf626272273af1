"""The pages and the JSON of the archive, the players' pages and the leaderboards.

Read-only, public (a username and a rating are public; nothing of an account's secrets is
here), every query through the :class:`~sakura.server.database.Database`'s threads.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse

from sakura.server import archive, ratings
from sakura.server.errors import TableError
from sakura.server.pages import page

router = APIRouter()
Page = Annotated[int, Query(ge=0, le=100_000)]


def _lobby(request: Request) -> Any:
    return request.app.state.lobby


@router.get("/games", include_in_schema=False)
async def archive_page(request: Request) -> HTMLResponse:
    return page("archive.html", request)


@router.get("/games/{table_id}", include_in_schema=False)
async def game_page(table_id: str, request: Request) -> HTMLResponse:
    return page("game.html", request)


@router.get("/u/{username}", include_in_schema=False)
async def player_page(username: str, request: Request) -> HTMLResponse:
    return page("player.html", request)


@router.get("/leaderboard", include_in_schema=False)
async def leaderboard_page(request: Request) -> HTMLResponse:
    return page("leaderboard.html", request)


@router.get("/api/archive")
async def archive_search(
    request: Request, page: Page = 0, q: Annotated[str | None, Query(max_length=64)] = None
) -> dict[str, Any]:
    """Finished games, newest first, 20 a page; ``q``: only those where a seat had that name."""
    lobby = _lobby(request)
    result: dict[str, Any] = await lobby.db.call(
        archive.search, lobby.store, (q or "").strip() or None, page, what="searching the archive"
    )
    return result


@router.get("/api/archive/{table_id}")
async def archive_game(table_id: str, request: Request) -> dict[str, Any]:
    lobby = _lobby(request)
    game = await lobby.db.call(archive.one, lobby.store, table_id[:32], what="reading the archive")
    if game is None:
        raise TableError("no finished game of that id in the archive", "no_table")
    result: dict[str, Any] = game
    return result


@router.get("/api/players/{username}")
async def player(username: str, request: Request, page: Page = 0) -> dict[str, Any]:
    """An account's ratings by class (with their history) and its finished games."""
    lobby = _lobby(request)
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
    request: Request, page: Page = 0, klass: Annotated[str, Query(alias="class")] = "sakura-3-6"
) -> dict[str, Any]:
    if klass not in ratings.CLASSES:
        raise TableError(f"no such class; classes: {', '.join(ratings.CLASSES)}", "bad_table")
    lobby = _lobby(request)
    result: dict[str, Any] = await lobby.db.call(
        ratings.leaderboard, lobby.store, klass, page, what="reading the leaderboard"
    )
    return result
