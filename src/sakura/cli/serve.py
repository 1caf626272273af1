"""``sakura serve``: the web app on localhost, a SQLite file by default, browser opened."""

from __future__ import annotations

import os
import threading
import webbrowser
from pathlib import Path
from typing import Annotated

import typer

from sakura.cli.extras import require


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
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(help="a host name clients reach this server by (repeat it; '*' for any). "
                          "Default: the loopback names, and --host when it names one address"),
    ] = None,
    max_tables: Annotated[int, typer.Option(help="unfinished tables this process holds at most")] = 1000,
    proxy_headers: Annotated[
        bool, typer.Option(help="trust X-Forwarded-For from 127.0.0.1 (behind a reverse proxy)")
    ] = False,
    redis_url: Annotated[str | None, typer.Option(
        help="redis://HOST:6379/0: one of many processes serving the same site (docs/deploy.md)")] = None,
    redis_prefix: Annotated[str, typer.Option(help="the prefix of this site's Redis keys")] = "sakura:",
    workers: Annotated[int, typer.Option(min=1, help="processes on this machine sharing the port "
                                                     "(more than 1 needs --redis-url)")] = 1,
) -> None:
    """Play Sakura in the browser: create a table against bots, or invite friends by link."""
    require("sakura serve", "web")
    import uvicorn

    from sakura.server import create_app
    from sakura.server.limits import Limits
    from sakura.server.serving import config

    url = database_url or _default_database()
    hosts = tuple(allowed_host or allowed_hosts_for(host))
    limits = Limits(allowed_hosts=hosts, live_tables=max_tables)
    if workers > 1 and redis_url is None:
        typer.echo("error: --workers above 1 needs --redis-url (the processes share tables through Redis)",
                   err=True)
        raise typer.Exit(2)
    lobby = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    typer.echo(f"Sakura is served at {lobby} (Ctrl+C to stop)")
    if "*" in hosts:
        typer.echo("Any host name is accepted (--allowed-host '*'): "
                   "put the server behind a proxy that checks it.")
    if open_browser:
        threading.Timer(1.0, lambda: webbrowser.open(lobby)).start()
    if workers > 1:
        from sakura.server.cluster.workers import run_workers

        run_workers(workers, host=host, port=port, limits=limits, database_url=url, redis_url=redis_url,
                    redis_prefix=redis_prefix, proxy_headers=proxy_headers)
        return
    app = create_app(url, limits, redis_url=redis_url, redis_prefix=redis_prefix)
    uvicorn.Server(config(app, host=host, port=port, limits=limits, proxy_headers=proxy_headers)).run()


def allowed_hosts_for(host: str) -> list[str]:
    """The names a server bound to ``host`` answers to by default: loopback always (so a page
    elsewhere cannot reach a localhost server by DNS rebinding), and ``host`` itself when it is
    one address or name; bound to every address, any name (say which with --allowed-host).

    >>> allowed_hosts_for("127.0.0.1")
    ['127.0.0.1', 'localhost', '::1']
    >>> allowed_hosts_for("0.0.0.0")
    ['*']
    """
    from sakura.server.limits import LOOPBACK_HOSTS

    if host in ("0.0.0.0", "::", ""):
        return ["*"]
    names = [h for h in LOOPBACK_HOSTS if not h.startswith("[")]
    return names if host in names else [*names, host]
