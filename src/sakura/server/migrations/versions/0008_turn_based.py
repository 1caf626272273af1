"""Turn-based tables: the schedule of deadlines, one row per table whose move is due.

A turn-based table's pace and allowed timeouts are among its options (``sakura_tables.options``,
JSON); its deadline is here, with the decision it is for, so that a restart or another process
taking the table over goes on to the same second (:mod:`sakura.server.turns`).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sakura_deadlines",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("sakura_tables.id"), primary_key=True),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decision", sa.String(64), nullable=False),
    )
    op.create_index("ix_sakura_deadlines_due_at", "sakura_deadlines", ["due_at"])


def downgrade() -> None:
    op.drop_index("ix_sakura_deadlines_due_at", table_name="sakura_deadlines")
    op.drop_table("sakura_deadlines")
