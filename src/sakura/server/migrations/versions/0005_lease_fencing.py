"""Fencing for many server processes: a table's lease number, and the lease each action was
written under (``sakura serve --redis-url``, :mod:`sakura.server.cluster`).

A process that takes a table's lease in Redis first raises ``sakura_tables.lease`` here; an
action written under an older lease number is refused (a stale owner, paused past its lease,
cannot write). One process without Redis leaves both columns empty, as before.

Revision ID: 0005
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("sakura_tables", sa.Column("lease", sa.BigInteger(), nullable=True))
    op.add_column("sakura_actions", sa.Column("lease", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("sakura_actions") as batch:
        batch.drop_column("lease")
    with op.batch_alter_table("sakura_tables") as batch:
        batch.drop_column("lease")
