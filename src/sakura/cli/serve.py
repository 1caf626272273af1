"""``sakura serve``: the web app on localhost, a SQLite file by default, browser opened."""

from __future__ import annotations

import os
import threading
import webbrowser
from pathlib import Path
from typing import Annotated

import typer


def _default_database() -> str:
    """A SQLite file in the user's data folder: nothing to install, games kept across runs."""
    base = Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share")) / "sakura"
    base.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{base / 'sakura.db'}"


def serve(
    host: Annotated[str, typer.Option(help="address to listen on (localhost by default)")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(help="SQLAlchemy URL, e.g. postgresql+psycopg://user@host/db "
                          "(default: a SQLite file in ~/.local/share/sakura)"),
    ] = None,
    open_browser: Annotated[
        bool, typer.Option("--open/--no-open", help="open the lobby in a browser")
    ] = True,
) -> None:
    """Play Sakura in the browser: create a table against bots, or invite friends by link."""
    import uvicorn

    from sakura.server import create_app

    url = database_url or _default_database()
    app = create_app(url)
    lobby = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    typer.echo(f"Sakura is served at {lobby} (Ctrl+C to stop)")
    if open_browser:
        threading.Timer(1.0, lambda: webbrowser.open(lobby)).start()
    uvicorn.run(app, host=host, port=port, log_level="warning")
