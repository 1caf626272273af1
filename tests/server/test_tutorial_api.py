"""The tutorial over HTTP: ``/learn`` in the reader's language, ``/api/tutorial`` with the
learner's own view only (the scripted bots' hands never leave the engine), and no table made
or stored: the tutorial is unrated."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from sakura.engine import make_game
from sakura.records import load_script


def test_the_learn_page_is_served_in_the_readers_language(client: TestClient) -> None:
    response = client.get("/learn", headers={"accept-language": "fa-IR,fa;q=0.9"})
    assert response.status_code == 200 and '<html lang="fa" dir="rtl">' in response.text
    assert "/static/js/tutorial.js" in response.text


def test_the_tutorial_shows_the_learner_only_their_own_hand_and_stores_nothing(client: TestClient) -> None:
    before = client.get("/api/tables").json()
    response = client.get("/api/tutorial")
    assert response.status_code == 200
    data = response.json()
    script = load_script()
    assert [s["id"] for s in data["steps"]] == [s.id for s in script.steps] and data["you"] == 0
    state = make_game(script.game, dict(script.config)).new_initial_state(script.seed)
    bot_hands = [sorted(state.hands[1]), sorted(state.hands[2])]
    revealed = False
    for step in data["steps"]:
        view = step["view"]
        assert view["player"] == 0 and sorted(view) == sorted(state.view(0).to_json())
        text = json.dumps(step)
        for hand in bot_hands:
            assert json.dumps(hand) not in text
        for event in step["events"]:
            if event["type"] == "card_chosen" and event["player"] != 0:
                assert event["cards"] is None  # a bot's pick is secret until the reveal
            revealed = revealed or event["type"] == "cards_revealed"
        if not revealed:  # before the first reveal nothing shows what the bots chose
            assert view["revealed"] == [] and view["chosen"] == [False, True, True]
    assert client.get("/api/tables").json() == before  # no table: nothing rated, nothing kept
