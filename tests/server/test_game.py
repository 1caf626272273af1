"""Whole games through real WebSocket connections: scripted players, bots and a spectator."""

from __future__ import annotations

from fastapi.testclient import TestClient
from tests.server.conftest import ScriptedPlayer, create_table, join

from sakura.records import GameRecord, replay


def test_a_full_four_seat_game_of_two_scripted_players_two_bots_and_a_spectator(client: TestClient) -> None:
    created = create_table(client, 4, ["human", "human", "easy", "medium"])
    table_id = created["table"]["id"]
    assert created["seat"] == 0
    second = join(client, table_id)
    players = [
        ScriptedPlayer(client, table_id, created["token"], seed=1),
        ScriptedPlayer(client, table_id, second, seed=2),
        ScriptedPlayer(client, table_id, None),
    ]
    for p in players:
        p.start()
    for p in players:
        p.join()
    alice, bob, watcher = players
    assert (alice.seat, bob.seat, watcher.seat) == (0, 1, None)
    assert not alice.errors and not bob.errors and not watcher.errors
    finals = [p.last_view for p in players]
    assert all(v is not None and v["terminal"] for v in finals)
    assert finals[0]["outcome"] == finals[1]["outcome"] == finals[2]["outcome"]  # type: ignore[index]
    assert finals[2]["hand"] is None and finals[2]["legal_actions"] == []  # type: ignore[index]
    info = client.get(f"/api/tables/{table_id}").json()
    assert info["status"] == "finished"
    # The record of the finished game replays through the engine.
    record = GameRecord.loads(client.get(f"/api/tables/{table_id}/record").text)
    assert record.seed is None and len(record.moves) == info["seq"]
    assert replay(record).outcome().to_dict() == finals[0]["outcome"]  # type: ignore[union-attr,index]


def test_a_table_with_bots_can_be_watched_to_the_end(client: TestClient) -> None:
    created = create_table(client, 3, ["human", "medium", "easy"])
    player = ScriptedPlayer(client, created["table"]["id"], created["token"], seed=4).start()
    watcher = ScriptedPlayer(client, created["table"]["id"], None).start()
    player.join()
    watcher.join()
    assert watcher.last_view is not None and watcher.last_view["terminal"]


def test_a_table_of_bots_only_is_refused(client: TestClient) -> None:
    """Bot-only games are what ``sakura tournament`` is for: on a server they only burn CPU."""
    bots = [{"kind": "bot", "level": "hard"}] * 3
    response = client.post("/api/tables", json={"players": 3, "seats": bots})
    assert response.status_code == 400 and response.json()["code"] == "bad_table"
    assert "tournament" in response.json()["detail"]
    assert client.get("/api/tables").json()["open"] == []


def test_two_players_with_the_court_painter_and_the_tactical_variant(client: TestClient) -> None:
    for variant in ("court", "tactical"):
        created = create_table(client, 2, ["human", "medium"], variant=variant)
        p = ScriptedPlayer(client, created["table"]["id"], created["token"], seed=3).start()
        p.join()
        assert not p.errors and p.last_view is not None and p.last_view["terminal"]
        assert p.last_view["variant"] == variant
