"""The replay staged (issue 28, deliverables 3 and 9), in Chromium. The card game's replay
stages a step forward as the live table does (cards_stage.js, at the table's speed): the card
travels to its area and the area's points change with the engine's reason; a step back or a
jump shows the position at once. In Sakura's replay, a flagged decision's better card is drawn
on the garden itself, a labelled ghost tile beside the seat's painter, the played card's tile on
its other side (the analysis is the server's own, with a small search).

Skips with the reason when Playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.browser.conftest import page_errors
from tests.browser.test_accessibility import violations
from tests.browser.test_table_staging import finish_a_game

from sakura.server.limits import LOOPBACK_HOSTS, Limits

AREAS = ["garden", "palace", "temple"]
STAGES = ("card_placed", "card_given", "card_discarded", "round_scored")  # what cards_stage.js logs
STAGED = "() => window.sakuraReplay.staged()"
STEP = "window.sakuraReplay.step()"


@pytest.fixture
def server_options() -> dict[str, Any]:
    """Analyses with a small search, so that the test is quick."""
    return {"limits": Limits(allowed_hosts=LOOPBACK_HOSTS, analysis_spec="mcts:24")}


def _placing_step(steps: list[dict[str, Any]], after: int) -> int:
    """The first step after `after` whose events place a card."""
    return next(
        k for k, s in enumerate(steps) if k > after and any(e["type"] == "card_placed" for e in s["events"])
    )


def test_a_step_forward_in_the_card_games_replay_is_staged(server: str, browser: Any, output: Path) -> None:
    table_id = finish_a_game(server, "sakura-cards")
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
    table_id = finish_a_game(server, "sakura-cards")
    steps = httpx.get(f"{server}/api/tables/{table_id}/replay", timeout=30).json()["steps"]
    place = _placing_step(steps, 1)
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.goto(f"{server}/replay/{table_id}?speed=0&step={place - 1}")
    page.wait_for_function(f"() => window.sakuraReplay && {STEP} === {place - 1}")
    page.click("#next")
    page.wait_for_function(f"() => {STEP} === {place}")
    assert page.evaluate(STAGED) == [] and not page.evaluate("() => window.sakuraReplay.animating()")


def _flagged_card_decision(server: str, games: int = 4) -> tuple[str, dict[str, Any]]:
    """A finished game whose seat 0 made a flagged card decision (playing the first legal card
    every time earns one in nearly every game), and that decision; skips when none of `games`
    games earned one, since a label is only what the analysis's samples establish."""
    for _ in range(games):
        table_id = finish_a_game(server)
        url = f"{server}/api/tables/{table_id}/analysis/0"
        status = httpx.post(url, timeout=30).json()
        while status["status"] not in ("done", "failed"):
            status = httpx.get(url, timeout=30).json()
        assert status["status"] == "done", status
        for d in status["analysis"]["decisions"]:
            if d["label"] and d["best"].startswith("play ") and d["best"] != d["played"]:
                return table_id, d
    pytest.skip(f"no flagged card decision in {games} games")


def test_a_flagged_decisions_better_card_is_on_the_garden(server: str, browser: Any) -> None:
    table_id, decision = _flagged_card_decision(server)
    best, played = decision["best"].split(" ")[1], decision["played"].split(" ")[1]
    for lang, word in (("en", "better"), ("fa", "بهتر")):
        page = browser.new_page(viewport={"width": 1366, "height": 768})
        errors = page_errors(page)
        page.goto(f"{server}/replay/{table_id}?step={decision['index'] + 1}&lang={lang}")
        painter = page.locator("svg.garden .painter[data-painter='0']")
        ghost = painter.locator(".better-tile")
        ghost.wait_for()
        assert ghost.get_attribute("data-card") == best
        assert ghost.locator("text.better-label").text_content() == word
        # the played card's tile on the painter's other side, the ghost beside the painter
        local = "(n) => Number(n).toLocaleString(document.documentElement.lang, { useGrouping: false })"
        assert painter.locator(".tile-flag text").text_content() == page.evaluate(local, played)
        assert page.evaluate(local, best) in (ghost.locator("title").text_content() or "")
        shape, tile = painter.locator(".painter-shape").bounding_box(), ghost.locator("rect").bounding_box()
        assert (
            tile["x"] + tile["width"] <= shape["x"] + 2 and abs(tile["y"] - shape["y"]) < shape["height"]
        ), (
            tile,
            shape,
        )
        # in the hand row too; and a move without a flag shows no ghost
        assert page.locator("#held-box li.better").get_attribute("data-card") == best
        if lang == "en":
            assert violations(page) == []
            page.click("#first")
            page.wait_for_selector("#held-box", state="hidden")
            assert page.locator("svg.garden .better-tile").count() == 0
        assert not errors, errors
