"""Notifications (issue 35): an account's choices (e-mail and its address, the language), its
browsers' Web Push subscriptions, and the ledger of notifications sent (one per table, seat and
decision), :mod:`sakura.server.notify`.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sakura_notify_settings",
        sa.Column("account", sa.String(48), sa.ForeignKey("sakura_accounts.key"), primary_key=True),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("email_on", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("language", sa.String(8), nullable=False, server_default="en"),
    )
    op.create_table(
        "sakura_push_subscriptions",
        sa.Column("endpoint", sa.String(1000), primary_key=True),
        sa.Column("account", sa.String(48), sa.ForeignKey("sakura_accounts.key"), nullable=False),
        sa.Column("p256dh", sa.String(200), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_sakura_push_subscriptions_account", "sakura_push_subscriptions", ["account"])
    op.create_table(
        "sakura_notified",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("sakura_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("decision", sa.String(64), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("sakura_notified")
    op.drop_index("ix_sakura_push_subscriptions_account", table_name="sakura_push_subscriptions")
    op.drop_table("sakura_push_subscriptions")
    op.drop_table("sakura_notify_settings")
