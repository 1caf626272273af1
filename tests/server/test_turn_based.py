"""Turn-based tables (issue 35) on a fake clock: a move days later is the player's own, a
passed deadline has a bot play that move ("timer"), a seat out of time too often is handed to
the bot for good, and a deadline that passed while the server was down fires when it starts.

The server reads the time from a :class:`~sakura.server.turns.FakeClock` that the test moves
by days; every wait is for a message or a stored row, never for time.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from sakura.server import create_app
from sakura.server.db import Store
from sakura.server.turns import FakeClock
from sakura.server.turns.store import load_deadlines

from .conftest import Message, create_table

T0 = 1_800_000_000.0  # the fake clock's start (2027)
HOUR, DAY = 3600.0, 86_400.0


def receive_until(ws: Any, condition: Callable[[Message], bool]) -> Message:
    """The first message that meets ``condition`` (each message is waited for, none skipped
    past it)."""
    while True:
        message: Message = ws.receive_json()
        if condition(message):
            return message


def hello(ws: Any, token: str | None) -> Message:
    ws.send_text(json.dumps({"type": "hello", "token": token}))
    return receive_until(ws, lambda m: m["type"] == "welcome")


def paced(client: TestClient, pace: str, timeouts: int = 3, players: int = 2) -> Message:
    return create_table(
        client, players, ["human"] + ["beginner"] * (players - 1), pace=pace, timeouts=timeouts
    )


def this_or_next(ws: Any, message: Message, condition: Callable[[Message], bool]) -> Message:
    """``message`` if it is an update that meets ``condition``, else the next such update (the
    move that ends a round is told with the next decision's deadline, whoever made it)."""
    if message["type"] == "update" and condition(message):
        return message
    return receive_until(ws, lambda m: m["type"] == "update" and condition(m))


def timer_move(seat: int) -> Callable[[Message], bool]:
    return lambda m: m["type"] == "update" and m["by"] == "timer" and m["seat"] == seat


def test_the_pace_is_an_enum_in_the_api_and_excludes_the_timer(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()["components"]["schemas"]
    assert schema["Pace"]["enum"] == ["1h", "12h", "1d", "3d"]
    assert client.post("/api/tables", json={"players": 2, "pace": "2d"}).status_code == 422
    both = client.post("/api/tables", json={"players": 2, "pace": "1d", "timer": 30})
    assert both.status_code == 422 and "not both" in both.text
    table = paced(client, "12h", timeouts=2)["table"]
    assert (table["pace"], table["timeouts"], table["timer"]) == ("12h", 2, None)


def test_a_move_made_days_later_is_the_players_own(sqlite_url: str) -> None:
    clock = FakeClock(start=T0)
    with TestClient(create_app(sqlite_url, turn_clock=clock)) as client:
        created = paced(client, "3d")
        with client.websocket_connect(f"/ws/{created['table']['id']}") as ws:
            welcome = hello(ws, created["token"])
            assert welcome["deadline"] == T0 + 3 * DAY
            clock.advance(2 * DAY + 23 * HOUR)  # away for almost three days: nobody replaces the seat
            ws.send_text(json.dumps({"type": "act", "action": welcome["view"]["legal_actions"][0]}))
            mine = receive_until(ws, lambda m: m["type"] == "update" and m["seat"] == 0)
            assert mine["by"] == "player"
            # the next decision has its full pace from when it began
            later = this_or_next(ws, mine, lambda m: m["deadline"] not in (None, T0 + 3 * DAY))
            assert later["deadline"] == T0 + 2 * DAY + 23 * HOUR + 3 * DAY


def test_a_bot_plays_a_timed_out_move_and_takes_the_seat_after_n_timeouts(sqlite_url: str) -> None:
    clock = FakeClock(start=T0)
    with TestClient(create_app(sqlite_url, turn_clock=clock)) as client:
        created = paced(client, "1h", timeouts=2)
        table_id = created["table"]["id"]
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            welcome = hello(ws, created["token"])
            assert welcome["deadline"] == T0 + HOUR
            clock.advance(HOUR - 1)  # a second early: nothing happens
            ws.send_text(json.dumps({"type": "ping"}))
            seen: list[Message] = []
            receive_until(ws, lambda m: seen.append(m) is None and m["type"] == "pong")
            assert not any(timer_move(0)(m) for m in seen)
            clock.advance(1)
            first = receive_until(ws, timer_move(0))
            assert first["view"]["terminal"] is False
            # the next decision of the seat has an hour of its own; it passes too
            nxt = this_or_next(ws, first, lambda m: m["deadline"] is not None)
            assert nxt["deadline"] == T0 + 2 * HOUR
            clock.advance(HOUR)
            receive_until(ws, timer_move(0))
            handed = receive_until(ws, lambda m: m["type"] == "table" and m["table"]["seats"][0]["handed"])
            assert handed["table"]["seats"][0]["replaced"] is True
            end = receive_until(ws, lambda m: m["type"] == "update" and m["view"]["terminal"])
            assert end["deadline"] is None  # the bot played the seat to the end, no clock
            ws.send_text(json.dumps({"type": "act", "action": "play 1"}))
            refused = receive_until(ws, lambda m: m["type"] == "error")
            assert refused["code"] == "handed"
    store = Store(sqlite_url)
    try:
        stored = store.load(table_id)
        assert stored is not None and stored.status == "finished"
        timers = [seat for (seat, _), by in zip(stored.actions, stored.actors, strict=True) if by == "timer"]
        assert timers == [0, 0]  # two timeouts, then the seat was the bot's ("bot")
        assert stored.seats[0]["handed"] and stored.seats[0]["replaced"]
        assert load_deadlines(store) == {}  # a finished game has no deadline
    finally:
        store.close()


def test_no_replacement_of_an_absent_player_before_the_deadline(sqlite_url: str) -> None:
    clock = FakeClock(start=T0)
    with TestClient(create_app(sqlite_url, turn_clock=clock)) as client:
        created = create_table(client, 2, ["human", "human"], pace="1d")
        table_id = created["table"]["id"]
        other = client.post(f"/api/tables/{table_id}/join", json={}).json()["token"]
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            welcome = hello(ws, other)
            assert all(s["replace_after"] is None for s in welcome["table"]["seats"])
            clock.advance(20 * HOUR)
            ws.send_text(json.dumps({"type": "replace", "seat": 0}))
            refused = receive_until(ws, lambda m: m["type"] == "error")
            assert refused["code"] == "turn_based"


@pytest.mark.parametrize("when_down", [2 * HOUR, 3 * DAY])
def test_a_deadline_passed_while_the_server_was_down_fires_at_start(
    sqlite_url: str, when_down: float
) -> None:
    with TestClient(create_app(sqlite_url, turn_clock=FakeClock(start=T0))) as client:
        created = paced(client, "1h")
        table_id = created["table"]["id"]
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            assert hello(ws, created["token"])["deadline"] == T0 + HOUR
    store = Store(sqlite_url)
    try:
        assert load_deadlines(store)[table_id][0] == T0 + HOUR  # stored before the server stopped
    finally:
        store.close()
    restarted = TestClient(create_app(sqlite_url, turn_clock=FakeClock(start=T0 + when_down)))
    with restarted as client, client.websocket_connect(f"/ws/{table_id}") as ws:
        welcome = hello(ws, created["token"])
        fired = any(step.get("by") == "timer" for step in welcome["history"])
        if not fired:  # fired while we arrived: the update says so
            receive_until(ws, timer_move(0))


def test_a_restart_keeps_a_pending_deadline_to_the_second(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, turn_clock=FakeClock(start=T0))) as client:
        created = paced(client, "1d")
        table_id = created["table"]["id"]
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            hello(ws, created["token"])
    restarted = TestClient(create_app(sqlite_url, turn_clock=FakeClock(start=T0 + 5 * HOUR)))
    with restarted as client, client.websocket_connect(f"/ws/{table_id}") as ws:
        assert hello(ws, created["token"])["deadline"] == T0 + DAY  # not restarted in full


def test_your_move_lists_the_seats_a_token_opens_and_nothing_else(sqlite_url: str) -> None:
    clock = FakeClock(start=T0)
    with TestClient(create_app(sqlite_url, turn_clock=clock)) as client:
        created = paced(client, "1d")
        table_id, token = created["table"]["id"], created["token"]
        with client.websocket_connect(f"/ws/{table_id}") as ws:  # the bot's card in: the player is due
            if not hello(ws, token)["view"]["chosen"][1]:
                receive_until(ws, lambda m: m["type"] == "update" and m["view"]["chosen"][1])
        other = paced(client, "1h")
        body = {
            "seats": [
                {"table": table_id, "token": token},
                {"table": other["table"]["id"], "token": "not-its-token"},
                {"table": "nosuchtable", "token": token},
            ]
        }
        listed = client.post("/api/moves", json=body).json()
        assert [g["id"] for g in listed["games"]] == [table_id]  # a wrong token opens nothing
        [game] = listed["games"]
        assert (game["seat"], game["your_move"], game["to_move"], listed["your_move"]) == (0, True, [0], 1)
        assert game["deadline"] == T0 + DAY and game["pace"] == "1d"
        assert client.post("/api/moves", json={}).json() == {"games": [], "your_move": 0}

        # what happened since the player's page last looked: the updates since, each with its view
        since = client.post(f"/api/tables/{table_id}/since", json={"token": token, "seq": 0}).json()
        assert since["seq"] == 0 and len(since["updates"]) == game["seq"] >= 1
        assert [u["seq"] for u in since["updates"]] == list(range(1, game["seq"] + 1))
        assert since["updates"][-1]["deadline"] == T0 + DAY
        assert all(u["view"]["player"] == 0 for u in since["updates"])  # the seat's own view only
        refused = client.post(f"/api/tables/{table_id}/since", json={"token": None, "seq": 0})
        assert refused.status_code == 409 and refused.json()["code"] == "not_seated"
