"""The limits only a real server can enforce, against a live uvicorn on loopback configured as
``sakura serve`` configures it (issue #12, items 2, 4 and 9).

Each attack is bounded: a few connections, a few seconds, loopback only.
"""

from __future__ import annotations

import json
import logging
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.live_server import SERVERS, running_server
from tests.server.rawsocket import RawWebSocket
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from sakura.server.limits import LOOPBACK_HOSTS, Limits


@pytest.fixture
def server_options() -> dict[str, Any]:
    """The shared ``server`` (tests/conftest.py) configured as these attacks need: short
    header and ping deadlines, a small outbox."""
    limits = Limits(allowed_hosts=LOOPBACK_HOSTS, header_seconds=0.5, outbox_messages=8)
    return {"limits": limits, "ws_ping_interval": 0.5, "ws_ping_timeout": 0.5}


def _table(server: str, seats: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"players": 2} if seats is None else {"players": len(seats), "seats": seats}
    response = httpx.post(f"{server}/api/tables", json=body, timeout=30)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def _ws(server: str, table_id: str) -> str:
    return server.replace("http://", "ws://") + f"/ws/{table_id}"


def _connected(server: str, table_id: str) -> list[bool]:
    return [s["connected"] for s in httpx.get(f"{server}/api/tables/{table_id}", timeout=10).json()["seats"]]


def _cut_off(raw: socket.socket) -> bool:
    """Whether the server closed ``raw`` (or does within its timeout), having answered nothing."""
    try:
        return raw.recv(1024) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def _until(condition: Any, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_a_websocket_message_over_8_kib_is_refused_by_the_server(server: str) -> None:
    table = _table(server)["table"]["id"]
    with connect(_ws(server, table), max_size=None) as ws:
        ws.send(json.dumps({"type": "hello", "pad": "x" * 9000}))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # message too big
    with connect(_ws(server, table)) as ws:  # the server is fine
        ws.send(json.dumps({"type": "hello"}))
        assert json.loads(ws.recv(timeout=10))["type"] == "welcome"


def test_a_request_body_over_16_kib_is_refused_before_it_is_read(server: str) -> None:
    big = b"{" + b" " * 20_000 + b"}"
    response = httpx.post(f"{server}/api/tables", content=big, headers={"content-type": "application/json"})
    assert response.status_code == 413 and response.json()["code"] == "too_large"

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        yield b'{"players": 2, "pad": "'
        for _ in range(40):
            yield b"x" * 1000
        yield b'"}'

    response = httpx.post(
        f"{server}/api/tables", content=chunks(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413
    assert httpx.get(f"{server}/api/tables").json()["open"] == []


def test_half_sent_headers_are_cut_off(server: str) -> None:
    host, port = server.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as raw:
        raw.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        assert _cut_off(raw), "a half-sent request was kept open"  # after 0.5 s, not forever


def test_a_body_sent_byte_by_byte_is_cut_off(server: str) -> None:
    """Complete headers, then a body that never ends: the whole request had its 0.5 s."""
    host, port = server.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as raw:
        raw.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000\r\n\r\n{"
        )
        cut = False
        try:
            for _ in range(40):  # a byte every 0.1 s: the attack's own pace, for up to 4 s
                raw.sendall(b" ")
                time.sleep(0.1)
        except (BrokenPipeError, ConnectionResetError):
            cut = True
        assert cut or _cut_off(raw), "a body that never ends was kept open"  # after 0.5 s, not forever
    assert _table(server)["table"]["id"]  # the server is fine


def test_stopping_cuts_off_what_is_still_open_after_shutdown_seconds(tmp_path: Path) -> None:
    """A request still arriving when the server is told to stop: uvicorn would wait for it
    forever; it is cut off after ``shutdown_seconds`` and the server stops."""
    limits = Limits(allowed_hosts=LOOPBACK_HOSTS, header_seconds=60, shutdown_seconds=1)
    with running_server(tmp_path / "sakura.db", limits) as url:
        host, port = url.removeprefix("http://").split(":")
        raw = socket.create_connection((host, int(port)), timeout=5)
        raw.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000\r\n\r\n{"
        )
        uvicorn = SERVERS[url]
        assert _until(lambda: uvicorn.server_state.connections, 10), "the request never arrived"
    # running_server's exit has asserted that the server stopped (it waits 30 s; uvicorn alone
    # waits for the request forever): the request was cut off
    raw.close()


def test_security_headers_and_the_host_check(server: str) -> None:
    page = httpx.get(server)
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    assert page.headers["x-content-type-options"] == "nosniff" and page.headers["x-frame-options"] == "DENY"
    port = server.rsplit(":", 1)[1]
    rebound = httpx.get(server, headers={"host": f"attacker.example:{port}"})
    assert rebound.status_code == 400 and rebound.json()["code"] == "bad_host"
    assert httpx.get(server, headers={"host": f"localhost:{port}"}).status_code == 200


def test_a_socket_from_another_site_is_refused(server: str) -> None:
    table = _table(server)["table"]["id"]
    foreign = RawWebSocket(_ws(server, table), origin="http://attacker.example")
    assert foreign.status == 403
    foreign.close()
    own = RawWebSocket(_ws(server, table), origin=server)
    assert own.status == 101
    own.close()


def test_invalid_utf8_frames_log_one_line_each(server: str, caplog: pytest.LogCaptureFixture) -> None:
    table = _table(server)["table"]["id"]
    caplog.set_level(logging.INFO, logger="uvicorn.error")
    for _ in range(3):
        raw = RawWebSocket(_ws(server, table))
        raw.send_frame(b"\xff\xfe not utf-8")
        assert raw.closed_by_server(5)
        raw.close()
    records = [r for r in caplog.records if "UTF-8" in r.getMessage()]
    assert len(records) == 3 and all(r.exc_info is None and r.exc_text is None for r in records)


def test_a_player_who_stops_reading_is_let_go_and_the_seat_shows_it(server: str) -> None:
    """Pings unanswered (it reads nothing, so it answers nothing): the server aborts the socket
    and the seat is no longer shown as connected."""
    created = _table(server)
    table, token = created["table"]["id"], created["token"]
    raw = RawWebSocket(_ws(server, table), receive_buffer=4096)
    raw.send_text(json.dumps({"type": "hello", "token": token}))
    assert _until(lambda: _connected(server, table)[0], 5)
    for _ in range(10):  # it keeps talking, never listening
        try:
            raw.send_text(json.dumps({"type": "ping"}))
        except (BrokenPipeError, ConnectionResetError):
            break  # already let go (a loaded machine: the server's ping timed out first)
        time.sleep(0.1)
    assert _until(lambda: not _connected(server, table)[0], 10)
    raw.close()


def test_a_watcher_who_does_not_read_is_dropped_instead_of_queued_forever(tmp_path: Path) -> None:
    """Keepalive off: only the bounded outbox lets go of a watcher whose socket backs up while
    a game is played in front of it.

    The bound applies to the reading player too: at 4 messages a burst of the five bots' moves
    outran this test's own reads on a loaded machine (CI dropped the player once), so it is 32,
    still far fewer than the game sends a watcher that reads nothing."""
    limits = Limits(
        allowed_hosts=LOOPBACK_HOSTS, outbox_messages=32, outbox_bytes=64 * 1024, ws_send_buffer_bytes=4096
    )
    with running_server(tmp_path / "sakura.db", limits, ws_ping_interval=None) as server:
        created = _table(server, [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 5)
        table, token = created["table"]["id"], created["token"]
        watchers = []
        for _ in range(3):
            raw = RawWebSocket(_ws(server, table), receive_buffer=2048)
            raw.send_text(json.dumps({"type": "hello"}))
            watchers.append(raw)
        with connect(_ws(server, table)) as player:
            player.send(json.dumps({"type": "hello", "token": token}))
            view: dict[str, Any] = {}
            acted = None
            while not view.get("terminal"):
                message = json.loads(player.recv(timeout=30))
                if message["type"] == "error":
                    acted = None  # refused (the view moved on): act again on the latest one
                view = message.get("view") or view
                if view.get("legal_actions") and acted != message.get("seq", acted):
                    player.send(json.dumps({"type": "act", "action": view["legal_actions"][0]}))
                    acted = message.get("seq")
            lobby_table = httpx.get(f"{server}/api/tables/{table}").json()
        assert lobby_table["status"] == "finished"
        dropped = sum(w.closed_by_server(15) for w in watchers)  # a close frame, or aborted after 10 s
        assert dropped == len(watchers)
        for w in watchers:
            w.close()
