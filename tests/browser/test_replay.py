"""The replay a player wants (issue 28, deliverable 3), in Chromium: the board shows the cards
played (the live table's tiles by each painter), and each move shows the hand its seat held
then, the card played marked (public once the game is over; the server reads it through the
engine).

Skips with the reason when Playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

from typing import Any

import httpx
from tests.browser.conftest import page_errors
from tests.browser.test_table_staging import finish_a_game


def test_the_replay_board_shows_the_cards_played_and_the_hand_held(server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    errors = page_errors(page)
    table_id = finish_a_game(server)
    steps = httpx.get(f"{server}/api/tables/{table_id}/replay", timeout=30).json()["steps"]
    # The first step whose events reveal the round's cards: both painters' tiles are on the board.
    reveal = next(k for k, s in enumerate(steps) if any(e["type"] == "cards_revealed" for e in s["events"]))
    shown = {
        str(card)
        for event in steps[reveal]["events"]
        if event["type"] == "cards_revealed"
        for _, card in event["plays"]
    }
    page.goto(f"{server}/replay/{table_id}")
    page.wait_for_selector("#moves li")
    page.locator(f"#moves li[data-step='{reveal}'] button").click()
    page.wait_for_function(f"() => document.querySelector('#moves li.current')?.dataset.step === '{reveal}'")
    flags = page.locator("svg.garden .tile-flag text").evaluate_all("(ts) => ts.map((t) => t.textContent)")
    assert set(flags) == shown and len(flags) == len(shown), (flags, shown)
    # and beside each seat in the players list, as on the live table
    assert page.locator("#seats .seat-tile").count() == len(shown)
    # The hand the moving seat held, its played card marked.
    step = steps[reveal]
    played = step["action"].split(" ")[1]
    held = page.locator("#held-box li").evaluate_all("(items) => items.map((li) => li.dataset.card)")
    assert held == [str(c) for c in step["hand"]] and played in held
    assert page.locator("#held-box li.played").get_attribute("data-card") == played
    assert page.locator("#held-box li.better").count() == 0  # nothing analysed: no better card
    assert page.locator("#speed").count() == 0  # Sakura's replay shows each step at once: no speed
    # The start of the game: no move yet, no hand.
    page.click("#first")
    page.wait_for_selector("#held-box", state="hidden")
    assert page.locator("svg.garden .tile-flag").count() == 0
    assert not errors, errors
