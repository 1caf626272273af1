"""A phone-sized screen (390×844, touch) in real Chromium: the lobby and both games' tables fit
the width (nothing to scroll sideways), the hand and the board are on screen, and a few moves
are played by tapping. Screenshots in the ``output`` folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.browser.conftest import await_turn, page_errors

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
OVERFLOW = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


def fits(page: Any) -> None:
    assert page.evaluate(OVERFLOW) <= 0, f"the page is {page.evaluate(OVERFLOW)} px too wide"


def scores_in_sight(page: Any, players: int) -> None:
    """At a decision every seat's score is on screen (the strip above the board), and it is
    the score the players' list says."""
    strip = page.locator("#strip li")
    assert strip.count() == players
    for i in range(players):
        item = strip.nth(i)
        box = item.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, box
        listed = page.locator(f"#seats li[data-seat='{i}'] .seat-tokens").inner_text()
        assert item.locator(".strip-points").inner_text() in listed, (item.inner_text(), listed)


@pytest.mark.parametrize("game", ["sakura", "sakura-cards"])
def test_a_phone_can_play(server: str, browser: Any, output: Path, game: str) -> None:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    errors = page_errors(page)
    page.goto(f"{server}/?speed=0")
    page.wait_for_selector("#seat-choices select")
    fits(page)
    page.screenshot(path=str(output / "phone-lobby.png"), full_page=True)
    page.select_option("#game", game)
    if game == "sakura":
        page.select_option("#players", "3")
    page.tap("#start")
    page.wait_for_url("**/t/**")
    page.wait_for_selector("#hand button.card:not([disabled])")
    fits(page)
    board = page.locator("#board").bounding_box()
    assert board is not None and board["x"] >= 0 and board["x"] + board["width"] <= 390
    header = page.locator("header.top").bounding_box()  # one row (issue 28, deliverable 6)
    assert header is not None and header["height"] < 56, header
    moves = 0
    while moves < 6 and not page.locator("#result:not([hidden])").count():
        target = page.locator(
            "#choice:not([hidden]) button[data-area]:not([disabled]), "
            "#choice:not([hidden]) button[data-choice]:not([disabled])"
        )
        if not target.count():
            target = page.locator("#hand button.card:not([disabled])")
        if target.count():
            scores_in_sight(page, players=3 if game == "sakura" else 2)
            target.first.scroll_into_view_if_needed()
            target.first.tap()
            moves += 1
        else:
            await_turn(page)
    fits(page)
    page.screenshot(path=str(output / f"phone-{game}.png"), full_page=True)
    assert moves == 6 and not errors, errors
    context.close()
