"""The web app: pages, a small JSON API for the lobby, and the WebSocket of each table.

The app translates; it decides nothing. HTTP requests become lobby calls, WebSocket messages
become table calls, and any error a client causes becomes ``{"type": "error"}`` with the
engine's (or the table's) own words, or an HTTP status with ``{"detail", "code"}``.

Nothing here waits on the database on the event loop (:mod:`sakura.server.database`), and every
bound of :class:`~sakura.server.limits.Limits` is enforced here or in the table: the front door
(:mod:`sakura.server.guard`), connections per table and per client address, a rate limit per
connection, and a connection that stops reading its messages is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import replace
from functools import cache
from typing import Annotated, Any

from fastapi import Body, FastAPI, Path, Query, Request, WebSocket
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.websockets import WebSocketDisconnect

from sakura.engine.games.sakura import SakuraGame
from sakura.records import Recorder, tutorial_json
from sakura.server import chat, finished, listing, people_routes, protocol
from sakura.server.accounts import Accounts, user_of
from sakura.server.advice import Advisor
from sakura.server.cluster import ClusterLobby
from sakura.server.cluster.remote import RemoteTable
from sakura.server.csrf import CsrfGuard
from sakura.server.errors import http_status
from sakura.server.guard import Guard
from sakura.server.limits import Limits
from sakura.server.lobby import Lobby, NewTable
from sakura.server.names import optional_name
from sakura.server.pages import STATIC, page
from sakura.server.protocol import Act, Chat, Hello, Hint, Ping, ProtocolError, Rematch, Replace, parse_client
from sakura.server.table import Connection, Table, TableError

log = logging.getLogger("sakura.server")

TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # what secrets.token_urlsafe makes; anything else: 404
SWEEP_SECONDS = 30.0


class ApiError(Exception):
    """An HTTP refusal with words and a code: ``{"detail": ..., "code": ...}``."""

    def __init__(self, status: int, detail: str, code: str, retry_after: float | None = None) -> None:
        super().__init__(detail)
        self.status, self.detail, self.code, self.retry_after = status, detail, code, retry_after

    @classmethod
    def of(cls, error: TableError) -> ApiError:
        return cls(http_status(error), str(error), error.code, error.retry_after)


class JoinRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int | None = Field(default=None, ge=0, le=7)
    name: str | None = Field(default=None, max_length=24)


def create_app(
    database_url: str = "sqlite:///sakura.db",
    limits: Limits | None = None,
    redis_url: str | None = None,
    redis_prefix: str = "sakura:",
) -> Any:
    """A Sakura server on ``database_url``; unfinished tables resume when it starts.

    The FastAPI app comes wrapped in the :class:`~sakura.server.guard.Guard` middleware (host,
    origin, body size, security headers); the app itself is its ``.app`` attribute and its
    state (the lobby) is reachable through the wrapper's ``state``. ``redis_url``: one of many
    processes serving the same site (:mod:`sakura.server.cluster`)."""
    from sakura.server.db import Store

    bounds = limits or Limits()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(
            database_url,
            busy_seconds=bounds.sqlite_busy_seconds,
            statement_ms=bounds.pg_statement_ms,
            connect_seconds=bounds.pg_connect_seconds,
        )
        if redis_url is None:
            lobby = Lobby(store, bounds)
        else:
            lobby = ClusterLobby(store, bounds, redis_url, prefix=redis_prefix)
            await lobby.start()
        app.state.lobby = lobby
        app.state.sockets = Counter()  # open WebSockets by client address
        app.state.advisor = advisor = Advisor(bounds)  # hints and analyses, in worker processes
        if isinstance(lobby, ClusterLobby):
            lobby.advisor = advisor  # a hint asked on another process is worked out here
        for table in await lobby.restore():
            table.start()
        catching_up = asyncio.get_running_loop().create_task(finished.catch_up(lobby))  # ratings, archive
        sweeper = asyncio.get_running_loop().create_task(_sweep(lobby))
        try:
            yield
        finally:
            sweeper.cancel()
            await advisor.close()
            catching_up.cancel()
            if redis_url is not None:
                await lobby.stop()  # type: ignore[attr-defined]
            for table in list(lobby.tables.values()):
                await table.close()
            await lobby.writer.aclose()
            lobby.db.close()
            store.close()

    app = FastAPI(title="Sakura", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.exception_handler(TableError)
    async def table_error(_request: Request, exc: TableError) -> JSONResponse:
        return await api_error(_request, ApiError.of(exc))

    app.include_router(Accounts().router)
    app.include_router(people_routes.router)  # the archive, players' pages, the leaderboard

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
        headers = {"Retry-After": str(max(1, round(exc.retry_after)))} if exc.retry_after else None
        return JSONResponse({"detail": exc.detail, "code": exc.code}, status_code=exc.status, headers=headers)

    def lobby_of() -> Lobby:
        lobby: Lobby = app.state.lobby
        return lobby

    async def table_or_404(table_id: str) -> Table:
        if not TABLE_ID.fullmatch(table_id):
            raise ApiError(404, "no such table", "no_table")
        try:
            return await lobby_of().get(table_id)
        except KeyError:
            raise ApiError(404, "no such table", "no_table") from None
        except TableError as exc:
            raise ApiError.of(exc) from None

    async def finished_or_409(table_id: str) -> Table:
        table = await table_or_404(table_id)
        if table.status not in ("finished", "damaged"):
            raise ApiError(
                409, "the game is not over yet: records and replays come at the end", "not_finished"
            )
        return table

    @app.get("/", include_in_schema=False)
    async def index(request: Request) -> HTMLResponse:
        return page("index.html", request)

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str, request: Request) -> HTMLResponse:
        return page("table.html", request)

    @app.get("/replay/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str, request: Request) -> HTMLResponse:
        return page("replay.html", request)

    @app.get("/learn", include_in_schema=False)
    async def learn_page(request: Request) -> HTMLResponse:
        return page("tutorial.html", request)

    @app.get("/api/tutorial")
    async def tutorial() -> JSONResponse:
        """The guided first game ("Learn to play"), played through by the engine from its
        script: each step's words, highlight and expected move, with the learner's view and
        the events before it (the learner's own view only). Unrated: no table, nothing stored."""
        return JSONResponse(await asyncio.to_thread(_tutorial))

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    @app.get("/api/cards")
    async def cards() -> list[dict[str, Any]]:
        """The box's cards (public: what each card does, never where it is)."""
        deck = SakuraGame(4).deck
        return [{"number": c.number, "garden": str(c.garden), "painter": str(c.painter)} for c in deck.cards]

    @app.get("/api/tables")
    async def tables(page: Annotated[int, Query(ge=0, le=10_000)] = 0) -> dict[str, Any]:
        """One page of the tables in play and of the finished games (``?page=``, from 0)."""
        lobby = lobby_of()
        try:
            finished = await lobby.finished_ids(page)
        except TableError as exc:
            raise ApiError.of(exc) from None
        return {
            "open": lobby.open_tables(page),
            "finished": finished,
            "page": page,
            "page_size": lobby.limits.lobby_page,
            "listing": lobby.cached("listing", 0, lobby.live_listing),
        }

    @app.get("/api/finished")
    async def finished_games(page: Annotated[int, Query(ge=0, le=10_000)] = 0) -> dict[str, Any]:
        """Finished games with players, winner and date, newest first, ten a page."""
        try:
            return await listing.finished(lobby_of(), page)
        except TableError as exc:
            raise ApiError.of(exc) from None

    @app.post("/api/tables", status_code=201)
    async def create(request: NewTable, http: Request) -> dict[str, Any]:
        try:
            account = await user_of(lobby_of(), http.cookies)
            table, seat, token = await lobby_of().create(
                request, address=_address(http.client), account=account
            )
        except TableError as exc:
            raise ApiError.of(exc) from None
        return {"table": table.info(), "seat": seat, "token": token}

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str) -> dict[str, Any]:
        return (await table_or_404(table_id)).info()

    @app.post("/api/tables/{table_id}/join")
    async def join(
        table_id: str, http: Request, body: Annotated[JoinRequest | None, Body()] = None
    ) -> dict[str, Any]:
        table = await table_or_404(table_id)
        request = body or JoinRequest()
        account = await user_of(lobby_of(), http.cookies)
        async with table.lock:
            try:
                seat, token = await table.claim(request.seat, optional_name(request.name), account)
            except TableError as exc:
                raise ApiError.of(exc) from None
        return {"seat": seat, "token": token}

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> Response:
        """The finished game in the record format (``sakura replay`` reads it); of a damaged
        table, the game as far as its stored actions replay."""
        table = await finished_or_409(table_id)
        try:
            text = (await _record(table)).dumps(indent=1)
        except TableError as exc:
            raise ApiError.of(exc) from None
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="sakura-{table.id}.json"'},
        )

    @app.get("/api/tables/{table_id}/replay")
    async def replay(table_id: str) -> JSONResponse:
        """A finished game step by step, as a spectator saw it."""
        table = await finished_or_409(table_id)
        try:
            steps = await _replay_steps(table)
            messages = await chat.for_replay(table)
        except TableError as exc:
            raise ApiError.of(exc) from None
        return JSONResponse({"table": table.info(), "steps": steps, "chat": messages})

    @app.get("/api/tables/{table_id}/analysis/{seat}")
    async def analysis_status(table_id: str, seat: Annotated[int, Path(ge=0, le=7)]) -> dict[str, Any]:
        """How far the post-game analysis of ``seat`` (from 0) is, or the analysis itself."""
        table = await table_or_404(table_id)
        try:
            return await app.state.advisor.status(table, seat)  # type: ignore[no-any-return]
        except TableError as exc:
            raise ApiError.of(exc) from None

    @app.post("/api/tables/{table_id}/analysis/{seat}", status_code=202)
    async def analyse(table_id: str, seat: Annotated[int, Path(ge=0, le=7)]) -> dict[str, Any]:
        """Start the post-game analysis of ``seat`` (refused while the game is being played)."""
        table = await table_or_404(table_id)
        try:
            return await app.state.advisor.start_analysis(table, seat)  # type: ignore[no-any-return]
        except TableError as exc:
            raise ApiError.of(exc) from None

    @app.websocket("/ws/{table_id}")
    async def websocket(ws: WebSocket, table_id: str) -> None:
        address = _address(ws.client)
        sockets: Counter[str] = app.state.sockets
        await ws.accept()
        if sockets[address] >= bounds.connections_per_address:
            await _refuse(
                ws,
                f"too many connections from your address (at most {bounds.connections_per_address})",
                "too_many",
                1013,
            )
            return
        try:
            if not TABLE_ID.fullmatch(table_id):
                raise KeyError(table_id)
            table = await lobby_of().get(table_id)
        except KeyError:
            await _refuse(ws, "no such table", "no_table", 4404)
            return
        except TableError as exc:
            await _refuse(ws, str(exc), exc.code, 1013)
            return
        try:
            account = await user_of(lobby_of(), ws.cookies)  # a logged-in player's seats, from any browser
        except TableError:
            account = None
        sockets[address] += 1
        try:
            await _serve(
                ws, table, lobby_of(), Connection(ws.send_text, address=address, limits=bounds), account
            )
        finally:
            sockets[address] -= 1
            if sockets[address] <= 0:
                del sockets[address]

    return Guard(CsrfGuard(app), allowed_hosts=bounds.allowed_hosts, body_bytes=bounds.body_bytes)


_tutorial = cache(tutorial_json)  # the script is fixed: played once per process


def _address(client: Any) -> str:
    return str(client.host) if client is not None else "?"


async def _refuse(ws: WebSocket, message: str, code: str, close_code: int) -> None:
    """Say why in an ``error`` message and in the close frame's reason, then close."""
    with contextlib.suppress(Exception):
        await ws.send_text(protocol.dumps(protocol.error(message, code)))
        await ws.close(code=close_code, reason=message[:120])


async def _sweep(lobby: Lobby) -> None:
    while True:
        await asyncio.sleep(SWEEP_SECONDS)
        try:
            lobby.sweep()
        except Exception:
            log.exception("sweeping finished tables")


async def _serve(
    ws: WebSocket, table: Table, lobby: Lobby, conn: Connection, account: str | None = None
) -> None:
    """One connection: hello first, then act / replace / rematch / ping until it closes, or
    until it falls behind reading its messages, or floods."""
    loop = asyncio.get_running_loop()
    writer = loop.create_task(_write(conn))
    closing: list[asyncio.Task[None]] = []

    def drop() -> None:  # the outbox overflowed: close (or abort) the socket; receive() then ends
        writer.cancel()
        closing.append(loop.create_task(_close(ws, 1008, "too far behind reading its messages")))

    conn.on_behind = drop

    def close(code: int, reason: str) -> None:  # the table moved to another process: the page reconnects
        writer.cancel()
        closing.append(loop.create_task(_close(ws, code, reason)))

    conn.on_close = close
    joined = False
    why: tuple[int, str] | None = None
    try:
        while True:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect" or conn.behind:
                break
            if not conn.allow():
                if conn.refused >= conn.limits.flood_close:
                    why = (1008, "too many messages")
                    break
                rate = conn.limits.messages_per_second
                conn.push(
                    dict(
                        protocol.error(
                            f"too many messages: at most {rate:g} a second; this one was ignored",
                            "rate_limited",
                        ),
                        retry_after=round(conn.bucket.wait(), 3),
                    )
                )
                continue
            data = frame.get("text") or frame.get("bytes") or b""
            try:
                message = parse_client(data)
                if not joined:
                    if not isinstance(message, Hello):
                        raise TableError('say hello first: {"type": "hello", "token": ...}', "no_hello")
                    await table.join(conn, message.token, account)
                    joined = True
                    # the chat's history comes by itself: a slow database holds up no message
                    greeting = (
                        table.greet(message.name)
                        if isinstance(table, RemoteTable)
                        else chat.greet(table, conn, message.name)
                    )
                    closing.append(loop.create_task(greeting))
                elif isinstance(message, Hello):
                    raise TableError("this connection has already said hello", "hello_again")
                elif isinstance(message, Act):
                    await table.act(conn.seat, message.action)
                elif isinstance(message, Replace):
                    await table.replace(conn.seat, message.seat)
                elif isinstance(message, Chat):
                    if isinstance(table, RemoteTable):  # the owner stores it and tells everyone
                        await table.say(message.text, message.phrase)
                    else:
                        await chat.say(table, conn, message)
                elif isinstance(message, Rematch):
                    await lobby.rematch(table, conn.seat)
                elif isinstance(message, Ping):
                    conn.push({"type": "pong"})
                elif isinstance(message, Hint):
                    if isinstance(table, RemoteTable):  # the owner holds the state
                        await table.hint()
                    else:
                        ws.app.state.advisor.start_hint(table, conn)
            except ProtocolError as exc:
                conn.push(protocol.error(str(exc), "malformed"))
            except TableError as exc:
                refusal = protocol.error(str(exc), exc.code)
                if exc.retry_after is not None:
                    refusal["retry_after"] = round(exc.retry_after, 3)
                conn.push(refusal)
    except WebSocketDisconnect:
        pass
    finally:
        if joined:
            await table.leave(conn)
        if why is not None:
            writer.cancel()
            await _close(ws, *why)
        conn.finish()
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await writer
        for task in closing:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await task


async def _close(ws: WebSocket, code: int, reason: str) -> None:
    with contextlib.suppress(Exception):
        await ws.close(code=code, reason=reason)


async def _write(conn: Connection) -> None:
    with contextlib.suppress(Exception):  # the socket closed: nothing more to tell it
        await conn.writer()


async def _stored(table: Table) -> Any:
    stored = await table.db.call(table.store.load, table.id, what=f"loading table {table.id}")
    assert stored is not None
    if table.damaged is not None:  # as far as it replays
        stored = replace(stored, actions=stored.actions[: table.seq])
    return stored


async def _record(table: Table) -> Any:
    """Rebuild the finished game's record by replaying its actions. The seed is left out
    (``seed: null``; the record's ``initial`` deal replays it)."""
    stored = await _stored(table)
    names = [
        s.name or (f"Bot ({s.level})" if s.kind == "bot" else f"Player {i + 1}")
        for i, s in enumerate(table.seats)
    ]
    recorder = Recorder(table.game, stored.seed, names, date=stored.created.isoformat(timespec="seconds"))
    for seat, text in stored.actions:
        recorder.apply(seat, table.game.parse_action(text))
    return replace(recorder.finish(), seed=None)


async def _replay_steps(table: Table) -> list[dict[str, Any]]:
    """Every step of a finished game as a spectator sees it; computed once per table (a
    finished game does not change) and kept while the table is in memory."""
    if table.replay_cache is not None:
        return table.replay_cache
    stored = await _stored(table)
    state = table.game.new_initial_state(stored.seed)
    steps: list[dict[str, Any]] = [{"seat": None, "events": [], "view": state.view(None).to_json()}]
    for seat, text in stored.actions:
        events = state.apply_action(seat, table.game.parse_action(text))
        steps.append(
            {
                "seat": seat,
                "events": [e.seen_by(None).to_dict() for e in events],
                "view": state.view(None).to_json(),
            }
        )
        await asyncio.sleep(0)  # a long game: let the other tables in between steps
    table.replay_cache = steps
    return steps
