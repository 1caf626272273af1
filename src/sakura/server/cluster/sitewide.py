"""The lobby's lists across every process: each publishes the tables it owns in a Redis hash
(``live``) and reads everyone's back, so any process lists the whole site, at most one keeper
round old (as one process's lists are cached for ``lobby_cache_seconds``)."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import orjson

from sakura.server import listing

if TYPE_CHECKING:
    from sakura.server.table import Table

Entry = dict[str, Any]  # {"at": when published, "summary": listing.summary, "abandoned": bool}


async def exchange(redis: Any, prefix: str, owned: Iterable[Table], max_age: float) -> list[Entry]:
    """This process's unfinished tables (of ``owned``) into the ``live`` hash, each with a stamp
    so that the entries of a dead process age out (after ``max_age`` seconds); everyone's back."""
    key, now = f"{prefix}live", time.time()
    owned = list(owned)
    mine: dict[Any, Any] = {
        t.id: orjson.dumps(
            {"at": now, "summary": listing.summary(t), "abandoned": listing.is_abandoned(t, now)}
        )
        for t in owned
        if t.status == "playing"
    }
    if mine:
        await redis.hset(key, mapping=mine)
    entries = await redis.hgetall(key)
    found, stale = [], []
    for table_id, raw in entries.items():
        entry = orjson.loads(raw)
        if now - entry["at"] > max_age or entry["summary"]["status"] != "playing":
            stale.append(table_id)
        else:
            found.append(entry)
    done = [t.id for t in owned if t.status != "playing"]
    if stale or done:
        await redis.hdel(key, *stale, *done)
    return found


def live_listing(entries: list[Entry]) -> dict[str, list[dict[str, Any]]]:
    """The lobby's lists (open seats, in play, abandoned) of the whole site."""
    return listing.lists((entry["summary"], bool(entry["abandoned"])) for entry in entries)


def open_tables(entries: list[Entry]) -> list[dict[str, Any]]:
    """Every table in play, those with a free seat first."""
    keys = ("id", "game", "players", "variant", "timer", "status", "seats", "rematch", "seq", "round")
    live = [{k: e["summary"].get(k) for k in keys} for e in entries]
    live.sort(key=lambda t: not any(s["kind"] == "human" and not s["claimed"] for s in t["seats"]))
    return live
