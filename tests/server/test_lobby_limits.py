"""A bounded lobby (issue #12, items 6, 7 and 9): tables need a player, creation is rate-limited
per client and capped per process, finished tables leave memory (not the database), the lists
come in pages, a damaged stored table does not stop the server, and hostile ids get a 404."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from starlette.websockets import WebSocketDisconnect
from tests.server.conftest import ScriptedPlayer, create_table

from sakura.records import GameRecord, replay
from sakura.server import create_app
from sakura.server.db import Store, StoredTable
from sakura.server.limits import Limits


def test_table_creation_is_rate_limited_per_client(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, Limits(creates_per_minute=3))) as client:
        for _ in range(3):
            create_table(client, 2, ["human", "easy"])
        refused = client.post("/api/tables", json={"players": 2})
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
        assert "try again in" in refused.json()["detail"] and int(refused.headers["retry-after"]) >= 1
        assert len(client.get("/api/tables").json()["open"]) == 3


def test_a_process_holds_at_most_its_live_tables(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, Limits(live_tables=2))) as client:
        create_table(client, 2, ["human", "easy"])
        create_table(client, 2, ["human", "easy"])
        refused = client.post("/api/tables", json={"players": 2})
        assert refused.status_code == 503 and refused.json()["code"] == "full"
        assert "server is full" in refused.json()["detail"]


def test_finished_tables_leave_memory_and_come_back_when_asked_for(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, Limits(finished_linger=0))) as client:
        created = create_table(client, 2, ["human", "easy"])
        table_id = created["table"]["id"]
        ScriptedPlayer(client, table_id, created["token"], seed=3).start().join()
        lobby = client.app.state.lobby  # type: ignore[attr-defined]
        assert lobby.tables[table_id].status == "finished"
        assert lobby.sweep() == 1 and table_id not in lobby.tables
        assert table_id in client.get("/api/tables").json()["finished"]
        record = GameRecord.loads(client.get(f"/api/tables/{table_id}/record").text)  # loaded again
        assert replay(record).is_terminal() and table_id in lobby.tables


def test_the_lobby_lists_come_in_pages(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, Limits(lobby_page=2, lobby_cache_seconds=0))) as client:
        ids = {create_table(client, 2, ["human", "easy"])["table"]["id"] for _ in range(5)}
        pages = [client.get("/api/tables", params={"page": p}).json() for p in range(4)]
        assert [len(p["open"]) for p in pages] == [2, 2, 1, 0] and pages[0]["page_size"] == 2
        assert {t["id"] for p in pages for t in p["open"]} == ids
        assert client.get("/api/tables", params={"page": -1}).status_code == 422


def test_a_damaged_table_does_not_stop_the_server(sqlite_url: str) -> None:
    """One stored action that does not replay: the server starts, that table is shown as
    damaged (its record, as far as it replays, downloadable) and the others play on."""
    with TestClient(create_app(sqlite_url)) as client:
        good = create_table(client, 2, ["human", "easy"])
        bad = create_table(client, 2, ["human", "easy"])
        ScriptedPlayer(
            client, bad["table"]["id"], bad["token"], seed=1, stop_when=lambda m: m.get("seq", 0) >= 4
        ).start().join()
    store = Store(sqlite_url)
    with store.engine.begin() as conn:
        conn.execute(
            text("UPDATE sakura_actions SET action = 'play 99' WHERE table_id = :t AND seq = 3"),
            {"t": bad["table"]["id"]},
        )
    store.close()
    with TestClient(create_app(sqlite_url)) as client:
        info = client.get(f"/api/tables/{bad['table']['id']}").json()
        assert info["status"] == "damaged" and info["damaged"] is True and info["seq"] == 2
        record = GameRecord.loads(client.get(f"/api/tables/{bad['table']['id']}/record").text)
        assert len(record.moves) == 2
        with client.websocket_connect(f"/ws/{bad['table']['id']}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": bad["token"]}))
            assert ws.receive_json()["type"] == "welcome"
            ws.send_text(json.dumps({"type": "act", "action": "play 1"}))
            while (message := ws.receive_json())["type"] != "error":
                pass
            assert message["code"] == "damaged"
        player = ScriptedPlayer(client, good["table"]["id"], good["token"], seed=2).start()
        player.join()
        assert player.last_view is not None and player.last_view["terminal"]


def test_an_unreadable_table_row_is_left_out_and_the_rest_load(sqlite_url: str) -> None:
    store = Store(sqlite_url)
    created = dt.datetime.now(dt.UTC)
    store.create_table(
        StoredTable("broken", {"players": 2}, 1, [{"kind": "human"}], None, "playing", None, created, [])
    )
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    store.create_table(StoredTable("fine", {"players": 2}, 1, seats, None, "playing", None, created, []))
    with store.engine.begin() as conn:  # a seat the code cannot make
        conn.execute(text("UPDATE sakura_tables SET seats = '[{\"colour\": 3}]' WHERE id = 'broken'"))
    store.close()
    with TestClient(create_app(sqlite_url)) as client:
        assert client.get("/api/tables/fine").status_code == 200
        assert [t["id"] for t in client.get("/api/tables").json()["open"]] == ["fine"]


def test_hostile_table_ids_are_not_found(database_url: str) -> None:
    """A NUL in an id gave a 500 on PostgreSQL (its driver refuses NUL in a string)."""
    with TestClient(create_app(database_url)) as client:
        for table_id in ("a%00b", "x" * 33, "a%20b", "%C3%A9t%C3%A9", "a%0Ab"):
            for path in (
                f"/api/tables/{table_id}",
                f"/api/tables/{table_id}/record",
                f"/api/tables/{table_id}/replay",
            ):
                response = client.get(path)
                assert response.status_code == 404, (path, response.text)
                assert response.json()["code"] == "no_table"
            assert client.post(f"/api/tables/{table_id}/join", json={}).status_code == 404


def test_a_socket_to_an_unknown_table_is_closed_with_a_code_and_a_reason(client: TestClient) -> None:
    for table_id in ("nosuchtable", "a%00b"):
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            assert ws.receive_json()["code"] == "no_table"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4404 and closed.value.reason == "no such table"
