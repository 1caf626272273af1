"""``sakura serve``: the web app on localhost, a SQLite file by default, browser opened."""

from __future__ import annotations

import errno
import threading
import webbrowser
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from sakura.cli.extras import require


def _default_database() -> str:
    """``sakura serve``'s database when none is named: a SQLite file in the user's data folder
    (see :mod:`sakura.cli.database`; its folder is made when the database opens)."""
    from sakura.cli.database import default_url

    return default_url()


def serve(
    host: Annotated[str, typer.Option(help="address to listen on (localhost by default)")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(
            help="SQLAlchemy URL, e.g. postgresql+psycopg://user@host/db "
            "(default: a SQLite file in ~/.local/share/sakura)"
        ),
    ] = None,
    open_browser: Annotated[
        bool, typer.Option("--open/--no-open", help="open the lobby in a browser")
    ] = True,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(
            help="a host name clients reach this server by (repeat it; '*' for any). "
            "Default: the loopback names, and --host when it names one address"
        ),
    ] = None,
    max_tables: Annotated[int, typer.Option(help="unfinished tables this process holds at most")] = 1000,
    turn_games_per_account: Annotated[
        int, typer.Option(min=1, help="turn-based games in progress one account may play at once")
    ] = 50,
    turn_games_per_address: Annotated[
        int,
        typer.Option(
            min=1, help="turn-based games in progress players not logged in may play from one address"
        ),
    ] = 20,
    proxy_headers: Annotated[
        bool, typer.Option(help="trust X-Forwarded-For from 127.0.0.1 (behind a reverse proxy)")
    ] = False,
    redis_url: Annotated[
        str | None,
        typer.Option(
            help="redis://HOST:6379/0: one of many processes serving the same site (docs/deploy.md)"
        ),
    ] = None,
    redis_prefix: Annotated[str, typer.Option(help="the prefix of this site's Redis keys")] = "sakura:",
    metrics_port: Annotated[
        int | None,
        typer.Option(help="serve Prometheus metrics at /metrics on this admin port (off by default)"),
    ] = None,
    metrics_host: Annotated[
        str, typer.Option(help="the address the metrics port listens on (keep it private)")
    ] = "127.0.0.1",
    log_format: Annotated[
        str, typer.Option(help="text, or json: one JSON object a line (docs/operations.md)")
    ] = "text",
    workers: Annotated[
        int,
        typer.Option(
            min=1, help="processes on this machine sharing the port (more than 1 needs --redis-url)"
        ),
    ] = 1,
    site_url: Annotated[
        str | None,
        typer.Option(
            envvar="SAKURA_SITE_URL",
            help="the address players reach the site by, for the links in notifications "
            "(default: the address served)",
        ),
    ] = None,
    smtp_url: Annotated[
        str | None,
        typer.Option(
            envvar="SAKURA_SMTP_URL",
            help="smtp://user:password@host:587 (or smtps://...:465): e-mail notifications (off without it)",
        ),
    ] = None,
    mail_from: Annotated[
        str | None,
        typer.Option(envvar="SAKURA_MAIL_FROM", help="the sender of notification e-mails (with --smtp-url)"),
    ] = None,
    vapid_private_key: Annotated[
        Path | None,
        typer.Option(
            envvar="SAKURA_VAPID_PRIVATE_KEY",
            help="Web Push's VAPID key (PEM, EC P-256); default: one made once in the data folder",
            dir_okay=False,
        ),
    ] = None,
    vapid_subject: Annotated[
        str | None,
        typer.Option(
            envvar="SAKURA_VAPID_SUBJECT",
            help="the contact push services see: mailto:... or https://... (default: mailto: --mail-from)",
        ),
    ] = None,
) -> None:
    """Play Sakura in the browser: create a table against bots, or invite friends by link."""
    require("sakura serve", "web")

    from sakura.cli.database import DatabaseUrlError, check_url, open_store, where
    from sakura.server import create_app
    from sakura.server.limits import Limits
    from sakura.server.logs import config as log_config
    from sakura.server.serving import config, listen, server

    url = database_url or _default_database()
    hosts = tuple(allowed_host or allowed_hosts_for(host))
    limits = Limits(
        allowed_hosts=hosts,
        live_tables=max_tables,
        turn_games_per_account=turn_games_per_account,
        turn_games_per_address=turn_games_per_address,
    )
    if workers > 1 and redis_url is None:
        _fail("--workers above 1 needs --redis-url (the processes share tables through Redis)")
    if log_format not in ("text", "json"):
        _fail(f"--log-format is text or json, not {log_format!r}")
    if workers > 1 and metrics_port is not None:
        _fail("--metrics-port serves one process's metrics: run one process per port instead of --workers")
    try:
        check_url(url)  # a URL that cannot work is refused before the port is taken
    except DatabaseUrlError as exc:
        _fail(str(exc))
    # The port first: only once it is ours is the address said, the browser opened and the
    # database created (a second server on a taken port changes nothing and opens nothing).
    try:
        sockets = listen(host, port)
    except OSError as exc:
        _fail(f"cannot listen on {host}:{port}: {_reason(exc)}")
    try:
        open_store(url).close()  # the schema upgraded once here; a database that cannot open is said now
    except DatabaseUrlError as exc:
        for sock in sockets:
            sock.close()
        _fail(str(exc))
    bound = sockets[0].getsockname()[1]  # --port 0: the port the system chose
    lobby = f"http://{_browsable(host)}:{bound}/"
    notify = {
        "site_url": site_url or lobby,
        "data_dir": _data_folder(),
        "smtp_url": smtp_url,
        "mail_from": mail_from,
        "vapid_private_key": vapid_private_key,
        "vapid_subject": vapid_subject,
    }
    notifier = _notifier(notify, sockets)
    typer.echo(f"Sakura is served at {lobby} (Ctrl+C to stop)")
    typer.echo(f"Games are kept in {where(url)} (another database: --database-url)")
    mail = "on" if notifier.mailer is not None else "off (--smtp-url, --mail-from)"
    typer.echo(f"Notifications: Web Push on, e-mail {mail}; links to {notify['site_url']}")
    if metrics_port is not None:
        typer.echo(f"Metrics are served at http://{_browsable(metrics_host)}:{metrics_port}/metrics")
    if "*" in hosts:
        typer.echo(
            "Any host name is accepted (--allowed-host '*'): put the server behind a proxy that checks it."
        )
    if open_browser:
        threading.Timer(1.0, lambda: webbrowser.open(lobby)).start()
    if workers > 1:
        from sakura.server.cluster.workers import run_workers

        run_workers(
            workers,
            host=host,
            port=bound,
            sockets=sockets,
            limits=limits,
            database_url=url,
            redis_url=redis_url,
            redis_prefix=redis_prefix,
            proxy_headers=proxy_headers,
            log_format=log_format,
            notify=notify,
        )
        return
    metrics_at = None if metrics_port is None else (metrics_host, metrics_port)
    app = create_app(
        url, limits, redis_url=redis_url, redis_prefix=redis_prefix, metrics_at=metrics_at, notifier=notifier
    )
    logs = log_config(log_format)
    server(
        config(app, host=host, port=bound, limits=limits, proxy_headers=proxy_headers, log_config=logs),
        limits,
    ).run(sockets=sockets)


def _notifier(notify: dict[str, Any], sockets: list[Any]) -> Any:
    """The notifier of ``notify``'s options, its keys made here once (before any worker process
    reads them); a wrong option: said, the sockets closed, exit 2."""
    from sakura.server.notify.config import notifier_from

    try:
        return notifier_from(**notify)
    except ValueError as exc:
        for sock in sockets:
            sock.close()
        _fail(str(exc))


def _data_folder() -> Path:
    """Where the server keeps what it makes once (the VAPID key, the unsubscribe links' secret):
    the folder of the default database, whatever the database."""
    from sakura.cli.database import default_path

    return default_path().parent


def _fail(message: str) -> NoReturn:
    """A user's error: one line on stderr, exit code 2; nothing served, opened or created."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def _reason(exc: OSError) -> str:
    """What the system said, without its errno, and what to change."""
    if exc.errno == errno.EADDRINUSE:
        return "the port is in use (another server there? choose another with --port)"
    if exc.errno == errno.EACCES:
        return "permission denied (a port below 1024 needs privileges: choose another with --port)"
    return f"{(exc.strerror or str(exc)).lower()} (check --host)"


def _browsable(host: str) -> str:
    """The address a browser on this machine reaches a server bound to ``host`` by."""
    if host in ("0.0.0.0", ""):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host


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
