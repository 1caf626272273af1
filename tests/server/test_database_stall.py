"""A database that stops answering freezes nothing but the requests that need it (issue #12,
item 1). Before, a PostgreSQL connection that stopped answering held every table of the server
for 15 s on one ``POST /api/tables``, and SQLite locked by another process blocked 5 s, then
answered 500. Now the request gets a 503 with words within the deadline, and another table's
ping stays quick all along (a blocked event loop would make it wait seconds)."""

from __future__ import annotations

import json
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy.engine import make_url
from tests.live_server import running_server
from tests.server.conftest import _drop_schema, _postgres_url
from websockets.sync.client import connect

from sakura.server.limits import LOOPBACK_HOSTS, Limits

LIMITS = Limits(allowed_hosts=LOOPBACK_HOSTS, db_timeout=2.0, sqlite_busy_seconds=0.5)


class StallingProxy:
    """A TCP proxy on loopback in front of PostgreSQL that can stop forwarding (``stall``): its
    connections stay open, and nothing goes through them until ``resume``."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.flowing = threading.Event()
        self.flowing.set()
        self.closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                self.flowing.wait()
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                s.close()

    def stall(self) -> None:
        self.flowing.clear()

    def resume(self) -> None:
        self.flowing.set()

    def close(self) -> None:
        self.closed = True
        self.resume()
        self.listener.close()


def _pings_while(server: str, busy: Any) -> tuple[list[float], Any]:
    """Round trips of pings on one table's socket while ``busy()`` runs in another thread."""
    created = httpx.post(f"{server}/api/tables", json={"players": 2}, timeout=30).json()
    table = created["table"]["id"]
    result: dict[str, Any] = {}
    thread = threading.Thread(target=lambda: result.setdefault("value", busy()), daemon=True)
    times = []
    with connect(server.replace("http://", "ws://") + f"/ws/{table}") as ws:
        ws.send(json.dumps({"type": "hello", "token": created["token"]}))
        while json.loads(ws.recv(timeout=10))["type"] != "welcome":
            pass
        thread.start()
        time.sleep(0.2)
        while thread.is_alive():
            start = time.perf_counter()
            ws.send(json.dumps({"type": "ping"}))
            while json.loads(ws.recv(timeout=30))["type"] != "pong":
                pass
            times.append(time.perf_counter() - start)
            time.sleep(0.05)
    thread.join()
    return times, result["value"]


@pytest.fixture
def postgres_behind_proxy() -> Iterator[tuple[str, StallingProxy]]:
    url = _postgres_url()
    if url is None:
        pytest.skip("no PostgreSQL server reachable (set SAKURA_TEST_POSTGRES_URL)")
    parsed = make_url(url)
    proxy = StallingProxy((parsed.host or "127.0.0.1", parsed.port or 5432))
    try:
        yield parsed.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False), proxy
    finally:
        proxy.close()
        _drop_schema(url)


def test_a_postgresql_that_stops_answering_freezes_no_other_table(
    postgres_behind_proxy: tuple[str, StallingProxy],
) -> None:
    url, proxy = postgres_behind_proxy
    with running_server(url, LIMITS) as server:

        def create() -> httpx.Response:
            proxy.stall()
            try:
                return httpx.post(f"{server}/api/tables", json={"players": 2}, timeout=30)
            finally:
                time.sleep(0.3)  # a few pings more while the database is still away

        pings, response = _pings_while(server, create)
        proxy.resume()
        assert response.status_code == 503 and response.json()["code"] == "storage"
        assert "not answering" in response.json()["detail"]
        # the loop never stopped: no ping waited for the stalled database (db_timeout, 2 s; it
        # was 15 s), however slow a loaded machine answers the rest
        assert len(pings) >= 10 and max(pings) < LIMITS.db_timeout / 2, pings
        assert httpx.post(f"{server}/api/tables", json={"players": 2}, timeout=30).status_code == 201


def test_a_sqlite_file_locked_by_another_process_gives_503_and_freezes_nothing(tmp_path: Path) -> None:
    database = tmp_path / "sakura.db"
    with running_server(database, LIMITS) as server:
        other = sqlite3.connect(database, timeout=0, check_same_thread=False)

        def create() -> httpx.Response:
            other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
            try:
                return httpx.post(f"{server}/api/tables", json={"players": 2}, timeout=30)
            finally:
                time.sleep(0.3)

        pings, response = _pings_while(server, create)
        other.rollback()
        other.close()
        assert response.status_code == 503 and response.json()["code"] == "storage"
        assert "Traceback" not in response.text
        assert len(pings) >= 5 and max(pings) < 0.25, pings
        assert httpx.post(f"{server}/api/tables", json={"players": 2}, timeout=30).status_code == 201
