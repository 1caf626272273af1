"""A player's own moderation: reporting a chat message, and deleting one's own account.

* ``POST /api/chat/{id}/report``: anyone at a table may report a message (logged in or not;
  the report names the account when there is one). Rate-limited per address like sign-ups,
  so a flood of reports cannot bury the moderators' list.
* ``POST /api/account/delete``: the logged-in owner, with the account's password again, deletes
  it: sessions end, ratings leave the leaderboard, finished games stay with the seat unnamed
  (:func:`sakura.server.moderation.delete_account`).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from sakura.server import accounts, moderation
from sakura.server.errors import TableError
from sakura.server.limits import KeyedLimiter
from sakura.server.routes import deps
from sakura.server.routes.deps import AccountDep, LobbyDep

router = APIRouter()
log = logging.getLogger("sakura.server")
REPORTS_PER_MINUTE = 6


class Report(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: str | None = Field(default=None, max_length=200)


class Deletion(BaseModel):
    model_config = ConfigDict(extra="forbid")
    password: str = Field(max_length=1024)

    def __repr__(self) -> str:  # never the password, wherever it is printed
        return "Deletion(password=<hidden>)"

    __str__ = __repr__


@router.post(
    "/api/chat/{chat_id}/report",
    status_code=201,
    responses={
        404: {"description": "no such (visible) message (`no_message`)"},
        429: {"description": "over 6 reports a minute from one address (`rate_limited`, `Retry-After`)"},
    },
)
async def report(
    chat_id: int, body: Report, request: Request, lobby: LobbyDep, user: AccountDep
) -> dict[str, Any]:
    """Report a chat message to the moderators."""
    limiter, address = _limiter(request.app.state), deps.address(request)
    if (wait := limiter.take(address)) is not None:
        raise TableError(f"too many reports; try again in {wait:.0f} s", "rate_limited", retry_after=wait)
    reason = body.reason.strip() or None if body.reason else None
    if not await lobby.db.call(moderation.add_report, lobby.store, chat_id, user, reason, what="reporting"):
        raise TableError("there is no such chat message", "no_message")
    return {"reported": chat_id}


async def _unbind(lobby: Any, table_id: str, username: str) -> None:
    """The deleted account's seats at ``table_id`` keep their player (the seat's token) and lose
    the account and its name in the memory of whichever process serves the table (its owner,
    with many processes); the database has them unbound already, so a table that cannot be
    reached now is unbound when it is next loaded."""
    try:
        front = await lobby.front(table_id)
        await front.unbind(username)
    except (KeyError, TableError) as exc:
        log.warning("table %s: a deleted account's seat not unbound live: %s", table_id, exc)


def _limiter(state: Any) -> KeyedLimiter:
    """The app's limit on reports, per address (made on first use)."""
    if not hasattr(state, "reports"):
        state.reports = KeyedLimiter(REPORTS_PER_MINUTE / 60, REPORTS_PER_MINUTE)
    limiter: KeyedLimiter = state.reports
    return limiter


@router.post(
    "/api/account/delete",
    responses={401: {"description": "not logged in (`login_required`) or a wrong password (`bad_login`)"}},
)
async def delete(
    body: Deletion, request: Request, response: Response, lobby: LobbyDep, user: AccountDep
) -> dict[str, Any]:
    """Delete the logged-in account, its password given again."""
    if user is None:
        raise TableError("log in to delete your account", "login_required")
    found = await lobby.db.call(accounts.hash_of, lobby.store, user, what="reading an account")
    if found is None or not await asyncio.to_thread(accounts.verify, found[1], body.password):
        raise TableError("wrong password", "bad_login")
    games, playing = await lobby.db.call(
        moderation.delete_account, lobby.store, user, what="deleting an account"
    )
    for table_id in games:  # finished games held in memory: read again, unnamed
        table = lobby.tables.get(table_id)
        if table is not None and table.status != "playing" and not table.connections:
            del lobby.tables[table_id]
    for table_id in playing:  # tables in play: the seat unbound in memory too, by their owners
        await _unbind(lobby, table_id, user)
    lobby.clear_lists()
    response.delete_cookie(accounts.COOKIE, path="/", httponly=True, samesite="lax")
    return {"deleted": True, "games": len(games)}
