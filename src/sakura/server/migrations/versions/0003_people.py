"""People around the games: rated tables and table options, chat, accounts and sessions,
ratings (and the rated games already counted), and the archive of finished games.

Only new tables and two new columns: a database of revision 0002 keeps every table and action
as it was. Finished games are added to the archive by the server (it replays them through
the engine), not here.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.add_column(
        "sakura_tables", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column("sakura_tables", sa.Column("options", sa.JSON(), nullable=True))
    op.create_table(
        "sakura_chat",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("sakura_tables.id"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(24), nullable=True),
        sa.Column("text", sa.String(300), nullable=True),
        sa.Column("phrase", sa.String(16), nullable=True),
        sa.Column("at", TZ, nullable=False),
    )
    op.create_index("ix_sakura_chat_table", "sakura_chat", ["table_id", "id"])
    op.create_table(
        "sakura_accounts",
        sa.Column("key", sa.String(48), primary_key=True),
        sa.Column("username", sa.String(24), nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created", TZ, nullable=False),
    )
    op.create_table(
        "sakura_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account", sa.String(48), sa.ForeignKey("sakura_accounts.key"), nullable=False),
        sa.Column("created", TZ, nullable=False),
        sa.Column("expires", TZ, nullable=False),
    )
    op.create_index("ix_sakura_sessions_account", "sakura_sessions", ["account"])
    op.create_table(
        "sakura_ratings",
        sa.Column("account", sa.String(48), sa.ForeignKey("sakura_accounts.key"), primary_key=True),
        sa.Column("klass", sa.String(24), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
    )
    op.create_index("ix_sakura_ratings_board", "sakura_ratings", ["klass", "ordinal"])
    op.create_table(
        "sakura_rated_games",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("sakura_tables.id"), primary_key=True),
        sa.Column("klass", sa.String(24), nullable=False),
        sa.Column("at", TZ, nullable=False),
    )
    op.create_table(
        "sakura_rating_history",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("account", sa.String(48), sa.ForeignKey("sakura_accounts.key"), nullable=False),
        sa.Column("klass", sa.String(24), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("at", TZ, nullable=False),
    )
    op.create_index("ix_sakura_rating_history_account", "sakura_rating_history", ["account", "klass", "id"])
    op.create_table(
        "sakura_archive",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("sakura_tables.id"), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("klass", sa.String(24), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("finished", TZ, nullable=False),
        sa.Column("actions", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("winners", sa.JSON(), nullable=False),
    )
    op.create_index("ix_sakura_archive_finished", "sakura_archive", ["finished", "table_id"])
    op.create_table(
        "sakura_archive_players",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("sakura_archive.table_id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("name_key", sa.String(48), nullable=False),
        sa.Column("account", sa.String(48), nullable=True),
        sa.Column("winner", sa.Boolean(), nullable=False),
        sa.Column("finished", TZ, nullable=False),
    )
    op.create_index(
        "ix_sakura_archive_players_name", "sakura_archive_players", ["name_key", "finished", "table_id"]
    )
    op.create_index(
        "ix_sakura_archive_players_account", "sakura_archive_players", ["account", "finished", "table_id"]
    )


def downgrade() -> None:
    for name in (
        "sakura_archive_players",
        "sakura_archive",
        "sakura_rating_history",
        "sakura_rated_games",
        "sakura_ratings",
        "sakura_sessions",
        "sakura_accounts",
        "sakura_chat",
    ):
        op.drop_table(name)
    with op.batch_alter_table("sakura_tables") as batch:
        batch.drop_column("options")
        batch.drop_column("rated")
