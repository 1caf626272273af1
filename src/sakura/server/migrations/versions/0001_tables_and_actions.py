"""Tables and their actions: the schema before the card game (no ``game`` column).

A database made before migrations may already hold some of these tables (made by
``create_all``): only the missing ones are made.

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    existing = set(sa.inspect(op.get_bind()).get_table_names())
    if "sakura_tables" not in existing:
        op.create_table(
            "sakura_tables",
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("config", sa.JSON(), nullable=False),
            sa.Column("seed", sa.BigInteger(), nullable=False),
            sa.Column("seats", sa.JSON(), nullable=False),
            sa.Column("timer", sa.Float(), nullable=True),
            sa.Column("status", sa.String(16), nullable=False),
            sa.Column("rematch", sa.String(32), nullable=True),
            sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        )
    if "sakura_actions" not in existing:
        op.create_table(
            "sakura_actions",
            sa.Column("table_id", sa.String(32), sa.ForeignKey("sakura_tables.id"), primary_key=True),
            sa.Column("seq", sa.Integer(), primary_key=True),
            sa.Column("seat", sa.Integer(), nullable=False),
            sa.Column("action", sa.String(64), nullable=False),
            sa.Column("by", sa.String(16), nullable=False),
            sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        )


def downgrade() -> None:
    op.drop_table("sakura_actions")
    op.drop_table("sakura_tables")
