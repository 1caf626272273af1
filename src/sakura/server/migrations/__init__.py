"""The database's schema, versioned with Alembic: every change to the models in
:mod:`sakura.server.db` is a revision in ``versions/``, and the store upgrades a database to the
newest one when it starts (SQLite and PostgreSQL alike).

Alembic is configured here, from the store's engine, so no ``alembic.ini`` is needed on disk:
the scripts ship inside the package. Each upgrade runs on one connection in one transaction
(DDL is transactional on PostgreSQL and SQLite: a failed upgrade leaves the schema as it
was), holding an advisory lock on PostgreSQL (SQLite's write lock) so that server processes
starting together upgrade one at a time. On PostgreSQL the tables and Alembic's
``alembic_version`` go into the connection's current schema (the first of its
``search_path``).

A database made before migrations (by ``create_all``; no ``alembic_version`` table) is
recognised by its columns: one with the ``game`` column is at revision ``0002`` and is stamped
so; one without it (before the card game) is left unstamped, revision ``0001`` making only
the tables it lacks (the old code's ``create_all`` made whatever was missing) and ``0002``
adding the column. Then it is upgraded like any other.

A new column or table: change the model, then write a revision: a new script in ``versions/``
like the newest one (``script.py.mako`` is the template), its ``down_revision`` the newest's
``revision``. ``tests/server/test_migrations.py`` fails while the models and the newest
revision disagree.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, inspect, text

HERE = Path(__file__).parent
TABLES = "sakura_tables"
WITH_GAME = "0002"  # the schema the code made by hand before migrations
LOCK_KEY = 0x5A4B5552  # PostgreSQL advisory lock: one upgrade at a time per database


def config(connection: Connection | None = None) -> Config:
    """Alembic's configuration for this package's scripts; ``connection``: the one to migrate."""
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    """The newest revision."""
    revision = ScriptDirectory.from_config(config()).get_current_head()
    assert revision is not None
    return revision


def current(engine: Engine) -> str | None:
    """The database's revision: None for an empty database or one made before migrations."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database to ``revision`` (the newest by default), stamping a database made
    before migrations first."""
    with engine.connect() as conn:
        sqlite = conn.dialect.name == "sqlite"
        # Serving timeouts are for serving: a migration may wait for a lock (another process
        # upgrading) and take time. SQLite's busy timeout belongs to the pooled connection, so
        # it is put back afterwards; PostgreSQL's SET LOCAL ends with the transaction.
        busy = conn.exec_driver_sql("PRAGMA busy_timeout").scalar() if sqlite else None
        if sqlite:
            conn.exec_driver_sql("PRAGMA busy_timeout = 60000")
            conn.commit()  # end the statements' autobegun transaction: the upgrade opens its own
        try:
            with conn.begin():
                if conn.dialect.name == "postgresql":
                    conn.execute(text("SET LOCAL lock_timeout = '60s'"))
                    conn.execute(text("SET LOCAL statement_timeout = 0"))
                    conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
                elif sqlite:
                    conn.exec_driver_sql("BEGIN IMMEDIATE")  # the write lock first: one upgrade at a time
                cfg = config(conn)
                legacy = _legacy_revision(conn)
                if legacy is not None:
                    command.stamp(cfg, legacy)
                command.upgrade(cfg, revision)
        finally:
            if sqlite:
                conn.exec_driver_sql(f"PRAGMA busy_timeout = {int(busy or 0)}")
                conn.commit()


def _legacy_revision(conn: Connection) -> str | None:
    """The revision to stamp a database made before migrations with, or None: nothing to stamp
    (an empty database, one with a version table, or one from before the card game, which
    revision ``0001`` completes)."""
    inspector = inspect(conn)
    if MigrationContext.configure(conn).get_current_revision() is not None:
        return None
    if not inspector.has_table(TABLES):
        return None
    columns = {c["name"] for c in inspector.get_columns(TABLES)}
    return WITH_GAME if "game" in columns else None
