"""Finished games: the archive's page and search, each game's record (the file ``sakura
replay`` reads), its replay step by step, and the post-game analysis of a seat."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from sakura.server import archive, chat, replays
from sakura.server.errors import TableError
from sakura.server.pages import page
from sakura.server.routes.deps import AdvisorDep, FinishedDep, LobbyDep, TableDep

router = APIRouter()
PageNumber = Annotated[int, Query(ge=0, le=100_000)]
SeatNumber = Annotated[int, Path(ge=0, le=7)]


@router.get("/games", include_in_schema=False)
async def archive_page(request: Request) -> HTMLResponse:
    return page("archive.html", request)


@router.get("/games/{table_id}", include_in_schema=False)
async def game_page(table_id: str, request: Request) -> HTMLResponse:
    return page("game.html", request)


@router.get("/api/archive")
async def archive_search(
    lobby: LobbyDep,
    page: PageNumber = 0,
    q: Annotated[str | None, Query(max_length=64)] = None,
    mode: Annotated[Literal["realtime", "turn"] | None, Query()] = None,
) -> dict[str, Any]:
    """Finished games, newest first, 20 a page; ``q``: only those where a seat had that name;
    ``mode``: only the real-time (``realtime``) or the turn-based (``turn``) games."""
    result: dict[str, Any] = await lobby.db.call(
        archive.search, lobby.store, (q or "").strip() or None, page, mode=mode, what="searching the archive"
    )
    return result


@router.get("/api/archive/{table_id}")
async def archive_game(table_id: str, lobby: LobbyDep) -> dict[str, Any]:
    game = await lobby.db.call(archive.one, lobby.store, table_id[:32], what="reading the archive")
    if game is None:
        raise TableError("no finished game of that id in the archive", "no_table")
    result: dict[str, Any] = game
    return result


@router.get("/api/tables/{table_id}/record")
async def record(table: FinishedDep) -> Response:
    """The finished game in the record format (``sakura replay`` reads it); of a damaged
    table, the game as far as its stored actions replay."""
    text = (await replays.record(table)).dumps(indent=1)
    return Response(
        text,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="sakura-{table.id}.json"'},
    )


@router.get("/api/tables/{table_id}/replay")
async def replay(table: FinishedDep) -> JSONResponse:
    """A finished game step by step, as a spectator saw it."""
    steps = await replays.steps(table)
    messages = await chat.for_replay(table)
    return JSONResponse({"table": table.info(), "steps": steps, "chat": messages})


@router.get("/api/tables/{table_id}/analysis/{seat}")
async def analysis_status(table: TableDep, seat: SeatNumber, advisor: AdvisorDep) -> dict[str, Any]:
    """How far the post-game analysis of ``seat`` (from 0) is, or the analysis itself."""
    return await advisor.status(table, seat)


@router.post("/api/tables/{table_id}/analysis/{seat}", status_code=202)
async def analyse(table: TableDep, seat: SeatNumber, advisor: AdvisorDep) -> dict[str, Any]:
    """Start the post-game analysis of ``seat`` (refused while the game is being played)."""
    return await advisor.start_analysis(table, seat)
