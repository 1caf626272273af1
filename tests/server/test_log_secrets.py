"""No secret in the log when the database fails (issue #12, item 8): SQLAlchemy's error text
used to carry the statement's parameters — a seat's card pick before the reveal, and on a
failed create the table's seed and its seats' token hashes. The engine hides parameters, and
the server logs one line of what went wrong."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert
from tests.server.conftest import create_table, receive, socket

from sakura.server import create_app
from sakura.server import lobby as lobby_module
from sakura.server.db import ActionRow, now
from sakura.server.logs import JsonFormatter


def test_a_failed_action_write_logs_no_pick(database_url: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    with TestClient(create_app(database_url)) as client:
        created = create_table(client, 2, ["human", "human"])
        table_id = created["table"]["id"]
        store = client.app.state.lobby.store  # type: ignore[attr-defined]
        with store.engine.begin() as conn:  # the row the next action would take: its insert fails
            conn.execute(
                insert(ActionRow).values(table_id=table_id, seq=1, seat=1, action="x", by="player", at=now())
            )
        with socket(client, table_id, created["token"]) as (ws, welcome):
            pick = welcome["view"]["legal_actions"][3]
            ws.send_text(json.dumps({"type": "act", "action": pick}))
            assert receive(ws, "error")["code"] == "storage"
    logged = caplog.text
    assert "could not store action 1" in logged
    assert pick not in logged and "play " not in logged


def test_a_failed_create_logs_no_seed_and_no_token_hash(
    sqlite_url: str, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.DEBUG)
    with TestClient(create_app(sqlite_url)) as client:
        first = create_table(client, 2, ["human", "easy"])["table"]["id"]
        monkeypatch.setattr(lobby_module.secrets, "token_urlsafe", lambda _n: first)  # a clash of ids
        monkeypatch.setattr(lobby_module.secrets, "randbits", lambda _n: 271828182845904523)
        response = client.post("/api/tables", json={"players": 2})
        assert response.status_code == 503 and "Traceback" not in response.text
    logged = caplog.text
    assert "creating a table failed" in logged
    assert "271828182845904523" not in logged and "token_hash" not in logged and "INSERT" not in logged


# ---------------------------------------------------------------- sakura serve --log-format json


def _json_lines(text: str) -> list[dict[str, Any]]:
    """Every line of the log, each a JSON object with the four fields every line has."""
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    for line in lines:
        assert {"time", "level", "logger", "event"} <= set(line), line
    return lines


def test_json_lines_of_a_failed_action_hold_no_pick(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    caplog.handler.setFormatter(JsonFormatter())
    with TestClient(create_app(sqlite_url)) as client:
        created = create_table(client, 2, ["human", "human"])
        table_id = created["table"]["id"]
        store = client.app.state.lobby.store  # type: ignore[attr-defined]
        with store.engine.begin() as conn:
            conn.execute(
                insert(ActionRow).values(table_id=table_id, seq=1, seat=1, action="x", by="player", at=now())
            )
        with socket(client, table_id, created["token"]) as (ws, welcome):
            pick = welcome["view"]["legal_actions"][3]
            ws.send_text(json.dumps({"type": "act", "action": pick}))
            assert receive(ws, "error")["code"] == "storage"
    lines = _json_lines(caplog.text)
    assert any("could not store action 1" in line["event"] and line["level"] == "error" for line in lines)
    assert pick not in caplog.text and created["token"] not in caplog.text


def test_json_lines_of_accounts_hold_no_password_session_or_token(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Sign-up, a wrong password, log-in, a rated table's seat and log-out, logged at DEBUG in
    JSON: no password, no session cookie, no CSRF token, no seat token."""
    caplog.set_level(logging.DEBUG)
    caplog.handler.setFormatter(JsonFormatter())
    password, wrong = "correct horse battery staple", "tr0ub4dor&3 wrong"
    with TestClient(create_app(sqlite_url)) as client:
        assert client.post("/api/signup", json={"username": "Ada", "password": password}).status_code == 201
        me = client.get("/api/me").json()
        client.post("/api/logout", headers={"x-csrf-token": me["csrf"]})
        assert client.post("/api/login", json={"username": "Ada", "password": wrong}).status_code == 401
        assert client.post("/api/login", json={"username": "Ada", "password": password}).status_code == 200
        session = dict(client.cookies)
        csrf = client.get("/api/me").json()["csrf"]
        created = client.post(
            "/api/tables",
            json={"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]},
            headers={"x-csrf-token": csrf},
        )
        assert created.status_code == 201, created.text
    text = caplog.text
    assert len(_json_lines(text)) >= 3, text  # (the requests, the table created: something to read)
    secrets = [password, wrong, csrf, created.json()["token"], *session.values()]
    assert session and all(secret not in text for secret in secrets)


def test_fields_named_for_secrets_are_redacted() -> None:
    record = logging.LogRecord("sakura.server", logging.INFO, __file__, 1, "signed in %s", ("Ada",), None)
    record.__dict__.update(password="hunter2", session_cookie="abc", table="t1")
    line = json.loads(JsonFormatter().format(record))
    assert line["event"] == "signed in Ada" and line["level"] == "info" and line["logger"] == "sakura.server"
    assert (
        line["password"] == "[redacted]" and line["session_cookie"] == "[redacted]" and line["table"] == "t1"
    )
    assert "hunter2" not in JsonFormatter().format(record)
