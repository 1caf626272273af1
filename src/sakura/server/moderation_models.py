"""The moderation's rows (revision ``0007``): players' reports of chat messages, and the audit
log of every moderator's action (and of the admin role granted or revoked by the command line).

The banned flag and the role are columns of the account (:class:`~.people_models.AccountRow`),
the hidden mark one of the chat message (:class:`~.people_models.ChatRow`): a hidden message is
kept, so the audit log and a report can still show what was said.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import DateTime, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from sakura.server.models import Base


class ReportRow(Base):
    """A player's report of one chat message, with a copy of what was said: a table keeps only
    its newest messages (the chat's bound), and a report outlives the message it is about.
    ``handled``: when a moderator dealt with it."""

    __tablename__ = "sakura_reports"
    __table_args__ = (Index("ix_sakura_reports_open", "handled", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    chat_id: Mapped[int] = mapped_column(Integer)  # the message's id (no foreign key: see above)
    table_id: Mapped[str] = mapped_column(String(32))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str | None] = mapped_column(String(24), nullable=True)
    text: Mapped[str | None] = mapped_column(String(300), nullable=True)
    phrase: Mapped[str | None] = mapped_column(String(16), nullable=True)
    reporter: Mapped[str | None] = mapped_column(String(48), nullable=True)  # an account, or None
    reason: Mapped[str | None] = mapped_column(String(200), nullable=True)
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    handled: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class AuditRow(Base):
    """One moderator's action: who (an account, or ``(command line)``), what, on what, when."""

    __tablename__ = "sakura_audit"
    __table_args__ = (Index("ix_sakura_audit_at", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    actor: Mapped[str] = mapped_column(String(48))
    action: Mapped[str] = mapped_column(String(24))  # ban, unban, hide, close, grant, revoke, delete
    target: Mapped[str] = mapped_column(String(64))  # an account, a table, a message (table:id)
    detail: Mapped[str | None] = mapped_column(String(300), nullable=True)
