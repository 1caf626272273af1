"""``sakura db``: the database's schema revision, and upgrading it by hand (the server upgrades
on start-up too; by hand, a site upgrades once before it starts its processes)."""

from __future__ import annotations

from typing import Annotated, NoReturn

import typer

from sakura.cli.extras import require
from sakura.cli.serve import _default_database

db_app = typer.Typer(
    help="The database's schema: which revision it is at, and upgrading it.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)

DatabaseUrl = Annotated[
    str | None,
    typer.Option(
        help="SQLAlchemy URL, e.g. postgresql+psycopg://user@host/db "
        "(default: sakura serve's SQLite file in ~/.local/share/sakura)"
    ),
]


@db_app.command()
def current(database_url: DatabaseUrl = None) -> None:
    """Print the database's revision and whether it is the newest."""
    require("sakura db", "web")
    # the database's libraries load for this command only
    from sqlalchemy.exc import SQLAlchemyError

    from sakura.cli.database import DatabaseUrlError, cannot_open, open_engine
    from sakura.server import migrations

    url = database_url or _default_database()
    try:
        engine = open_engine(url)
    except DatabaseUrlError as exc:
        _fail(str(exc))
    try:
        revision = migrations.current(engine)
    except SQLAlchemyError as exc:
        _fail(cannot_open(url, exc))
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
    require("sakura db", "web")
    from sakura.cli.database import DatabaseUrlError, open_store
    from sakura.server import migrations

    try:
        store = open_store(database_url or _default_database())
    except DatabaseUrlError as exc:
        _fail(str(exc))
    try:
        typer.echo(f"at {migrations.current(store.engine)} (the newest)")
    finally:
        store.close()


def _fail(message: str) -> NoReturn:
    """A user's error: one line on stderr, exit code 2, the database as it was."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)
