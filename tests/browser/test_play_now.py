"""One-click play (issue 28, deliverable 5): above the fold of the lobby at 1366x768, "Play
now" seats you against three bots of the level chosen beside it, in one click."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from tests.browser.conftest import page_errors
from tests.browser.test_table_staging import inside


def test_play_now_is_above_the_fold_and_starts_a_game_in_one_click(
    server: str, browser: Any, output: Path
) -> None:
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    errors = page_errors(page)
    page.goto(f"{server}/?speed=0")
    page.wait_for_selector("body[data-ready]")
    assert inside(page.locator("#play-now").bounding_box(), 1366, 768)
    assert inside(page.locator("#quick-level").bounding_box(), 1366, 768)
    assert page.locator("#quick-level").input_value() == "club"  # the ladder's middle, at first
    page.screenshot(path=str(output / "lobby-play-now.png"))
    page.select_option("#quick-level", "expert")
    page.click("#play-now")
    page.wait_for_url("**/t/**")
    page.wait_for_selector("#hand button.card:not([disabled])")
    table_id = page.url.split("/t/")[1].split("?")[0]
    seats = httpx.get(f"{server}/api/tables/{table_id}").json()["seats"]
    assert [s["kind"] for s in seats] == ["human", "bot", "bot", "bot"]
    assert {s["level"] for s in seats[1:]} == {"expert"}
    assert page.locator("svg.garden .painter").count() == 4
    page.goto(f"{server}/")  # the level is remembered
    page.wait_for_selector("body[data-ready]")
    assert page.locator("#quick-level").input_value() == "expert"
    assert not errors, errors
