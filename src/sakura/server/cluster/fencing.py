"""The database's side of ownership: lease numbers, issued by the database that enforces them.

Taking a table raises its row's ``lease`` by one and gives the new number to the new owner,
which writes every action with it; :meth:`~sakura.server.db.Store.add_actions` locks the rows
of the tables it writes and refuses an action whose lease is not its table's (``FencedError``).
The numbers come from the database, not from Redis, so a Redis that restarts empty cannot hand
out a number already used. Raising the number waits for a writer holding the row's lock, so a
new owner reads the table only once every write of the old one is committed or refused.
"""

from __future__ import annotations

from sqlalchemy import func, select, update

from sakura.server.db import Store
from sakura.server.models import TableRow


def raise_lease(store: Store, table_id: str) -> int:
    """The table's next lease number (stored before it is returned)."""
    with store.engine.begin() as conn:
        row = conn.execute(
            update(TableRow)
            .where(TableRow.id == table_id)
            .values(lease=func.coalesce(TableRow.lease, 0) + 1)
            .returning(TableRow.lease)
        ).first()
    if row is None:
        raise KeyError(table_id)
    return int(row[0] or 0)


def lease_of(store: Store, table_id: str) -> int | None:
    """The table's lease number as the database holds it."""
    with store.engine.connect() as conn:
        value = conn.execute(select(TableRow.lease).where(TableRow.id == table_id)).scalar()
    return None if value is None else int(value)


def playing_ids(store: Store) -> list[str]:
    """Every table not over (cheap: ids only), oldest first."""
    with store.engine.connect() as conn:
        return [
            str(r[0])
            for r in conn.execute(
                select(TableRow.id).where(TableRow.status == "playing").order_by(TableRow.created)
            )
        ]
