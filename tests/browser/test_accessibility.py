"""axe-core (bundled by axe-playwright-python) on the lobby, the table, the end and the replay:
no violation of impact "serious" or "critical" (the card buttons once failed
label-content-name-mismatch)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.browser.test_card_game_in_browser import play_to_the_end, start_against_a_bot
from tests.browser.test_table_staging import finish_a_game, settled, start, step

SERIOUS = {"serious", "critical"}


def violations(page: Any) -> list[str]:
    axe = pytest.importorskip(
        "axe_playwright_python.sync_playwright",
        reason="axe-playwright-python is not installed (pip install -e '.[dev]')",
    )
    results = axe.Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in SERIOUS
    ]


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)], ids=["desktop", "phone"])
@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_lobby_and_the_table_have_no_serious_violations(
    server: str, browser: Any, lang: str, size: tuple[int, int]
) -> None:
    """At a desktop's size and a phone's (where labels hide to save room, the controls keep
    their accessible names)."""
    page = browser.new_page(viewport={"width": size[0], "height": size[1]}, is_mobile=size[0] < 500)
    page.goto(f"{server}/?lang={lang}")
    page.wait_for_selector("#start")
    assert violations(page) == []
    start(page, server, players=4, query=f"speed=0&lang={lang}")
    assert violations(page) == []
    while not page.locator("#choice:not([hidden]), #result:not([hidden])").count():
        step(page)
        settled(page)
    assert violations(page) == []  # a choice on the board, or the end of the game


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)], ids=["desktop", "phone"])
def test_the_end_the_score_sheet_and_the_replay_have_no_serious_violations(
    server: str, browser: Any, size: tuple[int, int]
) -> None:
    """Issue 28: the result with its score sheet, the replay at a reveal (the tiles and the
    hand held) and at its end (the sheet), for Sakura and the card game."""
    page = browser.new_page(viewport={"width": size[0], "height": size[1]}, is_mobile=size[0] < 500)
    table_id = finish_a_game(server)
    page.goto(f"{server}/t/{table_id}?speed=0")  # a spectator of the finished game
    page.wait_for_selector("#result:not([hidden]) .score-sheet")
    assert violations(page) == []
    page.goto(f"{server}/replay/{table_id}")
    page.wait_for_selector("#moves li")
    page.locator("#moves li:has-text('plays') button").first.click()
    page.wait_for_selector("#held-box:not([hidden]) li.played")
    assert violations(page) == []
    page.click("#last")
    page.wait_for_selector("#sheet-box:not([hidden]) .score-sheet")
    assert violations(page) == []
    page.goto(f"{server}/?speed=0")
    start_against_a_bot(page)
    play_to_the_end(page)
    page.wait_for_selector("#result .cards-sheet")
    assert violations(page) == []
    page.click("text=Replay this game")
    page.wait_for_selector("#moves li")
    page.click("#last")
    page.wait_for_selector("#sheet-box:not([hidden]) .cards-sheet")
    assert violations(page) == []
