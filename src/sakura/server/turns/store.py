"""The schedule's reads and writes, made from the database's worker threads
(:class:`~sakura.server.database.Database`): the deadlines of some tables (or of all), and a
batch of changed ones stored in one transaction (the rows themselves:
:mod:`sakura.server.deadlines`, which the actions' transactions write too)."""

from __future__ import annotations

from sqlalchemy import select

from sakura.server.db import Store
from sakura.server.deadlines import Due, to_seconds, write_deadlines
from sakura.server.models import DeadlineRow

__all__ = ["Due", "load_deadlines", "save_deadlines"]


def load_deadlines(store: Store, table_ids: list[str] | None = None) -> dict[str, Due]:
    """The stored deadlines of ``table_ids`` (None: every table's)."""
    query = select(DeadlineRow.table_id, DeadlineRow.due_at, DeadlineRow.decision)
    if table_ids is not None:
        query = query.where(DeadlineRow.table_id.in_(table_ids))
    with store.engine.connect() as conn:
        return {t: (to_seconds(due), decision) for t, due, decision in conn.execute(query)}


def save_deadlines(store: Store, changes: dict[str, Due | None]) -> None:
    """Store each table's new deadline (None: it has none now), all in one transaction."""
    with store.engine.begin() as conn:
        write_deadlines(conn, changes)
