"""Presence without a storm, seats without surprises (issue #12, items 3 and 5).

The ``table`` message goes out only when who is seated or present changes: a spectator coming
or going changes nothing of it. Connections are capped per table and per client address, with
a clear refusal. A seat whose player has gone may be handed to a bot only after it has been
empty for the grace period (shown to everyone as ``replace_after``), and the seat is given back
the moment its player returns.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.server.conftest import create_table, join, receive, socket, wait_until

from sakura.server import create_app
from sakura.server.limits import Limits


def _drain(ws: Any) -> list[dict[str, Any]]:
    """Every message the server sends until our own ping comes back."""
    ws.send_text(json.dumps({"type": "ping"}))
    got = []
    while (message := ws.receive_json())["type"] != "pong":
        got.append(message)
    return got


def test_spectators_coming_and_going_send_the_players_nothing(client: TestClient) -> None:
    created = create_table(client, 2, ["human", "human"])
    table_id, token = created["table"]["id"], created["token"]
    with socket(client, table_id, token) as (player, _):
        _drain(player)
        for _ in range(20):
            with socket(client, table_id, None) as (_, welcome):
                assert welcome["seat"] is None
        # (the player's own chat history may come late) before: 40 table messages, one per
        # connect and per close
        assert [m for m in _drain(player) if m["type"] != "chat_history"] == []
        second = join(client, table_id)  # a seat taken: that is news
        with socket(client, table_id, second):
            news = [m for m in _drain(player) if m["type"] == "table"]
            assert [s["connected"] for s in news[-1]["table"]["seats"]] == [True, True]
        news = [m for m in _drain(player) if m["type"] == "table"]
        assert len(news) == 1 and news[0]["table"]["seats"][1]["connected"] is False


def test_connections_are_capped_per_table_and_per_address(sqlite_url: str) -> None:
    limits = Limits(connections_per_table=3, connections_per_address=5)
    with TestClient(create_app(sqlite_url, limits)) as client:
        first = create_table(client, 2, ["human", "easy"])["table"]["id"]
        other = create_table(client, 2, ["human", "easy"])["table"]["id"]
        with socket(client, first, None), socket(client, first, None), socket(client, first, None):
            with client.websocket_connect(f"/ws/{first}") as ws:
                ws.send_text(json.dumps({"type": "hello"}))
                refusal = receive(ws, "error")
                assert refusal["code"] == "full" and "try again later" in refusal["message"]
            with (
                socket(client, other, None),
                socket(client, other, None),
                client.websocket_connect(f"/ws/{other}") as ws,
            ):  # the sixth from this address
                refusal = ws.receive_json()
                assert refusal["code"] == "too_many" and "your address" in refusal["message"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws.receive_json()
                assert closed.value.code == 1013
        with socket(client, other, None) as (_, welcome):  # all closed: room again
            assert welcome["type"] == "welcome"


def test_a_seat_is_handed_to_a_bot_only_after_the_grace_period(sqlite_url: str) -> None:
    grace = 1.5
    with TestClient(create_app(sqlite_url, Limits(replace_grace=grace))) as client:
        created = create_table(client, 2, ["human", "human"])
        table_id, first = created["table"]["id"], created["token"]
        second = join(client, table_id)
        with socket(client, table_id, first) as (ws, _):
            with socket(client, table_id, second):  # the opponent is here, then reloads the page
                pass
            left = time.time()
            ws.send_text(json.dumps({"type": "replace", "seat": 1}))
            refusal = receive(ws, "error")
            assert refusal["code"] == "grace" and "a bot may take over in" in refusal["message"]
            seats = client.get(f"/api/tables/{table_id}").json()["seats"]
            assert seats[1]["replaced"] is False
            assert left - 0.5 < seats[1]["replace_after"] - grace < left + 0.5  # everyone sees when
            assert seats[0]["replace_after"] is None  # seat 0 is here
            wait_until(lambda: time.time() > seats[1]["replace_after"], what="the end of the grace")
            ws.send_text(json.dumps({"type": "replace", "seat": 1}))
            update = receive(ws, "table")
            assert update["table"]["seats"][1]["replaced"] is True
            with socket(client, table_id, second) as (_, back):  # the player returns: seat given back
                assert back["table"]["seats"][1]["replaced"] is False
                assert client.get(f"/api/tables/{table_id}").json()["seats"][1]["replaced"] is False


def test_an_untaken_seat_cannot_be_handed_to_a_bot(client: TestClient) -> None:
    created = create_table(client, 2, ["human", "human"])
    with socket(client, created["table"]["id"], created["token"]) as (ws, _):
        ws.send_text(json.dumps({"type": "replace", "seat": 1}))
        assert "may still join" in receive(ws, "error")["message"]


def test_a_flood_of_messages_is_refused_then_closed(sqlite_url: str) -> None:
    limits = Limits(messages_per_second=5, message_burst=5, flood_close=50)
    with TestClient(create_app(sqlite_url, limits)) as client:
        created = create_table(client, 2, ["human", "easy"])
        with socket(client, created["table"]["id"], created["token"]) as (ws, _):
            for _ in range(60):
                ws.send_text(json.dumps({"type": "ping"}))
            kinds: list[str] = []
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    message = ws.receive_json()
                    kinds.append(message["type"] if message["type"] != "error" else message["code"])
            assert closed.value.code == 1008
            assert "pong" in kinds and "rate_limited" in kinds
            assert kinds.count("pong") <= 10  # the burst and what refilled meanwhile
