"""The tables of the people around the games: chat, accounts and their sessions, ratings, and
the archive of finished games (revision ``0003``).

They sit on the same declarative base as the tables and actions (:mod:`sakura.server.models`), so
Alembic's comparison of models and revisions covers them. A game's rules and positions are
still nowhere here: the archive keeps what a search page lists (names, winners, length), each
row derived once from the stored actions by the engine.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from sakura.server.models import Base


class ChatRow(Base):
    """One chat message of a table; ``seq``: how many actions the table had then (the replay
    shows it at that step)."""

    __tablename__ = "sakura_chat"
    __table_args__ = (Index("ix_sakura_chat_table", "table_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("sakura_tables.id"))
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)  # None: a spectator
    name: Mapped[str | None] = mapped_column(String(24), nullable=True)
    text: Mapped[str | None] = mapped_column(String(300), nullable=True)
    phrase: Mapped[str | None] = mapped_column(String(16), nullable=True)  # a quick phrase's key
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    # revision 0007: hidden by a moderator (shown to nobody, kept for the audit log)
    hidden: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class AccountRow(Base):
    """An account: ``key`` is the username as compared (case-folded), ``username`` as typed.

    Revision ``0006``: ``fold``, the username as it looks (:func:`sakura.server.names.fold`),
    unique, so no account passes for another; ``signup_mark``, the hashed address it was made
    from (sign-ups per address per day, :mod:`sakura.server.farm`)."""

    __tablename__ = "sakura_accounts"
    __table_args__ = (
        Index("ux_sakura_accounts_fold", "fold", unique=True),
        Index("ix_sakura_accounts_signup", "signup_mark", "created"),
    )

    key: Mapped[str] = mapped_column(String(48), primary_key=True)
    username: Mapped[str] = mapped_column(String(24))
    password_hash: Mapped[str] = mapped_column(String(200))  # argon2id, never the password
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    fold: Mapped[str | None] = mapped_column(String(64), nullable=True)  # None: made before 0006
    signup_mark: Mapped[str | None] = mapped_column(String(64), nullable=True)

    # revision 0007: "admin" (sakura admin grant), else None; when a moderator banned it
    role: Mapped[str | None] = mapped_column(String(16), nullable=True)
    banned: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class AccountMarkRow(Base):
    """An address or a device an account was used from, hashed, and when last (revision
    ``0006``): two accounts that share one within the window do not rate each other
    (:mod:`sakura.server.farm`)."""

    __tablename__ = "sakura_account_marks"
    __table_args__ = (Index("ix_sakura_account_marks_mark", "mark", "seen"),)

    account: Mapped[str] = mapped_column(ForeignKey("sakura_accounts.key"), primary_key=True)
    mark: Mapped[str] = mapped_column(String(64), primary_key=True)  # sha256 of "address:..."/"device:..."
    seen: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class SessionRow(Base):
    """A logged-in browser: the cookie's token, hashed."""

    __tablename__ = "sakura_sessions"
    __table_args__ = (Index("ix_sakura_sessions_account", "account"),)

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account: Mapped[str] = mapped_column(ForeignKey("sakura_accounts.key"))
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    expires: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class RatingRow(Base):
    """An account's rating in one class (``sakura-2-court``, ``sakura-2-tactical``,
    ``sakura-3-6``, ``sakura-cards``) and mode (``realtime``, ``turn``: revision 0010):
    openskill's mu and sigma, and the ordinal the leaderboard sorts by (mu - 3 sigma)."""

    __tablename__ = "sakura_ratings"
    __table_args__ = (Index("ix_sakura_ratings_board", "klass", "mode", "ordinal"),)

    account: Mapped[str] = mapped_column(ForeignKey("sakura_accounts.key"), primary_key=True)
    klass: Mapped[str] = mapped_column(String(24), primary_key=True)
    mode: Mapped[str] = mapped_column(String(8), primary_key=True, server_default="realtime")
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)


class RatedGameRow(Base):
    """A rated game whose ratings have been updated: its key makes the update happen once."""

    __tablename__ = "sakura_rated_games"

    table_id: Mapped[str] = mapped_column(ForeignKey("sakura_tables.id"), primary_key=True)
    klass: Mapped[str] = mapped_column(String(24))
    mode: Mapped[str] = mapped_column(String(8), server_default="realtime")
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class RatingHistoryRow(Base):
    """An account's rating after one rated game (the player page's plot)."""

    __tablename__ = "sakura_rating_history"
    __table_args__ = (Index("ix_sakura_rating_history_account", "account", "klass", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account: Mapped[str] = mapped_column(ForeignKey("sakura_accounts.key"))
    klass: Mapped[str] = mapped_column(String(24))
    mode: Mapped[str] = mapped_column(String(8), server_default="realtime")
    table_id: Mapped[str] = mapped_column(String(32))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    rank: Mapped[int] = mapped_column(Integer)
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class ArchiveRow(Base):
    """A finished game as the archive lists it."""

    __tablename__ = "sakura_archive"
    __table_args__ = (Index("ix_sakura_archive_finished", "finished", "table_id"),)

    table_id: Mapped[str] = mapped_column(ForeignKey("sakura_tables.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    klass: Mapped[str] = mapped_column(String(24))
    players: Mapped[int] = mapped_column(Integer)
    rated: Mapped[bool] = mapped_column(Boolean)
    finished: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    actions: Mapped[int] = mapped_column(Integer)
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)  # name, kind, level, account, score
    winners: Mapped[list[int]] = mapped_column(JSON)
    pace: Mapped[str | None] = mapped_column(String(8), nullable=True)  # turn-based (revision 0011)


class ArchivePlayerRow(Base):
    """One seat of an archived game, for the search by name and a player's list of games."""

    __tablename__ = "sakura_archive_players"
    __table_args__ = (
        Index("ix_sakura_archive_players_name", "name_key", "finished", "table_id"),
        Index("ix_sakura_archive_players_account", "account", "finished", "table_id"),
    )

    table_id: Mapped[str] = mapped_column(ForeignKey("sakura_archive.table_id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name_key: Mapped[str] = mapped_column(String(48))
    account: Mapped[str | None] = mapped_column(String(48), nullable=True)
    winner: Mapped[bool] = mapped_column(Boolean)
    finished: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
