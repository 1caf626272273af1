"""Ratings by pace: a rated turn-based game rates in a class of its own.

A rating's class was its game's (``sakura-3-6``, ...); it is now that and its ``mode``:
``realtime`` (every rating so far) or ``turn`` (turn-based tables, ``docs/turn-based.md``).
``sakura_ratings`` gets ``mode`` in its key (the table is copied: SQLite cannot change a key
in place), and the rated games and the history say which mode they rated.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

REALTIME = sa.text("'realtime'")
COLUMNS = "account, klass, mu, sigma, ordinal, games, wins"


def _ratings(name: str, *, mode: bool) -> None:
    op.create_table(
        name,
        sa.Column("account", sa.String(48), sa.ForeignKey("sakura_accounts.key"), primary_key=True),
        sa.Column("klass", sa.String(24), primary_key=True),
        *([sa.Column("mode", sa.String(8), primary_key=True, server_default=REALTIME)] if mode else []),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
    )


def _swap(new: str, *, mode: bool, index: list[str]) -> None:
    """Copy ``sakura_ratings`` into ``new`` (made by :func:`_ratings`) and put it in its place."""
    _ratings(new, mode=mode)
    op.execute(f"INSERT INTO {new} ({COLUMNS}) SELECT {COLUMNS} FROM sakura_ratings")
    op.drop_index("ix_sakura_ratings_board", table_name="sakura_ratings")
    op.drop_table("sakura_ratings")
    op.rename_table(new, "sakura_ratings")
    op.create_index("ix_sakura_ratings_board", "sakura_ratings", index)


def upgrade() -> None:
    _swap("sakura_ratings_0010", mode=True, index=["klass", "mode", "ordinal"])
    for table in ("sakura_rated_games", "sakura_rating_history"):
        op.add_column(table, sa.Column("mode", sa.String(8), nullable=False, server_default=REALTIME))


def downgrade() -> None:
    for table in ("sakura_rated_games", "sakura_rating_history"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("mode")
    op.execute("DELETE FROM sakura_ratings WHERE mode <> 'realtime'")
    _swap("sakura_ratings_0003", mode=False, index=["klass", "ordinal"])
