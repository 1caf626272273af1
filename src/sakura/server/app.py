"""The web app: routers mounted on one FastAPI app, its lifespan, and its one error handler.

The app translates; it decides nothing. HTTP requests become lobby calls, WebSocket messages
become table calls, and any error a client causes becomes ``{"type": "error"}`` with the
engine's (or the table's) own words, or an HTTP status with ``{"detail", "code"}``
(:func:`table_error`, the one handler: no route converts an error by hand). Each resource has
its router (:mod:`sakura.server.routes`); a game's own routes come from its module
(:mod:`sakura.server.games`).

Nothing here waits on the database on the event loop (:mod:`sakura.server.database`), and every
bound of :class:`~sakura.server.limits.Limits` is enforced in the routes or in the table: the
front door (:mod:`sakura.server.guard`), connections per table and per client address, a rate
limit per connection, and a connection that stops reading its messages is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from sakura.server import contract, finished
from sakura.server.accounts import Accounts
from sakura.server.advice import Advisor
from sakura.server.csrf import CsrfGuard
from sakura.server.errors import TableError, http_status
from sakura.server.games import ROUTES
from sakura.server.guard import Guard
from sakura.server.limits import Limits
from sakura.server.lobby import Lobby
from sakura.server.metrics import Metrics
from sakura.server.notify.notifier import Notifier
from sakura.server.pages import STATIC
from sakura.server.routes import account, admin, archive, health, notify, pages, people, play, tables, turns
from sakura.server.turns import TurnClock

log = logging.getLogger("sakura.server")

SWEEP_SECONDS = 30.0
NOTIFY_GRACE = 5.0  # seconds the notifications under way may take at shutdown


def create_app(  # noqa: PLR0913 - the server's settings: each a keyword with a default, one per CLI flag
    database_url: str = "sqlite:///sakura.db",
    limits: Limits | None = None,
    redis_url: str | None = None,
    redis_prefix: str = "sakura:",
    *,
    metrics_at: tuple[str, int] | None = None,
    turn_clock: TurnClock | None = None,
    notifier: Notifier | None = None,
) -> Any:
    """A Sakura server on ``database_url``; unfinished tables resume when it starts.

    The FastAPI app comes wrapped in the :class:`~sakura.server.guard.Guard` middleware (host,
    origin, body size, security headers); the app itself is its ``.app`` attribute and its
    state (the lobby) is reachable through the wrapper's ``state``. ``redis_url``: one of many
    processes serving the same site (:mod:`sakura.server.cluster`). ``metrics_at``: (host, port) of
    an admin port serving Prometheus' ``/metrics`` (:mod:`sakura.server.metrics`); none by default.
    ``turn_clock``: the time the turn-based tables' deadlines read (tests: a
    :class:`~sakura.server.turns.FakeClock`). ``notifier``: notifications by e-mail and Web
    Push when a turn-based table waits for a player (:mod:`sakura.server.notify`); none by default."""
    bounds = limits or Limits()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with _running(app, database_url, bounds, redis_url, redis_prefix), _metrics(app, metrics_at):
            yield

    app = FastAPI(title="Sakura", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.limits = bounds
    app.state.metrics = Metrics()
    app.state.turn_clock = turn_clock
    app.state.notifier = notifier
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_exception_handler(TableError, table_error)  # type: ignore[arg-type]
    routers = (health, pages, tables, archive, people, play, admin, account, turns, notify)
    for router in (r.router for r in routers):
        app.include_router(router)
    app.include_router(Accounts().router)
    for router in ROUTES.values():
        app.include_router(router)
    contract.install(app)  # the OpenAPI schema states every refusal and the new table's rules
    return Guard(CsrfGuard(app), allowed_hosts=bounds.allowed_hosts, body_bytes=bounds.body_bytes)


async def table_error(request: Request, exc: TableError) -> JSONResponse:
    """Any refusal, from any route: its HTTP status (:func:`~sakura.server.errors.http_status`)
    with ``{"detail", "code"}``, and ``Retry-After`` when it passes (a 429 is counted by route)."""
    if http_status(exc) == 429:
        route = request.scope.get("route")
        request.app.state.metrics.refused(f"http:{getattr(route, 'path', '?')}")
    headers = {"Retry-After": str(max(1, round(exc.retry_after)))} if exc.retry_after else None
    return JSONResponse({"detail": str(exc), "code": exc.code}, status_code=http_status(exc), headers=headers)


@contextlib.asynccontextmanager
async def _running(
    app: FastAPI, database_url: str, bounds: Limits, redis_url: str | None, redis_prefix: str
) -> AsyncIterator[None]:
    """The app's state while it serves: the store, the lobby (one process, or one of many),
    the advisor's worker processes, the unfinished tables resumed, and two background tasks
    (the finished games' follow-up catching up, the sweep of finished tables)."""
    from sakura.server.db import Store

    store = Store(
        database_url,
        busy_seconds=bounds.sqlite_busy_seconds,
        statement_ms=bounds.pg_statement_ms,
        connect_seconds=bounds.pg_connect_seconds,
    )
    lobby = await _lobby(store, bounds, redis_url, redis_prefix, app.state.metrics)
    app.state.lobby = lobby
    if app.state.turn_clock is not None:
        lobby.turns.clock = app.state.turn_clock
    if app.state.notifier is not None:  # before the tables are restored: they are watched as built
        app.state.notifier.attach(lobby)
    sockets: Counter[str] = Counter()  # open WebSockets by client address
    app.state.sockets = sockets
    app.state.metrics.watch(lobby.live_count, lambda: sum(sockets.values()))
    app.state.advisor = lobby.advisor = Advisor(bounds)  # hints and analyses, in worker processes
    for table in await lobby.restore():
        table.start()
    lobby.turns.start()  # the turn-based deadlines: one task (turns/schedule.py)
    loop = asyncio.get_running_loop()
    catching_up = loop.create_task(finished.catch_up(lobby))  # ratings, archive
    sweeper = loop.create_task(_sweep(lobby))
    try:
        yield
    finally:
        sweeper.cancel()
        await lobby.advisor.close()
        catching_up.cancel()
        if app.state.notifier is not None:  # the notifications under way: a moment to finish
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(NOTIFY_GRACE):
                    await asyncio.shield(app.state.notifier.idle())
            await app.state.notifier.close()
        await lobby.stop()
        for table in list(lobby.tables.values()):
            await table.close()
        await lobby.writer.aclose()
        await lobby.turns.stop()
        lobby.db.close()
        store.close()


@contextlib.asynccontextmanager
async def _metrics(app: FastAPI, at: tuple[str, int] | None) -> AsyncIterator[None]:
    """``/metrics`` on its admin port while the app serves, if asked for."""
    if at is not None:
        port = app.state.metrics.serve(at[1], at[0])
        log.info("metrics served at http://%s:%d/metrics", at[0], port)
    try:
        yield
    finally:
        app.state.metrics.close()


async def _lobby(
    store: Any, bounds: Limits, redis_url: str | None, redis_prefix: str, metrics: Metrics
) -> Lobby:
    if redis_url is None:
        return Lobby(store, bounds, metrics)
    from sakura.server.cluster import ClusterLobby  # Redis is imported only for a cluster

    lobby = ClusterLobby(store, bounds, redis_url, prefix=redis_prefix)
    lobby.metrics, lobby.db.observe = metrics, metrics.database_seconds.observe  # the app's
    await lobby.start()
    return lobby


async def _sweep(lobby: Lobby) -> None:
    while True:
        await asyncio.sleep(SWEEP_SECONDS)
        try:
            lobby.sweep()
        except Exception:
            log.exception("sweeping finished tables")
