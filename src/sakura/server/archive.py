"""The archive of finished games: a row a game (players, winners, date, length) and a row a
named seat, so that a search by player name and a player's list of games read an index, never
the actions.

A row is derived once, when the game ends (:func:`entry`, from the table the engine replayed),
and games finished before the archive existed are added when the server starts. The search is
by the whole name, compared case-folded (:func:`~sakura.server.names.name_key`), newest first,
a page at a time: one index range scan (``name_key, finished``) however many games there are
(``benchmarks/archive_query.py`` measures it at 100,000 games).
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from sakura.server.db import Store
from sakura.server.models import TableRow
from sakura.server.names import name_key
from sakura.server.people_models import ArchivePlayerRow, ArchiveRow
from sakura.server.ratings import klass_of

if TYPE_CHECKING:
    from sakura.server.table import Table

PAGE = 20


def entry(table: Table, finished: dt.datetime) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The archive's rows of a finished table: the game's and one per named seat."""
    outcome = table.state.outcome()
    winners = list(outcome.winners) if outcome is not None else []
    scores = list(outcome.scores) if outcome is not None else []
    seats = [
        {
            "name": s.name,
            "kind": s.kind,
            "level": s.level,
            "account": s.account,
            "forfeit": s.forfeit,
            "score": scores[i] if i < len(scores) else None,
        }
        for i, s in enumerate(table.seats)
    ]
    variant = table.game.config_json().get("variant")
    game = {
        "table_id": table.id,
        "game": table.game.name,
        "klass": klass_of(table.game.name, table.game.num_players, variant),
        "players": table.game.num_players,
        "rated": table.rated,
        "finished": finished,
        "actions": table.seq,
        "rounds": table.state.progress().round,
        "seats": seats,
        "winners": winners,
        "pace": table.options.get("pace"),  # a turn-based game's pace ("1d", ...); None: real time
    }
    players = [
        {
            "table_id": table.id,
            "seat": i,
            "name_key": name_key(s.name),
            "winner": i in winners,
            "account": name_key(s.account) if s.account else None,
            "finished": finished,
        }
        for i, s in enumerate(table.seats)
        if s.name
    ]
    return game, players


# ------------------------------------------------------------------ the store's calls (worker threads)


def add(store: Store, game: dict[str, Any], players: list[dict[str, Any]]) -> bool:
    """Store a game's rows, once (False: it was there already)."""
    try:
        with store.engine.begin() as conn:
            conn.execute(insert(ArchiveRow), game)
            if players:
                conn.execute(insert(ArchivePlayerRow), players)
    except IntegrityError:
        return False
    return True


def missing(store: Store, limit: int = 200) -> list[str]:
    """Finished tables not in the archive yet (made before it, or stopped before their row)."""
    with store.engine.connect() as conn:
        return list(
            conn.scalars(
                select(TableRow.id)
                .where(TableRow.status == "finished", TableRow.id.not_in(select(ArchiveRow.table_id)))
                .order_by(TableRow.created)
                .limit(limit)
            )
        )


def _public(row: Any) -> dict[str, Any]:
    finished = row.finished if row.finished.tzinfo else row.finished.replace(tzinfo=dt.UTC)
    return {
        "id": row.table_id,
        "game": row.game,
        "class": row.klass,
        "players": row.players,
        "rated": row.rated,
        "finished": finished.isoformat(timespec="minutes"),
        "actions": row.actions,
        "rounds": row.rounds,
        "seats": row.seats,
        "winners": row.winners,
        "pace": row.pace,
    }


def _paced(mode: str | None) -> list[Any]:
    """The archive's condition for a mode: real-time games have no pace, turn-based ones one."""
    if mode is None:
        return []
    return [ArchiveRow.pace.is_(None) if mode == "realtime" else ArchiveRow.pace.is_not(None)]


def search(
    store: Store,
    name: str | None = None,
    page: int = 0,
    *,
    account: str | None = None,
    mode: str | None = None,
) -> dict[str, Any]:
    """Page ``page`` of the finished games, newest first: all of them, those where a seat had
    ``name`` (whole name, any case), or those of an ``account``; ``mode``: only the real-time
    games (``realtime``) or only the turn-based ones (``turn``)."""
    size = PAGE
    paced = _paced(mode)
    with store.engine.connect() as conn:
        if name or account:
            column = ArchivePlayerRow.account if account else ArchivePlayerRow.name_key
            seat_rows = select(ArchivePlayerRow.table_id, ArchivePlayerRow.finished).where(
                column == name_key(account or name or "")
            )
            if paced:  # the mode narrows the seat rows before they are paged
                seat_rows = seat_rows.join(
                    ArchiveRow, ArchiveRow.table_id == ArchivePlayerRow.table_id
                ).where(*paced)
            ids = (
                seat_rows.order_by(ArchivePlayerRow.finished.desc(), ArchivePlayerRow.table_id.desc())
                .offset(page * size)
                .limit(size + 1)
                .subquery()
            )
            query = (
                select(ArchiveRow)
                .join(ids, ids.c.table_id == ArchiveRow.table_id)
                .order_by(ids.c.finished.desc(), ids.c.table_id.desc())
            )
        else:
            query = (
                select(ArchiveRow)
                .where(*paced)
                .order_by(ArchiveRow.finished.desc(), ArchiveRow.table_id.desc())
                .offset(page * size)
                .limit(size + 1)
            )
        rows = conn.execute(query).all()
    games = [_public(r) for r in rows[:size]]
    return {"page": page, "more": len(rows) > size, "games": games, "q": name or "", "mode": mode}


def one(store: Store, table_id: str) -> dict[str, Any] | None:
    with store.engine.connect() as conn:
        row = conn.execute(select(ArchiveRow).where(ArchiveRow.table_id == table_id)).first()
    return None if row is None else _public(row)
