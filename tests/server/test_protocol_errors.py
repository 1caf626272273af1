"""Malformed and illegal messages get an ``error`` and change nothing; a seat is its token."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient
from tests.server.conftest import create_table, join, receive, socket


def test_malformed_messages_are_refused_and_change_nothing(client: TestClient) -> None:
    created = create_table(client, 2, ["human", "human"])
    table_id = created["table"]["id"]
    with socket(client, table_id, created["token"]) as (ws, welcome):
        for bad in [
            "not json",
            "[]",
            '{"type": "dance"}',
            '{"type": "act"}',
            '{"type": "act", "action": 17}',
            '{"type": "act", "action": "play 1", "seat": 1}',
            "x" * 5000,
        ]:
            ws.send_text(bad)
            error = receive(ws, "error")
            assert error["code"] == "malformed", bad
        ws.send_bytes(b"\xff\xfe")
        assert receive(ws, "error")["code"] == "malformed"
        ws.send_text(json.dumps({"type": "hello", "token": None}))
        assert receive(ws, "error")["code"] == "hello_again"
        ws.send_text(json.dumps({"type": "ping"}))
        assert receive(ws, "pong") == {"type": "pong"}
    assert client.get(f"/api/tables/{table_id}").json()["seq"] == 0
    with socket(client, table_id, created["token"]) as (_, again):
        assert again["view"] == welcome["view"]


def test_illegal_actions_get_the_engines_reason(client: TestClient) -> None:
    created = create_table(client, 2, ["human", "human"])
    with socket(client, created["table"]["id"], created["token"]) as (ws, welcome):
        hand = welcome["view"]["hand"]
        missing = next(n for n in range(1, 61) if n not in hand)
        for action, words in [
            (f"play {missing}", "not in player 1's hand"),
            ("forward", "no choice is pending"),
            ("jump around", "not an action"),
        ]:
            ws.send_text(json.dumps({"type": "act", "action": action}))
            error = receive(ws, "error")
            assert error["code"] == "illegal" and words in error["message"]
        ws.send_text(json.dumps({"type": "act", "action": f"play {hand[0]}"}))
        assert receive(ws, "update")["seq"] == 1
        ws.send_text(json.dumps({"type": "act", "action": f"play {hand[1]}"}))  # already chosen
        assert receive(ws, "error")["code"] == "illegal"


def test_the_first_message_must_be_hello_and_a_bad_token_opens_nothing(client: TestClient) -> None:
    created = create_table(client, 2, ["human", "human"])
    table_id = created["table"]["id"]
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        ws.send_text(json.dumps({"type": "act", "action": "forward"}))
        assert receive(ws, "error")["code"] == "no_hello"
        ws.send_text(json.dumps({"type": "hello", "token": "guessed-token"}))
        assert receive(ws, "error")["code"] == "bad_token"
    with client.websocket_connect("/ws/nosuchtable") as ws:
        assert receive(ws, "error")["code"] == "no_table"


def test_a_client_can_never_act_for_another_seat(client: TestClient) -> None:
    """The seat comes from the token alone: seat 0 cannot play seat 1's cards, and there is
    no field in which to name another seat."""
    created = create_table(client, 2, ["human", "human"])
    table_id = created["table"]["id"]
    token_b = join(client, table_id)
    with (
        socket(client, table_id, token_b) as (_, welcome_b),
        socket(client, table_id, created["token"]) as (ws_a, welcome_a),
    ):
        theirs = welcome_b["view"]["hand"][0]
        ws_a.send_text(json.dumps({"type": "act", "action": f"play {theirs}"}))
        assert "not in player 1's hand" in receive(ws_a, "error")["message"]
        ws_a.send_text(json.dumps({"type": "act", "action": f"play {theirs}", "seat": 1}))
        assert receive(ws_a, "error")["code"] == "malformed"
        assert welcome_a["view"]["hand"] != welcome_b["view"]["hand"]
    assert client.get(f"/api/tables/{table_id}").json()["seq"] == 0


def test_a_spectator_sees_the_public_view_and_cannot_act(client: TestClient) -> None:
    created = create_table(client, 3, ["human", "human", "easy"])
    with socket(client, created["table"]["id"], None) as (ws, welcome):
        assert welcome["seat"] is None
        view = welcome["view"]
        assert view["hand"] is None and view["my_choice"] is None and view["legal_actions"] == []
        ws.send_text(json.dumps({"type": "act", "action": "forward"}))
        assert receive(ws, "error")["code"] == "not_seated"
        ws.send_text(json.dumps({"type": "replace", "seat": 1}))
        assert receive(ws, "error")["code"] == "not_seated"


def test_lobby_requests_are_validated(client: TestClient) -> None:
    assert client.post("/api/tables", json={"players": 7}).status_code == 422
    assert client.post("/api/tables", json={"players": 3, "variant": "court"}).status_code == 400
    assert client.post("/api/tables", json={"players": 2, "seats": [{"kind": "human"}]}).status_code == 422
    bot = {"kind": "bot", "level": "godlike"}
    assert client.post("/api/tables", json={"players": 2, "seats": [bot, bot]}).status_code == 422
    created = create_table(client, 2, ["human", "easy"])
    assert client.post(f"/api/tables/{created['table']['id']}/join", json={}).status_code == 409
    assert client.get("/api/tables/nope").status_code == 404
    assert client.get(f"/api/tables/{created['table']['id']}/record").status_code == 409
