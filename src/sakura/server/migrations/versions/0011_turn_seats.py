"""Turn-based games per person, and the archive's pace.

``sakura_turn_seats``: a seat taken at a turn-based table, with its account or, for an
anonymous player, the client address's mark, so that a person's unfinished turn-based games
are counted from the database, across restarts and processes (``Limits.turn_games_per_account``,
``turn_games_per_address``). ``sakura_archive.pace``: a finished turn-based game's pace (``1d``,
...; null for a real-time game), shown and filtered by the archive.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sakura_turn_seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("sakura_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("account", sa.String(48), nullable=True),
        sa.Column("address", sa.String(64), nullable=True),
    )
    op.create_index("ix_sakura_turn_seats_account", "sakura_turn_seats", ["account"])
    op.create_index("ix_sakura_turn_seats_address", "sakura_turn_seats", ["address"])
    op.add_column("sakura_archive", sa.Column("pace", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("sakura_archive") as batch:
        batch.drop_column("pace")
    op.drop_index("ix_sakura_turn_seats_address", table_name="sakura_turn_seats")
    op.drop_index("ix_sakura_turn_seats_account", table_name="sakura_turn_seats")
    op.drop_table("sakura_turn_seats")
