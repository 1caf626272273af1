"""The optional extras a command needs, and the one line it prints when one is missing.

``pip install sakura`` is the core (the engine, the bots, records, and the commands simulate,
replay, show and tournament); the web app, the terminal app, the designer's reports and Ray
come with extras (``pyproject.toml``). A command whose extra is not installed says so in one
line and exits 2, instead of a traceback from deep inside an import.
"""

from __future__ import annotations

import importlib.util

import typer

# The modules each extra brings that its commands import (import names, not distributions).
# Ray (the cluster extra) says so itself (sakura.tournament.on_ray), and sakura.rl too.
EXTRAS: dict[str, tuple[str, ...]] = {
    "web": (
        "fastapi",
        "uvicorn",
        "sqlalchemy",
        "alembic",
        "argon2",
        "orjson",
        "websockets",
        "prometheus_client",
    ),
    "tui": ("textual", "babel", "bidi", "arabic_reshaper", "httpx", "websockets"),
    "lab": ("matplotlib",),
}


def missing(extra: str) -> list[str]:
    """The modules of ``extra`` that cannot be imported here."""
    return [name for name in EXTRAS[extra] if not _found(name)]


def _found(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # a finder that refuses it; a module without a spec
        return False


def missing_message(command: str, extra: str) -> str:
    """What ``command`` prints when ``extra`` is missing.

    >>> missing_message("sakura serve", "web")
    "sakura serve needs the web extra: pip install 'sakura[web]'"
    """
    return f"{command} needs the {extra} extra: pip install 'sakura[{extra}]'"


def require(command: str, extra: str) -> None:
    """Go on if ``extra`` is installed; else print one line (plain text: the brackets of
    ``sakura[web]`` are not markup) and exit 2."""
    if missing(extra):
        typer.echo(missing_message(command, extra), err=True)
        raise typer.Exit(2)
