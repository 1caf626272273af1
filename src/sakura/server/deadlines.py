"""A turn-based table's deadline row as a transaction leaves it (``sakura_deadlines``,
:mod:`sakura.server.turns`), written inside whichever transaction changes it.

The deadline of a decision begins with the write that began the decision: the action that
ended the last one (:meth:`~sakura.server.db.Store.add_actions`), or the claim of the last free
seat (:meth:`~sakura.server.db.Store.update_table`). Written in that same transaction, a crash
can no longer fall between the two (the action stored, its deadline not yet), which gave the
next decision a full pace from the restart. The schedule's own writer
(:mod:`sakura.server.turns.schedule`) stores only the changes no such write carries (a timeout's
retry, a seat handed over).

Here, rather than under ``turns/``, because the store (:mod:`sakura.server.db`) calls it and
``turns`` imports the store's users.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete
from sqlalchemy.dialects import postgresql, sqlite

from sakura.server.models import DeadlineRow

Due = tuple[float, str]  # (when, as time.time(); the decision it is for: "round:kind:seats")


@dataclass(frozen=True, slots=True)
class DeadlineWrite:
    """The table's row after a write: ``due``, or None: no row (no decision is due).

    >>> DeadlineWrite((1_800_086_400.0, "2:selection:0,1"))
    DeadlineWrite(due=(1800086400.0, '2:selection:0,1'))
    """

    due: Due | None


def to_datetime(when: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(when, dt.UTC)


def to_seconds(when: dt.datetime) -> float:
    """SQLite gives back naive datetimes: they were stored in UTC."""
    return (when if when.tzinfo else when.replace(tzinfo=dt.UTC)).timestamp()


def _upsert(dialect: Any) -> Any:
    insert = dialect.insert(DeadlineRow)
    return insert.on_conflict_do_update(
        index_elements=[DeadlineRow.table_id],
        set_={"due_at": insert.excluded.due_at, "decision": insert.excluded.decision},
    )


# built once (an action's transaction writes one: SQLAlchemy's statement cache then serves it)
_UPSERT = {"postgresql": _upsert(postgresql), "sqlite": _upsert(sqlite)}


def write_deadlines(conn: Connection, changes: dict[str, Due | None]) -> None:
    """Each table's new row (None: none), in the caller's transaction. An upsert, not a delete
    and an insert: two transactions writing one table's row at once (an action's and the
    schedule's writer) must not collide on its key (PostgreSQL would refuse the second insert)."""
    gone = [t for t, due in changes.items() if due is None]
    if gone:
        conn.execute(delete(DeadlineRow).where(DeadlineRow.table_id.in_(gone)))
    rows = [
        {"table_id": t, "due_at": to_datetime(due[0]), "decision": due[1]}
        for t, due in changes.items()
        if due is not None
    ]
    if rows:
        conn.execute(_UPSERT[conn.dialect.name], rows)
