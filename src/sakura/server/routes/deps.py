"""What the routes are given (FastAPI ``Depends``): the lobby, the limits, the account of the
request, a table from its id. Everything comes from ``app.state``, set by the app's lifespan."""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import Depends
from starlette.requests import HTTPConnection

from sakura.server.accounts import user_of
from sakura.server.advice import Advisor
from sakura.server.errors import TableError
from sakura.server.front import TableFront
from sakura.server.limits import Limits
from sakura.server.lobby import Lobby
from sakura.server.table import Table

TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # what secrets.token_urlsafe makes; anything else: 404
NO_TABLE = ("no such table", "no_table")


def lobby(conn: HTTPConnection) -> Lobby:
    found: Lobby = conn.app.state.lobby
    return found


def limits(conn: HTTPConnection) -> Limits:
    found: Limits = conn.app.state.limits
    return found


def advisor(conn: HTTPConnection) -> Advisor:
    found: Advisor = conn.app.state.advisor
    return found


def address(conn: HTTPConnection) -> str:
    """The client's address (for the limits kept per address)."""
    return str(conn.client.host) if conn.client is not None else "?"


async def account(conn: HTTPConnection) -> str | None:
    """The username of a logged-in request (its session cookie), else None."""
    return await user_of(lobby(conn), conn.cookies)


async def table(table_id: str, conn: HTTPConnection) -> Table:
    """The table ``table_id`` (in memory, or loaded); ``no_table`` (404) if there is none."""
    if not TABLE_ID.fullmatch(table_id):
        raise TableError(*NO_TABLE)
    try:
        found: Table = await lobby(conn).get(table_id)
    except KeyError:
        raise TableError(*NO_TABLE) from None
    return found


async def front(table_id: str, conn: HTTPConnection) -> TableFront:
    """The table ``table_id`` wherever it is played (:mod:`sakura.server.front`)."""
    if not TABLE_ID.fullmatch(table_id):
        raise TableError(*NO_TABLE)
    try:
        return await lobby(conn).front(table_id)
    except KeyError:
        raise TableError(*NO_TABLE) from None


async def finished_table(found: Annotated[Any, Depends(table)]) -> Table:
    """A table whose game is over (or damaged): records and replays come at the end."""
    if found.status not in ("finished", "damaged"):
        raise TableError("the game is not over yet: records and replays come at the end", "not_finished")
    done: Table = found
    return done


LobbyDep = Annotated[Lobby, Depends(lobby)]
AccountDep = Annotated[str | None, Depends(account)]
AddressDep = Annotated[str, Depends(address)]
TableDep = Annotated[Table, Depends(table)]
FrontDep = Annotated[TableFront, Depends(front)]
FinishedDep = Annotated[Table, Depends(finished_table)]
AdvisorDep = Annotated[Advisor, Depends(advisor)]
