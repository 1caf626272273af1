"""Persistence: every table and every action, kept so that a restart loses no game.

Event sourcing as the engine allows: a table row holds what cannot be recomputed (config,
the server-side seed, the seats, the timer, the status) and one row per applied action holds
``(seq, seat, action text, by, time)``. A table's state is rebuilt by dealing from the seed and
re-applying its actions through the engine, so the database never holds rules or positions.

SQLAlchemy 2 keeps one code path for SQLite (the default: a file, nothing to install) and
PostgreSQL (``postgresql+psycopg://...``). Calls are synchronous and short; the server makes
them in order, before it tells any client, so an acknowledged action is always on disk.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    create_engine,
    event,
    insert,
    select,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "sakura_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)  # server side only: never sent to a client
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    timer: Mapped[float | None] = mapped_column(Float, nullable=True)
    status: Mapped[str] = mapped_column(String(16))  # "playing" | "finished"
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class ActionRow(Base):
    __tablename__ = "sakura_actions"

    table_id: Mapped[str] = mapped_column(ForeignKey("sakura_tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(64))
    by: Mapped[str] = mapped_column(String(16))  # "player" | "bot" | "timer"
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True, slots=True)
class StoredTable:
    """A table as the database holds it, actions in order (``(seat, action text)``)."""

    id: str
    config: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    timer: float | None
    status: str
    rematch: str | None
    created: dt.datetime
    actions: list[tuple[int, str]]


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class Store:
    """The database behind the server: tables and their actions."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: Engine = create_engine(url, future=True)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._session = sessionmaker(self.engine, expire_on_commit=False)
        Base.metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def create_table(self, row: StoredTable) -> None:
        with self._session.begin() as s:
            s.add(TableRow(id=row.id, config=row.config, seed=row.seed, seats=row.seats, timer=row.timer,
                           status=row.status, rematch=row.rematch, created=row.created))

    def add_action(self, table_id: str, seq: int, seat: int, action: str, by: str) -> None:
        """The hot path (one call an action): a Core insert, no ORM unit of work."""
        with self.engine.begin() as conn:
            row = {"table_id": table_id, "seq": seq, "seat": seat, "action": action, "by": by, "at": now()}
            conn.execute(insert(ActionRow), [row])

    def update_table(self, table_id: str, **fields: Any) -> None:
        """Change ``seats``, ``status`` or ``rematch`` of a table."""
        with self._session.begin() as s:
            row = s.get(TableRow, table_id)
            if row is None:
                raise KeyError(table_id)
            for key, value in fields.items():
                setattr(row, key, value)

    def load(self, table_id: str) -> StoredTable | None:
        with self._session() as s:
            row = s.get(TableRow, table_id)
            return None if row is None else self._stored(s, row)

    def load_unfinished(self) -> list[StoredTable]:
        with self._session() as s:
            rows = s.scalars(select(TableRow).where(TableRow.status != "finished").order_by(TableRow.created))
            return [self._stored(s, row) for row in rows]

    def finished_ids(self, limit: int = 50) -> list[str]:
        with self._session() as s:
            rows = s.scalars(select(TableRow.id).where(TableRow.status == "finished")
                             .order_by(TableRow.created.desc()).limit(limit))
            return list(rows)

    @staticmethod
    def _stored(s: Session, row: TableRow) -> StoredTable:
        actions = s.execute(select(ActionRow.seat, ActionRow.action).where(ActionRow.table_id == row.id)
                            .order_by(ActionRow.seq)).all()
        created = row.created if row.created.tzinfo else row.created.replace(tzinfo=dt.UTC)
        return StoredTable(row.id, dict(row.config), int(row.seed), [dict(x) for x in row.seats], row.timer,
                           row.status, row.rematch, created, [(int(a), str(b)) for a, b in actions])


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL and synchronous=NORMAL: a commit survives a process crash (not a power cut) and costs
    far less than a full fsync per action."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()
