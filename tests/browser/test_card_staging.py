"""The card game staged (issue 28, deliverable 9), in Chromium: a placed card travels to its
area and the area's points change with the engine's reason; a gift travels face down from
the giver; a round's scoring is announced; at speed 0 nothing moves. The page's own record of
what it staged (``sakuraTable.staged()``) is compared with the engine's views.

Skips with the reason when Playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

from typing import Any

from tests.browser.conftest import page_errors
from tests.browser.test_card_game_in_browser import start_against_a_bot

AREAS = ["garden", "palace", "temple"]
STAGED = "() => window.sakuraTable.staged()"
# At least n of your own moves of a kind were staged: [type, the seat's field, n].
MINE = (
    "([type, who, n]) => "
    "window.sakuraTable.staged().filter((s) => s.type === type && s[who] === 0).length >= n"
)


def _staged(page: Any) -> list[dict[str, Any]]:
    return page.evaluate(STAGED)


def _place_a_card(page: Any) -> str:
    """Pick the hand's first playable card and its first area; returns the card."""
    page.wait_for_selector("#prompt:has-text('choose a card to place')")
    card = page.locator("#hand button.card:not([disabled])").first
    name = card.get_attribute("data-card")
    card.click()
    page.locator("#choice:not([hidden]) button[data-area]").first.click()
    return name


def test_a_placed_card_travels_and_its_area_scores_with_the_engines_reason(server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    errors = page_errors(page)
    page.goto(f"{server}/?speed=250")
    start_against_a_bot(page)
    placed = given = 0
    while placed < 4:  # enough placements that an area scores (three cards) or a blossom counts
        page.wait_for_function("() => !window.sakuraTable.animating()")
        if page.locator("#prompt:has-text('choose a card to place')").count():
            _place_a_card(page)
            placed += 1
            page.wait_for_function(MINE, arg=["placed", "seat", placed])
        elif page.locator("#prompt:has-text('give')").count():
            page.locator("#hand button.card:not([disabled])").first.click()
            given += 1
            page.wait_for_function(MINE, arg=["given", "giver", given])
        else:
            page.wait_for_function(
                "() => window.sakuraTable.view().turn === 0 && !window.sakuraTable.animating()"
            )
    page.wait_for_function("() => !window.sakuraTable.animating()")
    staged = _staged(page)
    view = page.evaluate("() => window.sakuraTable.view()")
    mine = [s for s in staged if s["type"] == "placed" and s["seat"] == 0]
    assert len(mine) == 4 and all(s["flew"] for s in mine), mine
    # Each area's last staged score is the engine's score of that area now, with its reason.
    for area in {s["area"] for s in mine}:
        last = [s for s in mine if s["area"] == area][-1]
        i = AREAS.index(area)
        assert last["points"] == view["area_scores"][0][i], (last, view["area_scores"])
        if last["points"]:
            assert last["reason"] and str(last["points"]) in last["reason"], last
    # The bot's moves were staged too: its cards placed, its gifts travelling face down to you.
    gifts = [s for s in staged if s["type"] == "given" and s["giver"] == 1]
    assert gifts and all(s["travelled"] and s["card"] for s in gifts), gifts  # you see what you receive
    assert any(s["type"] == "placed" and s["seat"] == 1 and s["flew"] for s in staged)
    assert not errors, errors


def test_at_speed_zero_nothing_travels(server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.goto(f"{server}/?speed=0")
    start_against_a_bot(page)
    card = _place_a_card(page)
    page.wait_for_function(
        f"() => window.sakuraTable.staged().some((s) => s.type === 'placed' && s.card === '{card}')"
    )
    mine = [s for s in _staged(page) if s["type"] == "placed" and s["card"] == card]
    assert mine and not any(s["flew"] for s in mine)
    assert page.locator(".card.travelling, .area-float").count() == 0
