"""Every table and action is stored: a restarted server resumes every game where it was.

Run on SQLite always, and on PostgreSQL where a server is reachable."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient
from tests.server.conftest import ScriptedPlayer, create_table, receive, socket

from sakura.records import GameRecord, replay
from sakura.server import create_app


def _after(seq: int) -> Any:
    return lambda message: message.get("seq", 0) >= seq and message["type"] == "update"


def test_restart_mid_game_then_finish_the_game(database_url: str) -> None:
    with TestClient(create_app(database_url)) as client:
        created = create_table(client, 4, ["human", "easy", "medium", "easy"])
        table_id, token = created["table"]["id"], created["token"]
        ScriptedPlayer(client, table_id, token, seed=9, stop_when=_after(20)).start().join()
        with socket(client, table_id, token) as (ws, welcome):
            before = welcome
            while set(before["view"]["current_players"]) - {0}:  # until the bots have played
                before = receive(ws, "update")
        with_bots = create_table(client, 3, ["human", "easy", "easy"])
        bots_only, bots_token = with_bots["table"]["id"], with_bots["token"]
    assert not before["view"]["terminal"] and before["seq"] >= 20
    with TestClient(create_app(database_url)) as client:  # a new server on the same database
        with socket(client, table_id, token) as (_, after):
            assert after["view"] == before["view"] and after["seq"] == before["seq"]
        player = ScriptedPlayer(client, table_id, token, seed=10).start()
        player.join()
        assert not player.errors and player.last_view is not None and player.last_view["terminal"]
        record = GameRecord.loads(client.get(f"/api/tables/{table_id}/record").text)
        assert replay(record).is_terminal()
        seated = ScriptedPlayer(client, bots_only, bots_token, seed=11).start()  # the other table too
        watcher = ScriptedPlayer(client, bots_only, None).start()
        watcher.join()
        seated.join()  # every socket is closed before the server stops (else its exit can hang)
        assert watcher.last_view is not None and watcher.last_view["terminal"]
    with TestClient(create_app(database_url)) as client:  # finished games stay downloadable
        assert client.get(f"/api/tables/{table_id}/record").status_code == 200
        assert table_id in client.get("/api/tables").json()["finished"]
        steps = client.get(f"/api/tables/{table_id}/replay").json()["steps"]
        assert len(steps) == len(record.moves) + 1 and steps[-1]["view"]["terminal"]


def test_claimed_seats_and_tokens_survive_a_restart(database_url: str) -> None:
    with TestClient(create_app(database_url)) as client:
        created = create_table(client, 2, ["human", "human"])
        table_id = created["table"]["id"]
    with TestClient(create_app(database_url)) as client:
        with socket(client, table_id, created["token"]) as (_, welcome):
            assert welcome["seat"] == 0
        assert client.post(f"/api/tables/{table_id}/join", json={"seat": 0}).status_code == 409
        assert client.post(f"/api/tables/{table_id}/join", json={}).json()["seat"] == 1


def test_a_database_from_before_the_card_game_is_upgraded_in_place(sqlite_url: str) -> None:
    """Older databases have no ``game`` column: the store adds it, and their tables (all of
    them Sakura's) load and play on."""
    from sqlalchemy import create_engine, text

    from sakura.server.db import Store

    engine = create_engine(sqlite_url)
    with engine.begin() as conn:
        conn.execute(
            text(
                "CREATE TABLE sakura_tables (id VARCHAR(32) PRIMARY KEY, config JSON, "
                "seed BIGINT, seats JSON, timer FLOAT, status VARCHAR(16), rematch VARCHAR(32), "
                "created DATETIME)"
            )
        )
        bot = {"kind": "bot", "bot": "random", "level": "easy"}
        values = {"config": json.dumps({"players": 3, "variant": "standard"}), "seats": json.dumps([bot] * 3)}
        conn.execute(
            text(
                "INSERT INTO sakura_tables VALUES ('old', :config, 7, :seats, NULL, 'playing', "
                "NULL, '2026-11-01 10:00:00')"
            ),
            values,
        )
    engine.dispose()
    store = Store(sqlite_url)
    try:
        stored = store.load("old")
        assert stored is not None and stored.game == "sakura" and stored.config["players"] == 3
    finally:
        store.close()
    with TestClient(create_app(sqlite_url)) as client:
        watcher = ScriptedPlayer(client, "old", None).start()
        watcher.join()
        assert watcher.last_view is not None and watcher.last_view["terminal"]
