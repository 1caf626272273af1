"""The welcome carries the table's past events as that viewer may see them: the log survives a
reload, a reconnect and a spectator joining mid-game, and hidden cards stay hidden."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient
from tests.server.conftest import create_table, first_legal, receive, socket


def test_a_welcome_carries_the_past_events_as_its_viewer_may_see_them(client: TestClient) -> None:
    created = create_table(client, 3, ["human", "easy", "easy"])
    table_id = created["table"]["id"]
    with socket(client, table_id, created["token"]) as (ws, welcome):
        base = [e for step in welcome["history"] for e in step["events"]]  # the bots' choices so far
        view = welcome["view"]
        live = []
        while view["round"] < 3 and not view["terminal"]:
            if view["legal_actions"]:
                ws.send_text(json.dumps({"type": "act", "action": first_legal(view)}))
            update = receive(ws, "update")
            live += update["events"]
            view = update["view"]
    with socket(client, table_id, created["token"]) as (_, again):
        events = [e for step in again["history"] for e in step["events"]]
        assert events[: len(base) + len(live)] == base + live
        own = [e for e in events if e["type"] == "card_chosen" and e["player"] == 0]
        assert own and all(e["cards"] for e in own)  # one's own choice, in full
    with socket(client, table_id, None) as (_, watcher):
        seen = [e for step in watcher["history"] for e in step["events"]]
        # the bots may have chosen again meanwhile: the watcher's past starts with the player's
        assert [e["type"] for e in seen[: len(events)]] == [e["type"] for e in events]
        assert all(e["cards"] is None for e in seen if e["type"] == "card_chosen")
        assert all(all(d is None for d in e["draws"]) for e in seen if e["type"] == "hands_refilled")
        revealed = [e for e in events if e["type"] == "cards_revealed"]
        assert [e for e in seen[: len(events)] if e["type"] == "cards_revealed"] == revealed


def test_no_clock_runs_while_an_invited_seat_is_empty(client: TestClient) -> None:
    """Bug 4: the empty seat's clock ran and a bot played for it. Now the clock starts once
    every human seat is taken."""
    created = create_table(client, 2, ["human", "human"], timer=30)
    table_id = created["table"]["id"]
    with socket(client, table_id, created["token"]) as (_, welcome):
        assert welcome["deadline"] is None
        response = client.post(f"/api/tables/{table_id}/join", json={"name": "Ada"})
        assert response.status_code == 200
        assert client.get(f"/api/tables/{table_id}").json()["seats"][1]["claimed"]
    with socket(client, table_id, created["token"]) as (_, welcome):
        assert welcome["deadline"] is not None


def test_the_favicon_is_served(client: TestClient) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 200 and response.headers["content-type"].startswith("image/svg")
