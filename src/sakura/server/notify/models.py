"""The database's rows for notifications (revision 0009): an account's choices, its browsers'
push subscriptions, and the ledger of what was sent, so that a decision is told once per seat
whatever restarts or failovers happen between its start and its end."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, String, false
from sqlalchemy.orm import Mapped, mapped_column

from sakura.server.models import Base


class NotifySettingsRow(Base):
    """An account's notification choices: e-mail off unless turned on with an address; the
    language its notifications are written in (the page's, when the settings were saved)."""

    __tablename__ = "sakura_notify_settings"

    account: Mapped[str] = mapped_column(ForeignKey("sakura_accounts.key"), primary_key=True)
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    email_on: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    language: Mapped[str] = mapped_column(String(8), default="en", server_default="en")


class PushSubscriptionRow(Base):
    """One browser's Web Push subscription (the Push API's endpoint and keys) for an account."""

    __tablename__ = "sakura_push_subscriptions"

    endpoint: Mapped[str] = mapped_column(String(1000), primary_key=True)
    account: Mapped[str] = mapped_column(ForeignKey("sakura_accounts.key"), index=True)
    p256dh: Mapped[str] = mapped_column(String(200))  # the browser's P-256 public key (base64url)
    auth: Mapped[str] = mapped_column(String(64))  # its authentication secret (base64url)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class NotifiedRow(Base):
    """A notification sent (or being sent): one per table, seat and decision (``round:kind``, as
    ``4:selection``, or ``end``). Its key refuses a second one."""

    __tablename__ = "sakura_notified"

    table_id: Mapped[str] = mapped_column(ForeignKey("sakura_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    decision: Mapped[str] = mapped_column(String(64), primary_key=True)
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
