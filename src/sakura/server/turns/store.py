"""The schedule's reads and writes, made from the database's worker threads
(:class:`~sakura.server.database.Database`): the deadlines of some tables (or of all), and a
batch of changed ones stored in one transaction."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import delete, insert, select

from sakura.server.db import Store
from sakura.server.models import DeadlineRow

Due = tuple[float, str]  # (when, as time.time(); the decision it is for)


def to_datetime(when: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(when, dt.UTC)


def to_seconds(when: dt.datetime) -> float:
    """SQLite gives back naive datetimes: they were stored in UTC."""
    return (when if when.tzinfo else when.replace(tzinfo=dt.UTC)).timestamp()


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
        conn.execute(delete(DeadlineRow).where(DeadlineRow.table_id.in_(list(changes))))
        rows = [
            {"table_id": t, "due_at": to_datetime(due[0]), "decision": due[1]}
            for t, due in changes.items()
            if due is not None
        ]
        if rows:
            conn.execute(insert(DeadlineRow), rows)
