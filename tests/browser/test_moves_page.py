"""Turn-based tables in Chromium: a table created at a day a move from the lobby's form, the
"your move" page listing it (whose move, the deadline, the title and favicon), the lobby's
count, and the table telling what happened since its player last looked."""

from __future__ import annotations

from typing import Any

from tests.browser.conftest import await_turn_or_others


def play_a_card(page: Any) -> None:
    page.wait_for_selector("#hand button.card:not([disabled])")
    page.locator("#hand button.card").first.click()


def test_your_move_page_lobby_count_and_what_happened_since_you_looked(server: str, browser: Any) -> None:
    host = browser.new_context().new_page()
    host.goto(f"{server}/?speed=0")
    host.select_option("#players", "2")
    host.select_option("#seat-1", "friend")
    host.select_option("#timer", "pace:1d")
    host.select_option("#timeouts", "2")
    host.click("#start")
    host.wait_for_url("**/t/**")
    table_id = host.url.split("/t/")[1].split("?")[0].split("#")[0]
    friend = browser.new_context().new_page()
    friend.goto(f"{server}/t/{table_id}?speed=0")
    friend.click("#take-seat")
    friend.wait_for_selector("#hand button.card:not([disabled])")

    # the host's list: one game, the host's move, the tab says so
    host.goto(f"{server}/moves")
    host.wait_for_selector("body[data-ready='1']")
    game = host.locator(f"li.moves-game[data-table='{table_id}']")
    assert game.locator(".your-move").inner_text() == "Your move"
    assert "Due in" in game.locator(".deadline").inner_text()
    assert host.title().startswith("★ (1)")
    assert host.locator("link[rel=icon]").get_attribute("href") == "/static/favicon-turn.svg"
    host.goto(f"{server}/")
    host.wait_for_selector("#your-move.waiting:has-text('Your move (1)')")

    # the host plays and leaves; the friend plays while the host is away
    host.goto(f"{server}/t/{table_id}?speed=0")
    play_a_card(host)
    host.wait_for_selector("#prompt:has-text('You have chosen')")
    host.goto(f"{server}/moves")
    host.wait_for_selector("body[data-ready='1']")
    assert host.locator(f"li.moves-game[data-table='{table_id}'] .your-move").count() == 0
    play_a_card(friend)
    await_turn_or_others(friend)

    # back at the table: what happened is staged, then the present
    host.goto(f"{server}/t/{table_id}?speed=0")
    host.wait_for_selector("#since")
    assert host.locator("#since").inner_text().startswith("Since you last looked:")
    moves = int("".join(ch for ch in host.locator("#since").inner_text() if ch.isdigit()))
    assert moves >= 1  # the friend's card at least
    await_turn_or_others(host)
    if host.evaluate("() => window.sakuraTable.view().legal_actions.length") > 0:
        host.wait_for_selector("#timer:has-text('Due in')")  # a day a move, in hours, not seconds
