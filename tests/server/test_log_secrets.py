"""No secret in the log when the database fails (issue #12, item 8): SQLAlchemy's error text
used to carry the statement's parameters — a seat's card pick before the reveal, and on a
failed create the table's seed and its seats' token hashes. The engine hides parameters, and
the server logs one line of what went wrong."""

from __future__ import annotations

import json
import logging

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert
from tests.server.conftest import create_table, receive, socket

from sakura.server import create_app
from sakura.server import lobby as lobby_module
from sakura.server.db import ActionRow, now


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
