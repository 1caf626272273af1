"""The replay staged (issue 28, deliverables 3 and 9), in Chromium. The card game's replay
stages a step forward as the live table does (cards_stage.js, at the table's speed): the card
travels to its area and the area's points change with the engine's reason; a step back or a
jump shows the position at once. In Sakura's replay, a flagged decision's better card is drawn
on the garden itself, a ghost tile beside the seat's painter (see test_advice_in_browser).

Skips with the reason when Playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
from tests.browser.conftest import page_errors
from tests.browser.test_accessibility import violations
from websockets.sync.client import connect

AREAS = ["garden", "palace", "temple"]
STAGES = ("card_placed", "card_given", "card_discarded", "round_scored")  # what cards_stage.js logs
STAGED = "() => window.sakuraReplay.staged()"
STEP = "window.sakuraReplay.step()"


def finish_a_card_game(server: str) -> str:
    """A card game against an easy bot, played to its end by a client over the socket; its id."""
    created = httpx.post(
        f"{server}/api/tables",
        json={
            "game": "sakura-cards",
            "players": 2,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}],
        },
        timeout=30,
    ).json()
    url = server.replace("http://", "ws://") + "/ws/" + created["table"]["id"]
    with connect(url) as ws:
        ws.send(json.dumps({"type": "hello", "token": created["token"]}))
        acted = None
        while True:
            message = json.loads(ws.recv(timeout=30))
            view = message.get("view")
            if message["type"] == "error":
                acted = None
            if view is None:
                continue
            if view["terminal"]:
                return str(created["table"]["id"])
            if view["legal_actions"] and acted != message.get("seq"):
                ws.send(json.dumps({"type": "act", "action": view["legal_actions"][0]}))
                acted = message.get("seq")


def _placing_step(steps: list[dict[str, Any]], after: int) -> int:
    """The first step after `after` whose events place a card."""
    return next(
        k for k, s in enumerate(steps) if k > after and any(e["type"] == "card_placed" for e in s["events"])
    )


def test_a_step_forward_in_the_card_games_replay_is_staged(server: str, browser: Any, output: Path) -> None:
    table_id = finish_a_card_game(server)
    steps = httpx.get(f"{server}/api/tables/{table_id}/replay", timeout=30).json()["steps"]
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    errors = page_errors(page)
    place = _placing_step(steps, 1)
    page.goto(f"{server}/replay/{table_id}?speed=250&step={place - 1}")
    page.wait_for_function(f"() => window.sakuraReplay && {STEP} === {place - 1}")
    assert page.locator("#speed").count() == 1  # the table's speed control, here too
    page.click("#next")
    page.wait_for_function(f"() => {STEP} === {place} && !window.sakuraReplay.animating()")
    event = next(e for e in steps[place]["events"] if e["type"] == "card_placed")
    seat, i = event["player"], AREAS.index(event["area"])
    staged = [s for s in page.evaluate(STAGED) if s["type"] == "placed"]
    assert len(staged) == 1 and staged[0]["flew"] and staged[0]["card"] == event["card"], staged
    view = steps[place]["view"]
    scored = next((e for e in steps[place]["events"] if e["type"] == "round_scored"), None)
    points = scored["areas"][seat][i] if scored else view["area_scores"][seat][i]
    assert staged[0]["points"] == points, (staged, points)
    if points:  # the reason is the engine's, with its points
        assert staged[0]["reason"] and str(points) in staged[0]["reason"], staged
    # After the staging the board is the step's own: the card in its area.
    box = page.locator(f".area[data-seat='{seat}'][data-area='{event['area']}'] .area-cards .card")
    assert box.count() == len(view["areas"][seat][i])
    # The arrow key steps forward the same way.
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => {STEP} === {place + 1} && !window.sakuraReplay.animating()")
    count = len(page.evaluate(STAGED))
    moved = [e for e in steps[place + 1]["events"] if e["type"] in STAGES]
    assert count == 1 + len(moved), (count, moved)
    # Backward and jumping show the position at once: nothing more is staged, nothing travels.
    page.click("#prev")
    page.wait_for_function(f"() => {STEP} === {place}")
    page.click("#last")
    page.wait_for_function(f"() => {STEP} === {len(steps) - 1}")
    later = _placing_step(steps, place + 1)
    page.locator(f"#moves li[data-step='{later}'] button").click()
    page.wait_for_function(f"() => {STEP} === {later}")
    assert len(page.evaluate(STAGED)) == count
    assert page.locator(".card.travelling, .area-float").count() == 0
    page.screenshot(path=str(output / "replay-cards.png"))
    assert violations(page) == []
    assert not errors, errors


def test_at_speed_zero_the_card_replay_steps_at_once(server: str, browser: Any) -> None:
    table_id = finish_a_card_game(server)
    steps = httpx.get(f"{server}/api/tables/{table_id}/replay", timeout=30).json()["steps"]
    place = _placing_step(steps, 1)
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.goto(f"{server}/replay/{table_id}?speed=0&step={place - 1}")
    page.wait_for_function(f"() => window.sakuraReplay && {STEP} === {place - 1}")
    page.click("#next")
    page.wait_for_function(f"() => {STEP} === {place}")
    assert page.evaluate(STAGED) == [] and not page.evaluate("() => window.sakuraReplay.animating()")
