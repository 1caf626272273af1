"""Closing the tab and coming back with the same token restores the exact view; presence,
the move timer, replacing a leaver by a bot, and the rematch."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient
from tests.server.conftest import (
    ScriptedPlayer,
    before_pong,
    create_table,
    join,
    receive,
    socket,
    wait_until,
)

from sakura.server import create_app
from sakura.server.limits import Limits


def _my_choice_pending(seat: int) -> Any:
    def stop(message: dict[str, Any]) -> bool:
        view = message.get("view")
        return bool(view and view["pending"] and view["pending"][0] == seat)

    return stop


def test_reconnecting_mid_choice_restores_the_exact_view(client: TestClient) -> None:
    for attempt in range(20):  # play until seat 0 is asked a choice (most games ask in round 1 or 2)
        created = create_table(client, 3, ["human", "easy", "easy"])
        table_id, token = created["table"]["id"], created["token"]
        player = ScriptedPlayer(
            client, table_id, token, seed=attempt, stop_when=_my_choice_pending(0)
        ).start()
        player.join()
        if player.last_view is not None and player.last_view["pending"]:
            break
    before = player.last_view
    assert before is not None and before["pending"][0] == 0 and before["legal_actions"] == ["forward", "back"]
    with socket(client, table_id, token) as (ws, welcome):
        assert welcome["seat"] == 0 and welcome["view"] == before
        ws.send_text(json.dumps({"type": "act", "action": "back"}))
        update = receive(ws, "update")
        assert update["seat"] == 0 and update["events"][0]["type"] == "choice_made"


def _shown(messages: list[dict[str, Any]], seat: int) -> list[bool]:
    """Whether ``seat`` was shown present, in each ``table`` message among ``messages``."""
    return [m["table"]["seats"][seat]["connected"] for m in messages if m["type"] == "table"]


def test_presence_is_shown_to_the_others(client: TestClient) -> None:
    created = create_table(client, 2, ["human", "human"])
    table_id = created["table"]["id"]
    token_b = join(client, table_id)

    def connected() -> list[bool]:
        return [s["connected"] for s in client.get(f"/api/tables/{table_id}").json()["seats"]]

    with socket(client, table_id, created["token"]) as (ws_a, _):
        with socket(client, table_id, token_b):  # B's welcome: the table was told B is here
            assert _shown(before_pong(ws_a), 1)[-1:] == [True]
        wait_until(lambda: not connected()[1], what="B's leaving")
        assert _shown(before_pong(ws_a), 1) == [False]


def test_a_bot_plays_for_a_timed_out_seat(client: TestClient) -> None:
    created = create_table(client, 2, ["human", "easy"], timer=1)
    with socket(client, created["table"]["id"], created["token"]) as (ws, welcome):
        assert welcome["deadline"] is not None
        while (update := receive(ws, "update"))["seat"] != 0:
            pass
        assert update["by"] == "timer" and update["action"].startswith("play ")


def test_a_leaver_is_replaced_by_a_bot_and_takes_the_seat_back(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, Limits(replace_grace=0))) as client:
        _replace_and_return(client)


def _replace_and_return(client: TestClient) -> None:
    created = create_table(client, 2, ["human", "human"])
    table_id = created["table"]["id"]
    token_b = join(client, table_id)
    with socket(client, table_id, created["token"]) as (ws, welcome):
        ws.send_text(json.dumps({"type": "replace", "seat": 0}))
        assert receive(ws, "error")["code"] == "bad_seat"  # seat 0 is here
        ws.send_text(json.dumps({"type": "replace", "seat": 1}))
        told = [m["table"]["seats"][1]["replaced"] for m in before_pong(ws) if m["type"] == "table"]
        assert told == [True]
        ws.send_text(json.dumps({"type": "act", "action": welcome["view"]["legal_actions"][0]}))
        bys = {(u := receive(ws, "update"))["seat"]: u["by"]}
        while 1 not in bys:
            bys[(u := receive(ws, "update"))["seat"]] = u["by"]
        assert bys[1] == "bot"
    with socket(client, table_id, token_b) as (_, back):
        assert back["table"]["seats"][1]["replaced"] is False


def test_rematch_gives_each_seated_player_the_same_seat_at_a_new_table(client: TestClient) -> None:
    created = create_table(client, 2, ["human", "easy"])
    table_id = created["table"]["id"]
    ScriptedPlayer(client, table_id, created["token"]).start().join()
    with socket(client, table_id, created["token"]) as (ws, welcome):
        assert welcome["view"]["terminal"]
        ws.send_text(json.dumps({"type": "rematch"}))
        rematch = receive(ws, "rematch")
    assert rematch["table"] != table_id and rematch["token"]
    with socket(client, rematch["table"], rematch["token"]) as (_, new):
        assert new["seat"] == 0 and new["view"]["round"] == 1
        assert new["table"]["seats"][1]["level"] == "easy"
    assert client.get(f"/api/tables/{table_id}").json()["rematch"] == rematch["table"]
