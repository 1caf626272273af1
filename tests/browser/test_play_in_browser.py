"""A whole game in a real browser: Debian's Chromium driven by Playwright against a live server.

Skips with the reason when Playwright or /usr/bin/chromium is missing (``apt-get install
chromium``; Playwright's own browser download does not work on our machines).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.browser.conftest import await_turn, page_errors


def test_play_a_whole_game_against_three_bots_by_clicking(server: str, browser: Any, output: Path) -> None:
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    errors = page_errors(page)
    page.goto(f"{server}/?speed=0")
    page.select_option("#players", "4")
    for seat in (1, 2, 3):
        page.select_option(f"#seat-{seat}", "beginner" if seat == 1 else "club")
    page.click("#start")
    page.wait_for_url("**/t/**")
    page.wait_for_selector("#hand button.card:not([disabled])")
    assert page.locator("svg.garden .space-S").count() == 3
    assert page.locator("svg.garden .painter").count() == 4
    page.screenshot(path=str(output / "table.png"), full_page=True)

    # A second browser context joins by the invite link: no free seat, so it watches.
    invite = page.locator("#invite input").first.input_value()
    watcher = browser.new_context().new_page()
    watcher.goto(f"{invite}?speed=0")
    watcher.wait_for_selector("#status:has-text('watching')")
    assert watcher.locator("#hand-area").is_hidden()

    choices = plays = 0
    while not page.locator("#result:not([hidden])").count():
        choice = page.locator("#choice:not([hidden]) button[data-choice]:not([disabled])")
        card = page.locator("#hand button.card:not([disabled])")
        if choice.count():
            page.screenshot(path=str(output / "choice.png"), full_page=True)
            choice.first.click()
            choices += 1
        elif card.count():
            card.first.click()
            plays += 1
        else:
            await_turn(page)
    assert plays >= 5
    result = page.locator("#result").inner_text()
    assert "tokens" in result and page.locator("#rematch").count() == 1
    page.screenshot(path=str(output / "result.png"), full_page=True)
    watcher.wait_for_selector("#result:not([hidden])")
    assert not errors, errors
    # (the choice is asked in most games; when it is, it was answered by clicking above)
    print(f"played {plays} cards, answered {choices} choices")


def test_a_friend_joins_by_invite_link_and_gets_the_seat(server: str, browser: Any) -> None:
    host = browser.new_page()
    host.goto(f"{server}/?speed=0")
    host.select_option("#players", "2")
    host.select_option("#seat-1", "friend")
    host.click("#start")
    host.wait_for_url("**/t/**")
    invite = host.locator("#invite input").first.input_value()
    friend = browser.new_context().new_page()
    friend.goto(f"{invite}?speed=0")
    friend.click("#take-seat")
    friend.wait_for_selector("#hand button.card:not([disabled])")
    assert friend.locator(".seat.me .you-tag").inner_text() == "you"
    friend.locator("#hand button.card").first.click()
    host.wait_for_selector(".seat[data-seat='1'] .seat-status:has-text('has chosen')")
    assert "sakura_" not in friend.evaluate("document.cookie")  # the token is never sent in a cookie
    assert any(k.startswith("sakura.token.") for k in friend.evaluate("Object.keys(localStorage)"))
    friend.reload()  # the browser's storage keeps the seat
    friend.wait_for_selector("#prompt:has-text('You have chosen')")
