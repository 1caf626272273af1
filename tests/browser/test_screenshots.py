"""Screenshots of the table as a player sees it (issue 13): at the start, mid-resolution, at a
scoring, at a choice and at the end, on a desktop and a phone, in English and Persian. They are
saved in the test output (a temporary folder, or ``SAKURA_TEST_OUTPUT``); the best are copied
to ``docs/img`` by hand."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from tests.browser.conftest import PLAYABLE, page_errors
from tests.browser.test_table_staging import inside, settled, start

SIZES = {"desktop": (1366, 768), "phone": (390, 844)}


@pytest.mark.parametrize("lang", ["en", "fa"])
@pytest.mark.parametrize("where", ["desktop", "phone"])
def test_screenshots_of_a_whole_game(server: str, browser: Any, output: Path, where: str, lang: str) -> None:
    width, height = SIZES[where]
    page = browser.new_page(
        viewport={"width": width, "height": height}, is_mobile=where == "phone", has_touch=where == "phone"
    )
    errors = page_errors(page)
    start(page, server, players=4, query=f"speed=250&lang={lang}")
    shots: set[str] = set()

    def shot(moment: str) -> None:
        if moment not in shots:
            shots.add(moment)
            page.screenshot(path=str(output / f"table-{where}-{lang}-{moment}.png"))

    shot("start")
    instant = False
    deadline = time.time() + 400
    while not page.locator("#result:not([hidden])").count():
        assert time.time() < deadline
        if page.locator("#banner:not([hidden])").count():
            shot("scoring")
        elif page.locator("svg.garden .tile-flag.tile-current").count() and page.evaluate(
            "!!document.body.dataset.animating"
        ):
            shot("mid-resolution")
        if {"mid-resolution", "scoring"} <= shots and not instant:
            # the staged moments are taken: the rest of the game as a hurried player sets it
            page.select_option("#speed", "instant")
            instant = True
        choice = page.locator("#choice:not([hidden]) button:not([disabled])")
        card = page.locator("#hand button.card:not([disabled])")
        if choice.count():
            # the prompt and both answers where the eye is: in the viewport (the phone's dock)
            assert inside(page.locator("#choice").bounding_box(), width, height)
            shot("choice")
            choice.first.click()
        elif card.count():
            assert inside(page.locator("#hand").bounding_box(), width, height)
            card.first.click()
        else:  # until a move is possible, or a moment still to be shot is on the board
            moments = [PLAYABLE]
            if "scoring" not in shots:
                moments.append("#banner:not([hidden])")
            if "mid-resolution" not in shots:
                moments.append("body[data-animating] svg.garden .tile-flag.tile-current")
            page.wait_for_selector(", ".join(moments), state="attached")
    settled(page)
    assert inside(page.locator("#result").bounding_box(), width, height)
    shot("end")
    assert {"start", "mid-resolution", "scoring", "end"} <= shots, shots
    assert not errors, errors
