""" "Your move" across processes (:mod:`sakura.server.turns.moves`): each table is in its
owner's memory, so the process asked reads its own tables and asks every other owner once,
through the relay, for the entries of its tables (:class:`.messages.Moves`).

Why ask the owners rather than keep an index in Redis or read the database: an entry is the
table's live state as one seat sees it (its view's progress, the deadline, the last round's
events filtered for that seat), which only the owner holds, and a token is checked where its
table lives, as a ``hello`` is. An index would have to be rewritten on every move of every
table to be as fresh; the database holds no positions (they are replayed). The owners are
found from the leases; the account's tables from the site's lists (``ClusterLobby.site``:
every process's tables with their seats' accounts, at most one keeper round old).
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sakura.server.cluster import messages
from sakura.server.cluster.remote import ask
from sakura.server.turns.moves import Claim, games_here, in_order

if TYPE_CHECKING:
    from sakura.server.cluster.owner import ClusterLobby

log = logging.getLogger("sakura.server")


async def site_moves(lobby: ClusterLobby, claims: Sequence[Claim], account: str | None) -> dict[str, Any]:
    """Every game in progress of ``claims`` and ``account`` on the site: this process's tables
    read here, every other owner asked at once. An owner that does not answer in time is left
    out (its games are listed again on the next read); a table nobody owns just now, until a
    process takes it over."""
    games = games_here(lobby.tables, claims, account, every_table=True)
    elsewhere = [(t, token) for t, token in claims if t not in lobby.tables]
    if account is not None:
        claimed = {t for t, _ in claims}
        for entry in lobby.site:
            summary = entry["summary"]
            table_id = str(summary["id"])
            if table_id in lobby.tables or table_id in claimed:
                continue
            if any(seat.get("account") == account for seat in summary["seats"]):
                elsewhere.append((table_id, None))
    if not elsewhere:
        return in_order(games.values())
    owners = await lobby.leases.owners(sorted({t for t, _ in elsewhere}))
    asked: dict[str, list[Claim]] = defaultdict(list)
    for table_id, token in elsewhere:
        owner = owners.get(table_id)
        if owner is not None and owner != lobby.node:
            asked[owner].append((table_id, token))
    wait = lobby.leases.ms / 1000
    replies = await asyncio.gather(
        *(
            ask(lobby, owner, messages.envelope(messages.Moves(tuple(seats), account), ""), wait)
            for owner, seats in asked.items()
        ),
        return_exceptions=True,
    )
    for owner, reply in zip(asked, replies, strict=True):
        if isinstance(reply, BaseException):
            log.warning("your move: the owner %s did not answer (%s); its games left out", owner, reply)
        else:
            games.update(reply["games"])
    return in_order(games.values())


def moves_here(lobby: ClusterLobby, request: messages.Request) -> dict[str, Any]:
    """Another process's "your move": the entries of the named tables this process owns."""
    assert isinstance(request, messages.Moves)
    owned = {t.id: t for t in lobby.tables.values() if t.lease is not None}
    seats = [(str(t), None if token is None else str(token)) for t, token in request.seats]
    return {"ok": True, "games": games_here(owned, seats, request.account, every_table=False)}
