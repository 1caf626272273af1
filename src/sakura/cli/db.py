"""``sakura db``: the database's schema revision, and upgrading it by hand (the server upgrades
on start-up too; by hand, a site upgrades once before it starts its processes)."""

from __future__ import annotations

from typing import Annotated, NoReturn

import typer

from sakura.cli.serve import _default_database

db_app = typer.Typer(help="The database's schema: which revision it is at, and upgrading it.",
                     no_args_is_help=True, add_completion=False, rich_markup_mode=None)

DatabaseUrl = Annotated[str | None, typer.Option(
    help="SQLAlchemy URL, e.g. postgresql+psycopg://user@host/db "
         "(default: sakura serve's SQLite file in ~/.local/share/sakura)")]


@db_app.command()
def current(database_url: DatabaseUrl = None) -> None:
    """Print the database's revision and whether it is the newest."""
    from sqlalchemy import create_engine  # the database's libraries load for this command only
    from sqlalchemy.exc import SQLAlchemyError

    from sakura.server import migrations

    engine = create_engine(database_url or _default_database(), hide_parameters=True)
    try:
        revision = migrations.current(engine)
    except SQLAlchemyError as exc:
        _fail(exc)
    finally:
        engine.dispose()
    head = migrations.head()
    if revision is None:
        typer.echo(f"no revision (an empty database, or one made before migrations); newest: {head}")
    elif revision == head:
        typer.echo(f"{revision} (the newest)")
    else:
        typer.echo(f"{revision}; newest: {head} (sakura db upgrade)")


@db_app.command()
def upgrade(database_url: DatabaseUrl = None) -> None:
    """Upgrade the database to the newest revision, as the server does when it starts."""
    from alembic.util import CommandError
    from sqlalchemy.exc import SQLAlchemyError

    from sakura.server import migrations
    from sakura.server.db import Store

    try:
        store = Store(database_url or _default_database())
    except (SQLAlchemyError, CommandError) as exc:
        _fail(exc)
    try:
        typer.echo(f"at {migrations.current(store.engine)} (the newest)")
    finally:
        store.close()


def _fail(exc: Exception) -> NoReturn:
    first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    typer.echo(f"error: {first}", err=True)
    raise typer.Exit(1)
