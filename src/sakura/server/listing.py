"""What the lobby lists: tables with open seats to join, games in play to watch (with their
players and round), tables nobody has visited for a day (abandoned: listed apart, never
deleted), and finished games with players, winner and date, newest first, a page at a time.

It reads tables (their public ``info()`` and outcome) and decides nothing about the games. A
browser knows which tables it holds a seat at (its cookies), so "your tables" is sorted out
on the page from the same lists.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sakura.server.lobby import Lobby
    from sakura.server.table import Table

ABANDONED_AFTER = 24 * 3600.0  # seconds without any connection
PAGE = 10  # finished games a page


def summary(table: Table) -> dict[str, Any]:
    """The table's public facts, the players' names, the date, and the winners once over."""
    info = table.info()
    outcome = table.state.outcome()
    info["created"] = table.created.isoformat(timespec="minutes")
    info["winners"] = list(outcome.winners) if outcome is not None else None
    info["scores"] = list(outcome.scores) if outcome is not None else None
    return info


def is_abandoned(table: Table, now: float | None = None) -> bool:
    """Nobody is connected and nobody has been for :data:`ABANDONED_AFTER` seconds."""
    if table.connections:
        return False
    return (now if now is not None else time.time()) - table.last_seen > ABANDONED_AFTER


def live(tables: Iterable[Table], now: float | None = None) -> dict[str, list[dict[str, Any]]]:
    """Unfinished tables: ``open`` (a human seat is free), ``playing``, ``abandoned``."""
    return lists((summary(t), is_abandoned(t, now)) for t in tables if t.status not in ("finished", "closed"))


def lists(items: Iterable[tuple[dict[str, Any], bool]]) -> dict[str, list[dict[str, Any]]]:
    """The lobby's three lists from ``(summary, abandoned)`` pairs (this process's tables, or
    the whole site's from Redis), newest first, 100 each at most."""
    out: dict[str, list[dict[str, Any]]] = {"open": [], "playing": [], "abandoned": []}
    for item, abandoned in items:
        if abandoned:
            out["abandoned"].append(item)
        elif any(s["kind"] == "human" and not s["claimed"] for s in item["seats"]):
            out["open"].append(item)
        else:
            out["playing"].append(item)
    for kind in out.values():
        kind.sort(key=lambda i: i["created"], reverse=True)
        del kind[100:]
    return out


async def finished(lobby: Lobby, page: int = 0) -> dict[str, Any]:
    """Page ``page`` (from 0) of the finished games, newest first; ``more``: another page follows.
    From the database, off the event loop; a finished table is loaded to read its players and
    result (and leaves memory again when the lobby sweeps)."""
    page = max(0, page)
    ids = await lobby.db.call(lobby.store.finished_ids, PAGE + 1, page * PAGE, what="listing finished games")
    games = [summary(await lobby.get(i)) for i in ids[:PAGE]]
    return {"page": page, "more": len(ids) > PAGE, "games": games}
