"""What follows the end of a game: its archive row and, at a rated table, the ratings.

Both are derived from the table once its last action is stored, off the event loop (the
:class:`~sakura.server.database.Database`'s threads), and both are idempotent (their rows' keys
refuse a second copy). A server that stopped before either catches up when it starts
(:func:`catch_up`): finished games missing from the archive are added, unrated rated games
are rated, so a restart at any moment neither loses nor doubles a rating.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from sakura.server import archive, farm, ratings
from sakura.server.db import now
from sakura.server.errors import TableError
from sakura.server.names import name_key

if TYPE_CHECKING:
    from sakura.server.lobby import Lobby
    from sakura.server.table import Table

log = logging.getLogger("sakura.server")
_tasks: set[asyncio.Task[None]] = set()


def on_finished(lobby: Lobby, table: Table) -> None:
    """The table's finished listener: schedule the follow-up (the event loop goes on)."""
    task = asyncio.get_running_loop().create_task(follow_up(lobby, table))
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


async def follow_up(lobby: Lobby, table: Table) -> None:
    try:
        await rate(lobby, table)
        game, players = archive.entry(table, now())
        await lobby.db.call(archive.add, lobby.store, game, players, what=f"table {table.id}: archiving it")
    except TableError:  # the database failed: the next start catches up
        log.error("table %s: its archive row or rating waits for the next start", table.id)
    except Exception:
        log.exception("table %s: after its end", table.id)


async def rate(lobby: Lobby, table: Table) -> None:
    """Rate a finished rated table (once: a second call changes nothing)."""
    outcome = table.state.outcome()
    if not table.rated or outcome is None or table.status != "finished":
        return
    accounts = [s.account for s in table.seats]
    if any(a is None for a in accounts):
        log.error("rated table %s has a seat without an account: not rated", table.id)
        return
    places = ratings.ranks(list(outcome.scores), list(outcome.winners), [s.forfeit for s in table.seats])
    klass = ratings.klass_of(table.game.name, table.game.num_players, table.game.config_json().get("variant"))
    mode = ratings.mode_of(table.options)  # a turn-based table rates in its own mode
    keys = [name_key(a or "") for a in accounts]
    days = lobby.limits.rating_shared_days
    if await lobby.db.call(farm.shared, lobby.store, keys, days, what=f"table {table.id}: its accounts"):
        if await lobby.db.call(
            farm.leave_unrated,
            lobby.store,
            table.id,
            klass,
            farm.SHARED,
            mode,
            what=f"table {table.id}: unrated",
        ):
            log.info("table %s: not rated (its accounts share an address or a device)", table.id)
        table.options["unrated"] = farm.SHARED
        table.broadcast_table()
        return
    done = await lobby.db.call(
        ratings.settle,
        lobby.store,
        table.id,
        ratings.RatingClass(klass, mode),
        [a or "" for a in accounts],
        places,
        what=f"table {table.id}: rating it",
    )
    if done:
        log.info("rated table %s (%s, %s): places %s", table.id, klass, mode, places)


async def catch_up(lobby: Lobby) -> None:
    """At start-up: rate the rated games and archive the games a stopped server left behind."""
    try:
        for table_id in await lobby.db.call(ratings.pending, lobby.store, what="finding unrated games"):
            await rate(lobby, await lobby.get(table_id))
        while ids := await lobby.db.call(archive.missing, lobby.store, what="finding unarchived games"):
            added = 0
            for table_id in ids:
                kept = table_id in lobby.tables
                table = await lobby.get(table_id)
                if not kept:  # loaded for its row only
                    lobby.tables.pop(table_id, None)
                stored = await lobby.db.call(table.store.load, table.id, what="loading a finished game")
                finished = stored.created if stored is not None else now()
                game, players = archive.entry(table, finished)
                added += await lobby.db.call(archive.add, lobby.store, game, players, what="archiving a game")
                await asyncio.sleep(0)
            if not added:
                break
    except Exception:
        log.exception("catching up with finished games")
