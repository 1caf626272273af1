"""The web app: pages, a small JSON API for the lobby, and the WebSocket of each table.

The app translates; it decides nothing. HTTP requests become lobby calls, WebSocket messages
become table calls, and any error a client causes becomes ``{"type": "error"}`` with the
engine's (or the table's) own words.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Annotated, Any

from fastapi import Body, FastAPI, HTTPException, Request, WebSocket
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.websockets import WebSocketDisconnect

from sakura.engine.games.sakura import SakuraGame
from sakura.records import Recorder
from sakura.server import listing, protocol
from sakura.server.lobby import Lobby, NewTable
from sakura.server.pages import STATIC, page
from sakura.server.protocol import Act, Hello, Ping, ProtocolError, Rematch, Replace, parse_client
from sakura.server.table import Connection, Table, TableError


class JoinRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int | None = Field(default=None, ge=0, le=7)
    name: str | None = Field(default=None, max_length=24)


def create_app(database_url: str = "sqlite:///sakura.db") -> FastAPI:
    """A Sakura server on ``database_url``; unfinished tables resume when it starts."""
    from sakura.server.db import Store

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(database_url)
        lobby = Lobby(store)
        app.state.lobby = lobby
        for table in lobby.restore():
            table.start()
        try:
            yield
        finally:
            for table in list(lobby.tables.values()):
                await table.close()
            await lobby.writer.aclose()
            store.close()

    app = FastAPI(title="Sakura", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def lobby_of() -> Lobby:
        lobby: Lobby = app.state.lobby
        return lobby

    def table_or_404(table_id: str) -> Table:
        try:
            return lobby_of().get(table_id)
        except KeyError:
            raise HTTPException(404, "no such table") from None

    def finished_or_409(table_id: str) -> Table:
        table = table_or_404(table_id)
        if table.status != "finished":
            raise HTTPException(409, "the game is not over yet: records and replays come at the end")
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

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    @app.get("/api/cards")
    async def cards() -> list[dict[str, Any]]:
        """The box's cards (public: what each card does, never where it is)."""
        deck = SakuraGame(4).deck
        return [{"number": c.number, "garden": str(c.garden), "painter": str(c.painter)} for c in deck.cards]

    @app.get("/api/tables")
    async def tables() -> dict[str, Any]:
        lobby = lobby_of()
        return {"open": lobby.open_tables(), "finished": lobby.store.finished_ids(),
                "listing": listing.live(lobby.tables.values())}

    @app.get("/api/finished")
    async def finished_games(page: int = 0) -> dict[str, Any]:
        """Finished games with players, winner and date, newest first, ten a page."""
        return listing.finished(lobby_of(), page)

    @app.post("/api/tables", status_code=201)
    async def create(request: NewTable) -> dict[str, Any]:
        try:
            table, seat, token = lobby_of().create(request)
        except TableError as exc:
            raise HTTPException(400, str(exc)) from None
        return {"table": table.info(), "seat": seat, "token": token}

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str) -> dict[str, Any]:
        return table_or_404(table_id).info()

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, body: Annotated[JoinRequest | None, Body()] = None) -> dict[str, Any]:
        table = table_or_404(table_id)
        request = body or JoinRequest()
        async with table.lock:
            try:
                seat, token = table.claim(request.seat, request.name)
            except TableError as exc:
                raise HTTPException(503 if exc.code == "storage" else 409, str(exc)) from None
        return {"seat": seat, "token": token}

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> Response:
        """The finished game in the record format (``sakura replay`` reads it)."""
        table = finished_or_409(table_id)
        text = _record(table).dumps(indent=1)
        return Response(text, media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="sakura-{table.id}.json"'})

    @app.get("/api/tables/{table_id}/replay")
    async def replay(table_id: str) -> JSONResponse:
        """A finished game step by step, as a spectator saw it."""
        table = finished_or_409(table_id)
        return JSONResponse({"table": table.info(), "steps": _replay_steps(table)})

    @app.websocket("/ws/{table_id}")
    async def websocket(ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        try:
            table = lobby_of().get(table_id)
        except KeyError:
            await ws.send_text(protocol.dumps(protocol.error("no such table", "no_table")))
            await ws.close(code=4404)
            return
        await _serve(ws, table, lobby_of())

    return app


async def _serve(ws: WebSocket, table: Table, lobby: Lobby) -> None:
    """One connection: hello first, then act / replace / rematch / ping until it closes."""

    async def send(text: str) -> None:
        await ws.send_text(text)

    conn = Connection(send)
    writer = asyncio.get_running_loop().create_task(_write(conn))
    joined = False
    try:
        while True:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                break
            data = frame.get("text") or frame.get("bytes") or b""
            try:
                message = parse_client(data)
                if not joined:
                    if not isinstance(message, Hello):
                        raise TableError("say hello first: {\"type\": \"hello\", \"token\": ...}", "no_hello")
                    await table.join(conn, message.token)
                    joined = True
                elif isinstance(message, Hello):
                    raise TableError("this connection has already said hello", "hello_again")
                elif isinstance(message, Act):
                    await table.act(conn.seat, message.action)
                elif isinstance(message, Replace):
                    await table.replace(conn.seat, message.seat)
                elif isinstance(message, Rematch):
                    await lobby.rematch(table, conn.seat)
                elif isinstance(message, Ping):
                    conn.push({"type": "pong"})
            except ProtocolError as exc:
                conn.push(protocol.error(str(exc), "malformed"))
            except TableError as exc:
                conn.push(protocol.error(str(exc), exc.code))
    except WebSocketDisconnect:
        pass
    finally:
        if joined:
            await table.leave(conn)
        conn.outbox.put_nowait(None)
        with contextlib.suppress(Exception):
            await writer


async def _write(conn: Connection) -> None:
    with contextlib.suppress(Exception):  # the socket closed: nothing more to tell it
        await conn.writer()


def _record(table: Table) -> Any:
    """Rebuild the finished game's record by replaying its actions. The seed is left out
    (``seed: null``; the record's ``initial`` deal replays it)."""
    stored = table.store.load(table.id)
    assert stored is not None
    names = [s.name or (f"Bot ({s.level})" if s.kind == "bot" else f"Player {i + 1}")
             for i, s in enumerate(table.seats)]
    recorder = Recorder(table.game, stored.seed, names, date=stored.created.isoformat(timespec="seconds"))
    for seat, text in stored.actions:
        recorder.apply(seat, table.game.parse_action(text))
    return replace(recorder.finish(), seed=None)


def _replay_steps(table: Table) -> list[dict[str, Any]]:
    stored = table.store.load(table.id)
    assert stored is not None
    state = table.game.new_initial_state(stored.seed)
    steps: list[dict[str, Any]] = [{"seat": None, "events": [], "view": state.view(None).to_json()}]
    for seat, text in stored.actions:
        events = state.apply_action(seat, table.game.parse_action(text))
        steps.append({"seat": seat, "events": [e.seen_by(None).to_dict() for e in events],
                      "view": state.view(None).to_json()})
    return steps
