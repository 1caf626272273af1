"""Post-game analyses: one row a finished table and seat (the analysis as JSON).

Revision ID: 0004
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("sakura_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("spec", sa.String(64), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("analyses")
