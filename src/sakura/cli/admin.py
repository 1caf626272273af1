"""``sakura admin``: the moderators of a site, granted and revoked from the command line.

Whoever can run this holds the database already, so no password is asked: the role goes to an
existing account (made by signing up on the site), and the audit log says it was the command
line (:mod:`sakura.server.moderation`). The moderator then uses the site's ``/admin`` page.
"""

from __future__ import annotations

from typing import Annotated

import typer

from sakura.cli.db import DatabaseUrl, _fail
from sakura.cli.extras import require
from sakura.cli.serve import _default_database

admin_app = typer.Typer(
    help="The site's moderators: grant or revoke the admin role of an account.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)

Username = Annotated[str, typer.Argument(help="the account's username (any case)")]


@admin_app.command()
def grant(username: Username, database_url: DatabaseUrl = None) -> None:
    """Make an account a moderator (it may use the /admin page)."""
    _set(username, "admin", database_url)


@admin_app.command()
def revoke(username: Username, database_url: DatabaseUrl = None) -> None:
    """Take the admin role back."""
    _set(username, None, database_url)


def _set(username: str, role: str | None, database_url: str | None) -> None:
    require("sakura admin", "web")
    from sakura.cli.database import DatabaseUrlError, open_store
    from sakura.server import moderation

    try:
        store = open_store(database_url or _default_database())
    except DatabaseUrlError as exc:
        _fail(str(exc))
    try:
        found = moderation.set_role(store, username, role)
    finally:
        store.close()
    if found is None:
        _fail(f"there is no account named {username!r} (sign up on the site first)")
    typer.echo(f"{found} is {'an admin' if role else 'no longer an admin'}")
