"""The database's rows for the games: a table, its actions, its post-game analyses, on the
declarative base every model of the server shares (the people's rows are
:mod:`sakura.server.people_models`). The schema is Alembic's (:mod:`sakura.server.migrations`):
a change to a model here comes with a revision."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, DateTime, Float, ForeignKey, Index, Integer, String, false
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "sakura_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), default="sakura", server_default="sakura")
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)  # server side only: never sent to a client
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    timer: Mapped[float | None] = mapped_column(Float, nullable=True)
    status: Mapped[str] = mapped_column(String(16))  # "playing" | "finished"
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    # revision 0003: a rated table (accounts only) and the table's options (spectator chat)
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    options: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    lease: Mapped[int | None] = mapped_column(BigInteger, nullable=True)  # the owner's: sakura.server.cluster


class ActionRow(Base):
    __tablename__ = "sakura_actions"

    table_id: Mapped[str] = mapped_column(ForeignKey("sakura_tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(64))
    by: Mapped[str] = mapped_column(String(16))  # "player" | "bot" | "timer"
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    lease: Mapped[int | None] = mapped_column(BigInteger, nullable=True)  # the lease it was written under


class AnalysisRow(Base):
    """A finished game's post-game analysis of one seat (``sakura.bots.analysis``'s JSON)."""

    __tablename__ = "analyses"

    table_id: Mapped[str] = mapped_column(ForeignKey("sakura_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    spec: Mapped[str] = mapped_column(String(64))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class DeadlineRow(Base):
    """A turn-based table's deadline (revision 0008, :mod:`sakura.server.turns`): when its
    pending move is due, and which decision that is (``round:kind:seats``, so that a restarted
    server keeps the deadline of a decision still pending and gives a new one its full time)."""

    __tablename__ = "sakura_deadlines"

    table_id: Mapped[str] = mapped_column(ForeignKey("sakura_tables.id"), primary_key=True)
    due_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), index=True)
    decision: Mapped[str] = mapped_column(String(64))


class TurnSeatRow(Base):
    """A seat taken at a turn-based table, and by whom (revision 0011, :mod:`sakura.server.turns.bounds`):
    the account, or for an anonymous player the client address's mark (hashed, ``farm.mark``).
    The seats of unfinished tables are counted against ``Limits.turn_games_per_account`` and
    ``turn_games_per_address``; a finished table's no longer count, so nothing is deleted."""

    __tablename__ = "sakura_turn_seats"
    __table_args__ = (
        Index("ix_sakura_turn_seats_account", "account"),
        Index("ix_sakura_turn_seats_address", "address"),
    )

    table_id: Mapped[str] = mapped_column(ForeignKey("sakura_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account: Mapped[str | None] = mapped_column(String(48), nullable=True)  # the account's key (name_key)
    address: Mapped[str | None] = mapped_column(String(64), nullable=True)  # an anonymous player's mark
