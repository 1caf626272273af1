"""A table names its game (the card game came): every table before it is Sakura's.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("sakura_tables", sa.Column("game", sa.String(32), nullable=False, server_default="sakura"))


def downgrade() -> None:
    with op.batch_alter_table("sakura_tables") as batch:
        batch.drop_column("game")
