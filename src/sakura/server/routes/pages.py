"""The HTML pages (each in the reader's language: :func:`sakura.server.pages.page`), the
favicon, and the guided first game's script."""

from __future__ import annotations

import asyncio
from functools import cache

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse

from sakura.records import tutorial_json
from sakura.server.pages import STATIC, page

router = APIRouter()
_tutorial = cache(tutorial_json)  # the script is fixed: played once per process


@router.get("/", include_in_schema=False)
async def index(request: Request) -> HTMLResponse:
    return page("index.html", request)


@router.get("/t/{table_id}", include_in_schema=False)
async def table_page(table_id: str, request: Request) -> HTMLResponse:
    return page("table.html", request)


@router.get("/replay/{table_id}", include_in_schema=False)
async def replay_page(table_id: str, request: Request) -> HTMLResponse:
    return page("replay.html", request)


@router.get("/learn", include_in_schema=False)
async def learn_page(request: Request) -> HTMLResponse:
    return page("tutorial.html", request)


@router.get("/favicon.ico", include_in_schema=False)
async def favicon() -> FileResponse:
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


@router.get("/api/tutorial")
async def tutorial() -> JSONResponse:
    """The guided first game ("Learn to play"), played through by the engine from its
    script: each step's words, highlight and expected move, with the learner's view and
    the events before it (the learner's own view only). Unrated: no table, nothing stored."""
    return JSONResponse(await asyncio.to_thread(_tutorial))
