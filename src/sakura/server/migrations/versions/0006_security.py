"""Security (issue 30): usernames unique as they look, sign-ups counted per address, and the
addresses and devices each account was used from (hashed), for the rating-farm rule.

``sakura_accounts.fold`` is filled here for the accounts made before: the first account of each
look-alike group keeps its fold, a later one keeps NULL (it stays usable; a new account may not
take a name like either). ``signup_mark`` stays NULL for them (their address was not kept).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    from sakura.server.lookalikes import fold

    with op.batch_alter_table("sakura_accounts") as batch:
        batch.add_column(sa.Column("fold", sa.String(64), nullable=True))
        batch.add_column(sa.Column("signup_mark", sa.String(64), nullable=True))
    accounts = sa.table(
        "sakura_accounts",
        sa.column("key", sa.String),
        sa.column("username", sa.String),
        sa.column("created", sa.DateTime),
        sa.column("fold", sa.String),
    )
    conn = op.get_bind()
    taken: set[str] = set()
    rows = conn.execute(sa.select(accounts.c.key, accounts.c.username).order_by(accounts.c.created)).all()
    for key, username in rows:
        folded = fold(username)
        if folded not in taken:
            taken.add(folded)
            conn.execute(sa.update(accounts).where(accounts.c.key == key).values(fold=folded))
    op.create_index("ux_sakura_accounts_fold", "sakura_accounts", ["fold"], unique=True)
    op.create_index("ix_sakura_accounts_signup", "sakura_accounts", ["signup_mark", "created"])
    op.create_table(
        "sakura_account_marks",
        sa.Column("account", sa.String(48), sa.ForeignKey("sakura_accounts.key"), primary_key=True),
        sa.Column("mark", sa.String(64), primary_key=True),
        sa.Column("seen", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_sakura_account_marks_mark", "sakura_account_marks", ["mark", "seen"])


def downgrade() -> None:
    op.drop_index("ix_sakura_account_marks_mark", "sakura_account_marks")
    op.drop_table("sakura_account_marks")
    op.drop_index("ix_sakura_accounts_signup", "sakura_accounts")
    op.drop_index("ux_sakura_accounts_fold", "sakura_accounts")
    with op.batch_alter_table("sakura_accounts") as batch:
        batch.drop_column("signup_mark")
        batch.drop_column("fold")
