"""Moderation: the admin role and bans on accounts, hidden chat messages, players' reports, and
the audit log of every moderator's action (``docs/operations.md``).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("sakura_accounts", sa.Column("role", sa.String(16), nullable=True))
    op.add_column("sakura_accounts", sa.Column("banned", sa.DateTime(timezone=True), nullable=True))
    op.add_column("sakura_chat", sa.Column("hidden", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "sakura_reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("chat_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(24), nullable=True),
        sa.Column("text", sa.String(300), nullable=True),
        sa.Column("phrase", sa.String(16), nullable=True),
        sa.Column("reporter", sa.String(48), nullable=True),
        sa.Column("reason", sa.String(200), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("handled", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_sakura_reports_open", "sakura_reports", ["handled", "id"])
    op.create_table(
        "sakura_audit",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(48), nullable=False),
        sa.Column("action", sa.String(24), nullable=False),
        sa.Column("target", sa.String(64), nullable=False),
        sa.Column("detail", sa.String(300), nullable=True),
    )
    op.create_index("ix_sakura_audit_at", "sakura_audit", ["at"])


def downgrade() -> None:
    op.drop_index("ix_sakura_audit_at", table_name="sakura_audit")
    op.drop_table("sakura_audit")
    op.drop_index("ix_sakura_reports_open", table_name="sakura_reports")
    op.drop_table("sakura_reports")
    with op.batch_alter_table("sakura_chat") as batch:
        batch.drop_column("hidden")
    with op.batch_alter_table("sakura_accounts") as batch:
        batch.drop_column("banned")
        batch.drop_column("role")
