"""Where ``sakura serve`` and ``sakura db`` keep the games, and why a database cannot be used,
in one line.

SQLAlchemy and the drivers answer a bad ``--database-url`` with tracebacks dozens of lines long
(``ArgumentError``, ``NoSuchModuleError``, an ``ImportError`` of a driver, a psycopg
``OperationalError`` with a hint on a second line and a link on a third). The commands turn each
into a :class:`DatabaseUrlError` whose message is one line that says what is wrong and what to
write instead; the command prints it and exits 2. :func:`check_url` asks nothing of the network
and creates nothing, so the server can refuse a bad URL before it takes its port; opening the
database (:func:`open_store`, :func:`open_engine`) comes after.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sqlalchemy.engine import URL, Engine

    from sakura.server.db import Store

EXAMPLES = "sqlite:////path/to/sakura.db or postgresql+psycopg://user@host/dbname"


class DatabaseUrlError(Exception):
    """A database that cannot be used, said in one line (the command prints it and exits 2)."""


def default_path() -> Path:
    """The SQLite file in the user's data folder: nothing to install, games kept across runs."""
    base = Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share"))
    return base / "sakura" / "sakura.db"


def default_url() -> str:
    return f"sqlite:///{default_path()}"


def where(url: str) -> str:
    """Where the games are kept, for a person: the SQLite file's path, or the URL without its
    password.

    >>> where("postgresql+psycopg://sakura:secret@db.internal/sakura")
    'postgresql+psycopg://sakura:***@db.internal/sakura'
    """
    parsed = _parse(url)
    if parsed.get_backend_name() == "sqlite":
        name = parsed.database
        return (
            "memory (gone when the server stops)"
            if name in (None, "", ":memory:")
            else f"the SQLite file {Path(name).absolute()}"
        )
    return parsed.render_as_string(hide_password=True)


def check_url(url: str) -> None:
    """Refuse a URL that cannot work, without connecting or creating anything: one that does
    not parse, names no database SQLAlchemy knows, needs a driver that is not installed, or
    puts a SQLite file in a folder that does not exist (the default folder excepted: it is
    made when the database opens)."""
    parsed = _parse(url)
    from sqlalchemy.exc import NoSuchModuleError

    try:
        parsed.get_dialect().import_dbapi()
    except NoSuchModuleError:
        kind = parsed.drivername
        hint = " (PostgreSQL is postgresql+psycopg://...)" if kind.split("+")[0] == "postgres" else ""
        raise DatabaseUrlError(
            f"--database-url names an unknown kind of database {kind!r}{hint}: write one like {EXAMPLES}"
        ) from None
    except ImportError as exc:
        raise DatabaseUrlError(
            f"the driver for {parsed.drivername} databases is not installed ({exc}): "
            "install it, or use sqlite:///FILE or postgresql+psycopg://"
        ) from None
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        folder = Path(parsed.database).absolute().parent
        if not folder.is_dir() and url != default_url():
            raise DatabaseUrlError(
                f"the folder {folder} of the SQLite file does not exist: "
                "create it, or choose another --database-url"
            )


def open_store(url: str) -> Store:
    """The server's store on ``url``, its schema upgraded to the newest revision (the SQLite
    file and the default folder are created here when missing)."""
    from alembic.util import CommandError
    from sqlalchemy.exc import SQLAlchemyError

    from sakura.server.db import Store

    check_url(url)
    _make_default_folder(url)
    try:
        return Store(url)
    except (SQLAlchemyError, CommandError) as exc:
        raise DatabaseUrlError(cannot_open(url, exc)) from None


def open_engine(url: str) -> Engine:
    """An engine on ``url`` for reading the schema's revision, once the URL passed
    :func:`check_url`."""
    from sqlalchemy import create_engine

    check_url(url)
    _make_default_folder(url)
    return create_engine(url, hide_parameters=True)


def cannot_open(url: str, exc: BaseException) -> str:
    """One line: which database, and the first line of what its driver said (not SQLAlchemy's
    wrapping, its link to the documentation or the driver's hint on the next line)."""
    reason = getattr(exc, "orig", None) or exc
    first = (
        " ".join(str(reason).strip().splitlines()[0].split())
        if str(reason).strip()
        else type(reason).__name__
    )
    if "does not exist" in first and "database" in first:
        first += " (create it first, e.g. with createdb)"
    return f"cannot open the database {where(url)}: {first}"


def _parse(url: str) -> URL:
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url)
    except ArgumentError:
        raise DatabaseUrlError(
            f"--database-url {url!r} is not a database URL: write one like {EXAMPLES}"
        ) from None


def _make_default_folder(url: str) -> None:
    if url == default_url():
        default_path().parent.mkdir(parents=True, exist_ok=True)
