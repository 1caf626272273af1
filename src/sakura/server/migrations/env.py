"""Alembic's environment: migrate the connection that :func:`sakura.server.migrations.config`
was given (the store's, or ``sakura db``'s). There is no ``alembic.ini``: the package configures
Alembic itself."""

from __future__ import annotations

from alembic import context

from sakura.server.db import Base


def main() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise SystemExit("migrate through sakura.server.migrations.upgrade(engine) or `sakura db upgrade`")
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",  # SQLite alters a table by copying it
    )
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):  # Alembic is running this script (not an import by pytest's doctests)
    main()
