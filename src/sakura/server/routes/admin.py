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

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from sakura.server import chat, moderation
from sakura.server.errors import TableError
from sakura.server.pages import page
from sakura.server.routes.deps import TABLE_ID, LobbyDep, account

router = APIRouter()
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


@router.post("/api/admin/ban")
async def ban(body: Ban, lobby: LobbyDep, moderator: AdminDep) -> dict[str, Any]:
    """Ban an account: its sessions end now, it cannot sign in, its seats cannot chat."""
    return await _set_banned(lobby, body, moderator, banned=True)


@router.post("/api/admin/unban")
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


@router.post("/api/admin/hide")
async def hide(body: Hide, lobby: LobbyDep, moderator: AdminDep) -> dict[str, Any]:
    """Hide a chat message from everyone, now and on reload (kept for the audit log)."""
    table_id = await lobby.db.call(
        moderation.hide_message, lobby.store, body.message, moderator, what="hiding"
    )
    if table_id is None:
        raise TableError("there is no such chat message", "no_message")
    table = lobby.tables.get(table_id)
    if table is not None:
        chat.hidden(table, body.message)
    return {"message": body.message, "hidden": True}


@router.post("/api/admin/close")
async def close(body: Close, lobby: LobbyDep, moderator: AdminDep) -> dict[str, Any]:
    """Close a table in play: its players are told, the game ends without a result or rating."""
    if not TABLE_ID.fullmatch(body.table):
        raise TableError("no such table", "no_table")
    if not await lobby.db.call(
        moderation.close_table, lobby.store, body.table, moderator, body.reason, what="closing"
    ):
        raise TableError("no table of that id is in play", "no_table")
    table = lobby.tables.pop(body.table, None)
    lobby.clear_lists()
    if table is not None:
        await table.closed_by_moderator()
    return {"table": body.table, "status": "closed"}
