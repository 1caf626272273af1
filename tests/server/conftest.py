"""Fixtures for the server tests: an app on a fresh database, and scripted WebSocket clients.

Clients are real WebSocket connections through Starlette's TestClient; each scripted player
runs in its own thread, acts from the views it receives, and records every message.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.cluster_site import (  # noqa: F401  (pg, prefix, site_of: the many-processes fixtures)
    cluster_kill,
    pg,
    prefix,
    site_of,
)

from sakura.server import create_app

Message = dict[str, Any]
DEFAULT_PG = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def _postgres_url() -> str | None:
    """A fresh schema on a reachable PostgreSQL server, or None."""
    base = os.environ.get("SAKURA_TEST_POSTGRES_URL", DEFAULT_PG)
    try:
        import psycopg
        from sqlalchemy.engine import make_url
    except ImportError:
        return None
    url = make_url(base)
    try:
        with psycopg.connect(
            host=url.host or "127.0.0.1",
            port=url.port or 5432,
            user=url.username or "postgres",
            password=url.password,
            dbname=url.database or "test",
            connect_timeout=3,
            autocommit=True,
        ) as conn:
            schema = f"sakura_test_{uuid.uuid4().hex[:10]}"
            conn.execute(f'CREATE SCHEMA "{schema}"')
    except Exception:
        return None
    return url.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)


def _drop_schema(url_text: str) -> None:
    cluster_kill.drop_schema(url_text)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[str]:
    """The same tests on SQLite (always) and PostgreSQL (where a server is reachable)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'sakura.db'}"
        return
    url = _postgres_url()
    if url is None:
        pytest.skip(f"no PostgreSQL server reachable (set SAKURA_TEST_POSTGRES_URL, e.g. {DEFAULT_PG})")
    try:
        yield url
    finally:
        _drop_schema(url)


@pytest.fixture
def sqlite_url(tmp_path: Any) -> str:
    return f"sqlite:///{tmp_path / 'sakura.db'}"


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url)) as c:
        yield c


def create_table(client: TestClient, players: int, seats: list[str], **extra: Any) -> Message:
    """``seats``: "human" or a bot level ("easy", "medium", "hard") per seat."""
    body: Message = {
        "players": players,
        "seats": [{"kind": "human"} if s == "human" else {"kind": "bot", "level": s} for s in seats],
        **extra,
    }
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    data: Message = response.json()
    return data


def join(client: TestClient, table_id: str, seat: int | None = None) -> str:
    response = client.post(f"/api/tables/{table_id}/join", json={"seat": seat})
    assert response.status_code == 200, response.text
    token: str = response.json()["token"]
    return token


Policy = Callable[[Message], str]


def first_legal(view: Message) -> str:
    actions: list[str] = view["legal_actions"]
    return actions[0]


class ScriptedPlayer:
    """A client that plays from its views: one action per decision, never on a stale view.

    It acts when its latest view lists legal actions and its previous action has come back
    (an ``update`` for its own seat) or was refused. ``stop_when(message)`` ends the run early.
    """

    def __init__(
        self,
        client: TestClient,
        table_id: str,
        token: str | None,
        *,
        policy: Policy | None = None,
        seed: int = 0,
        stop_when: Callable[[Message], bool] | None = None,
    ) -> None:
        self.client = client
        self.table_id = table_id
        self.token = token
        rng = random.Random(seed)
        self.policy = policy or (lambda view: rng.choice(view["legal_actions"]))
        self.stop_when = stop_when
        self.messages: list[Message] = []
        self.errors: list[Message] = []
        self.seat: int | None = None
        self.last_view: Message | None = None
        self.failure: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.arrival: threading.Thread | None = None  # a late watcher's: it starts this one

    def start(self) -> ScriptedPlayer:
        self.thread.start()
        return self

    def join(self, timeout: float = 300) -> None:
        if self.arrival is not None:  # a late watcher may not have been started yet
            self.arrival.join(timeout)
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "scripted player still running"
        if self.failure is not None:
            raise self.failure

    def _run(self) -> None:
        try:
            with self.client.websocket_connect(f"/ws/{self.table_id}") as ws:
                ws.send_text(json.dumps({"type": "hello", "token": self.token}))
                self.play(ws)
        except BaseException as exc:  # reported by join()
            self.failure = exc

    def play(self, ws: Any) -> None:
        waiting = False
        while True:
            message: Message = ws.receive_json()
            self.messages.append(message)
            kind = message["type"]
            if kind == "error" and message["code"] == "rate_limited":  # a polite client waits
                time.sleep(message["retry_after"])
                waiting = False
            elif kind == "error":
                self.errors.append(message)
                waiting = False
            if kind == "welcome":
                self.seat = message["seat"]
            if kind in ("welcome", "update"):
                self.last_view = message["view"]
                if kind == "update" and message["seat"] == self.seat:
                    waiting = False
            if self.stop_when is not None and self.stop_when(message):
                return
            view = self.last_view
            if view is None:
                continue
            if view["terminal"]:
                return
            if view["legal_actions"] and not waiting and self.seat is not None and kind != "table":
                ws.send_text(json.dumps({"type": "act", "action": self.policy(view)}))
                waiting = True


def two_players_and_a_watcher(
    client: TestClient, table_id: str, first_token: str, seeds: tuple[int, int]
) -> tuple[list[ScriptedPlayer], list[str]]:
    """Seat a second player by the join API, then play the table to its end with the two
    seated clients (random legal actions from ``seeds``) and a spectator. Returns the clients
    (seat 0's, seat 1's, the watcher's) and the two seats' tokens."""
    tokens = [first_token, join(client, table_id)]
    clients = [
        ScriptedPlayer(client, table_id, tokens[0], seed=seeds[0]),
        ScriptedPlayer(client, table_id, tokens[1], seed=seeds[1]),
        ScriptedPlayer(client, table_id, None),
    ]
    for c in clients:
        c.start()
    for c in clients:
        c.join()
    return clients, tokens


def late_watchers(client: TestClient, table_id: str, at: tuple[int, ...]) -> list[ScriptedPlayer]:
    """Spectators who arrive mid-game: each connects once the table has ``at[i]`` actions,
    and watches to the end."""
    watchers = []

    def arrive(seq: int, watcher: ScriptedPlayer) -> None:
        while client.get(f"/api/tables/{table_id}").json()["seq"] < seq:
            time.sleep(0.01)
        watcher.start()

    for seq in at:
        watcher = ScriptedPlayer(client, table_id, None)
        watchers.append(watcher)
        watcher.arrival = threading.Thread(target=arrive, args=(seq, watcher), daemon=True)
        watcher.arrival.start()
    return watchers


@contextlib.contextmanager
def socket(client: TestClient, table_id: str, token: str | None) -> Iterator[Any]:
    """A connection that has said hello; yields (ws, welcome)."""
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": token}))
        welcome = receive(ws, "welcome")
        yield ws, welcome


def receive(ws: Any, kind: str) -> Message:
    """The next message of ``kind`` (others skipped)."""
    while True:
        message: Message = ws.receive_json()
        if message["type"] == kind:
            return message


def before_pong(ws: Any) -> list[Message]:
    """Everything the connection was sent before it asked: a ``ping`` goes out, and the messages
    up to its ``pong`` come back. The server answers one connection's messages in order, so
    whatever an earlier request (or anything the table did before) queued for it is in the list:
    a test asserts on it instead of waiting for a message that may never come."""
    ws.send_text(json.dumps({"type": "ping"}))
    out: list[Message] = []
    while (message := ws.receive_json())["type"] != "pong":
        out.append(message)
    return out


async def eventually(condition: Callable[[], bool], seconds: float = 60.0) -> bool:
    """Whether ``condition()`` comes true within ``seconds``: :func:`wait_until` for a test that
    runs on an event loop (the loop goes on between checks)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.01)
    return True


def wait_until(condition: Callable[[], bool], seconds: float = 30.0, what: str = "the condition") -> None:
    """Poll ``condition`` until it holds; fail with ``what`` if it never does in ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"{what} never came"
        time.sleep(0.01)
