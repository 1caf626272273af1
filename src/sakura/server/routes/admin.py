"""The moderators' routes: the admin page and its API (``/api/admin/...``).

Every route here needs a logged-in account with the admin role (``sakura admin grant NAME``):
anyone else gets 403 (code ``forbidden``), whether logged in or not. Their POSTs pass the same
CSRF check as every other (:mod:`sakura.server.csrf`): a moderator's session cookie without
its token changes nothing. Each action is written to the audit log with who and when, in the
change's own transaction (:mod:`sakura.server.moderation`), and takes effect at once in this
process: a ban ends the account's sessions, a hidden message leaves every page at its table,
a closed table tells its players and stops.
"""

from __future__ import annotations

import logging
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from sakura.server import moderation
from sakura.server.errors import TableError
from sakura.server.pages import page
from sakura.server.routes.deps import TABLE_ID, LobbyDep, account

log = logging.getLogger("sakura.server")
# The refusals every admin route may answer with, stated in the OpenAPI schema.
REFUSALS: dict[int | str, dict[str, Any]] = {
    403: {"description": "not a moderator (`forbidden`), or a POST without its CSRF token (`csrf`)"},
    503: {"description": "the database did not answer in time (`storage`): try again"},
}
router = APIRouter(responses=REFUSALS)
FORBIDDEN = ("this page is for the site's moderators", "forbidden")


async def admin(conn: HTTPConnection) -> str:
    """The logged-in moderator's username; 403 for anyone else."""
    username = await account(conn)
    if username is None:
        raise TableError(*FORBIDDEN)
    lobby = conn.app.state.lobby
    role = await lobby.db.call(moderation.role_of, lobby.store, username, what="reading a role")
    if role != moderation.ADMIN:
        raise TableError(*FORBIDDEN)
    return username


AdminDep = Annotated[str, Depends(admin)]


class Ban(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: str = Field(min_length=1, max_length=64)
    reason: str | None = Field(default=None, max_length=300)


class Hide(BaseModel):
    model_config = ConfigDict(extra="forbid")
    message: int = Field(ge=1, description="the chat message's id")


class Close(BaseModel):
    model_config = ConfigDict(extra="forbid")
    table: str = Field(min_length=1, max_length=32)
    reason: str | None = Field(default=None, max_length=300)


@router.get("/admin", include_in_schema=False)
async def admin_page(request: Request) -> Response:
    """The page (its data comes from ``GET /api/admin``, which refuses non-admins)."""
    return page("admin.html", request)


@router.get("/api/admin")
async def overview(lobby: LobbyDep, moderator: AdminDep) -> dict[str, Any]:
    """What the admin page shows: open reports, banned accounts, the audit log."""
    store = lobby.store
    return {
        "moderator": moderator,
        "reports": await lobby.db.call(moderation.open_reports, store, what="listing reports"),
        "banned": await lobby.db.call(moderation.banned_accounts, store, what="listing bans"),
        "audit": await lobby.db.call(moderation.audit_log, store, what="reading the audit log"),
    }


@router.post("/api/admin/ban", responses={404: {"description": "no such account (`no_account`)"}})
async def ban(body: Ban, lobby: LobbyDep, moderator: AdminDep) -> dict[str, Any]:
    """Ban an account: its sessions end now, it cannot sign in, its seats cannot chat."""
    return await _set_banned(lobby, body, moderator, banned=True)


@router.post("/api/admin/unban", responses={404: {"description": "no such account (`no_account`)"}})
async def unban(body: Ban, lobby: LobbyDep, moderator: AdminDep) -> dict[str, Any]:
    return await _set_banned(lobby, body, moderator, banned=False)


async def _set_banned(lobby: Any, body: Ban, moderator: str, *, banned: bool) -> dict[str, Any]:
    found = await lobby.db.call(
        moderation.set_banned, lobby.store, body.username, banned, moderator, body.reason, what="banning"
    )
    if found is None:
        raise TableError("there is no account of that name", "no_account")
    moderation.bans(lobby.store).changed()
    return {"username": found, "banned": banned}


@router.post("/api/admin/hide", responses={404: {"description": "no such message (`no_message`)"}})
async def hide(body: Hide, lobby: LobbyDep, moderator: AdminDep) -> dict[str, Any]:
    """Hide a chat message from everyone, now and on reload (kept for the audit log)."""
    table_id = await lobby.db.call(
        moderation.hide_message, lobby.store, body.message, moderator, what="hiding"
    )
    if table_id is None:
        raise TableError("there is no such chat message", "no_message")
    live = await _live(lobby, table_id, body.message)
    return {"message": body.message, "hidden": True, "live": live}


async def _live(lobby: Any, table_id: str, message: int) -> bool:
    """Take a hidden message off the pages at its table, wherever the table is served (its
    owner, with many processes). Stored already: a page that missed this loses it on reload."""
    try:
        front = await lobby.front(table_id)
        await front.moderate("hide", message)
    except (KeyError, TableError) as exc:
        log.warning("table %s: hidden message %d not taken off its pages live: %s", table_id, message, exc)
        return False
    return True


@router.post("/api/admin/close", responses={404: {"description": "no table of that id in play (`no_table`)"}})
async def close(body: Close, lobby: LobbyDep, moderator: AdminDep) -> dict[str, Any]:
    """Close a table in play: its players are told, the game ends without a result or rating."""
    if not TABLE_ID.fullmatch(body.table):
        raise TableError("no such table", "no_table")
    try:  # where it is played: here, or its owner (many processes)
        front = await lobby.front(body.table)
    except KeyError:
        raise TableError("no such table", "no_table") from None
    if front.status != "playing" or not await lobby.db.call(
        moderation.close_table, lobby.store, body.table, moderator, body.reason, what="closing"
    ):
        raise TableError("no table of that id is in play", "no_table")
    await front.moderate("close", None)
    return {"table": body.table, "status": "closed"}
