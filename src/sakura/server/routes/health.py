"""Probes for a load balancer or a process manager: ``/healthz`` (alive) and ``/readyz`` (ready).

* ``GET /healthz``: 200 ``{"status": "alive"}`` whenever the event loop answers at all. It asks
  nothing else, so a slow database never gets a live process restarted.
* ``GET /readyz``: 200 ``{"status": "ready"}`` only when the database answers, its schema is at
  the newest migration, and (one process among many, ``--redis-url``) Redis answers; otherwise
  503 with ``{"status": "unready", "reason": ...}`` naming what is missing, so a balancer sends
  no player to a process that would only refuse them. Each check is bounded in time: a stalled
  database makes the probe answer 503 within a second or two, not hang.

Neither says anything secret: no URL, no host name, no error text from a driver.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from starlette.requests import Request

from sakura.server import migrations
from sakura.server.errors import TableError

router = APIRouter(include_in_schema=False)

CHECK_SECONDS = 2.0  # each readiness check's time limit


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """Alive: the process's event loop answered."""
    return {"status": "alive"}


@router.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    """Ready to serve players: the database, its schema, and Redis where there is one."""
    reason = await unready(request.app.state)
    if reason is None:
        return JSONResponse({"status": "ready"})
    return JSONResponse({"status": "unready", "reason": reason}, status_code=503)


async def unready(state: Any) -> str | None:
    """Why this process cannot serve players now, or None when it can."""
    lobby = getattr(state, "lobby", None)
    if lobby is None:
        return "starting"
    try:
        async with asyncio.timeout(CHECK_SECONDS):
            revision = await lobby.db.call(migrations.current, lobby.store.engine, what="readiness check")
    except (TableError, TimeoutError):
        return "database: not answering"
    if revision != _head():
        return f"database: schema at {revision}, this server needs {_head()} (run the migrations)"
    peers = await lobby.peers_unready()
    return None if peers is None else f"redis: {peers}"


_HEAD: list[str] = []


def _head() -> str:
    """The newest migration (read from the scripts once)."""
    if not _HEAD:
        _HEAD.append(migrations.head())
    return _HEAD[0]
