"""The end of a game (issue 28, deliverable 1): the result ranked as the engine decided it, the
reason in words, the reader's row marked, and a panel the player can close to look at the final
garden and open again, with help above it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.browser.conftest import page_errors
from tests.browser.test_languages import play_to_the_end

# A tie on tokens won on the tie-break, as the engine's Outcome says it (state.py ``_finish``).
TIE_BROKEN = {"winners": [1], "scores": [12, 12, 9], "reason": "most tokens, then closest to the Emperor"}
SHARED = {"winners": [0, 2], "scores": [7, 5, 7], "reason": "most tokens, tied on the gate: shared win"}

RESULT = """async ([outcome, me]) => {
  const game = await import("/static/js/games/sakura.js");
  return game.result({ outcome }, ["Orange", "Blue", "Green"], me);
}"""


@pytest.mark.parametrize(("lang", "closer"), [("en", "closer to the Emperor"), ("fa", "نزدیک‌تر")])
def test_a_tie_won_on_the_tie_break_lists_the_winner_first_and_says_why(
    server: str, browser: Any, lang: str, closer: str
) -> None:
    """Two painters on 12 tokens, Blue closer to the Emperor: Blue wins and is listed first
    (the list sorted by tokens alone put Orange first), and the reason is said."""
    page = browser.new_page()
    page.goto(f"{server}/?lang={lang}")
    page.wait_for_selector("body[data-ready]")
    shown = page.evaluate(RESULT, [TIE_BROKEN, 0])
    assert [row["seat"] for row in shown["rows"]] == [1, 0, 2]
    assert [row["winner"] for row in shown["rows"]] == [True, False, False]
    assert [row["me"] for row in shown["rows"]] == [False, True, False]
    assert closer in shown["reason"] and "Blue" in shown["reason"]
    shared = page.evaluate(RESULT, [SHARED, None])
    assert [row["seat"] for row in shared["rows"]] == [0, 2, 1] and shared["reason"]


def test_the_result_closes_opens_again_and_help_opens_above_it(
    server: str, browser: Any, output: Path
) -> None:
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    errors = page_errors(page)
    page.goto(f"{server}/?speed=0")
    page.select_option("#players", "3")
    for seat in (1, 2):
        page.select_option(f"#seat-{seat}", "beginner")
    page.click("#start")
    page.wait_for_url("**/t/**")
    play_to_the_end(page)
    result = page.locator("#result")
    assert page.locator("#result .standings li.me").count() == 1  # the reader's row, marked
    assert page.locator("#result .standings li.me .you-tag").text_content() == "you"
    first = page.locator("#result .standings li").first.get_attribute("class") or ""
    assert first.startswith("winner")  # the winners first
    # the engine's score sheet (issue 28, deliverable 2): every number the server's, the reader's row marked
    page.wait_for_selector("#result .score-sheet tbody tr")
    table_id = page.evaluate("location.pathname.split('/').pop()")
    reply = httpx.get(f"{server}/api/tables/{table_id}/score-sheet")
    assert reply.status_code == 200, reply.text
    sheet = reply.json()
    rows = page.locator("#result .score-sheet tbody tr")
    assert rows.count() == 3
    for i in range(3):
        row = rows.nth(i)
        seat = int(row.get_attribute("data-seat") or "-1")
        assert row.locator(".total").inner_text() == str(sheet["tokens"][seat])
    assert rows.first.get_attribute("data-seat") == str(sheet["winners"][0])
    assert page.locator("#result .score-sheet tr.me .you-tag").count() == 1
    assert page.locator("#result .score-sheet th", has_text="✿3").count() == 1
    page.screenshot(path=str(output / "result-open.png"))

    page.keyboard.press("Escape")  # Esc closes it: the final garden is in full view
    assert result.is_hidden() and page.locator("#show-result").is_visible()
    page.screenshot(path=str(output / "result-closed.png"))
    page.click("#show-result")  # and it opens again
    assert result.is_visible()
    page.mouse.click(5, 400)  # a click outside it closes it
    assert result.is_hidden()
    page.click("#show-result")
    page.click("#close-result")  # so does its button
    assert result.is_hidden()

    page.click("#show-result")
    page.click("#help summary")  # help opened after the end is above the result, not under it
    assert result.is_visible()
    body = page.locator("#help .help-body").bounding_box()
    assert body is not None
    on_top = page.evaluate(
        "([x, y]) => !!document.elementFromPoint(x, y)?.closest('.help-body')",
        [body["x"] + body["width"] / 2, body["y"] + body["height"] / 2],
    )
    assert on_top
    assert not errors, errors


def test_a_card_the_timer_played_for_you_is_logged_as_the_bots(server: str, browser: Any) -> None:
    """Time runs out: a bot plays for you, and the log says so ("The bot chose 16 for you."),
    not "You chose 16." as if you had. (The clock starts when this page takes the free seat,
    so the timeout comes live, while the page watches.)"""
    created = httpx.post(
        f"{server}/api/tables",
        json={"players": 2, "timer": 1, "seats": [{"kind": "human"}, {"kind": "human"}]},
    ).json()
    page = browser.new_page()
    page.goto(f"{server}/t/{created['table']['id']}?speed=0")
    page.click("#take-seat")
    page.wait_for_selector("#log :text('for you')", timeout=30_000)  # the clock ran out, nobody clicked
    log = page.locator("#log").inner_text()
    assert "Time ran out" in log and "The bot chose" in log
    assert "You chose" not in log


def test_a_rematch_is_offered_to_the_other_player_who_may_decline(server: str, browser: Any) -> None:
    """Issue 28, deliverable 8: the other player's button just changed; now they are asked
    ("Ada offers a rematch": Accept / Decline), and a decline is told to the one who asked."""
    from tests.browser.test_chat_in_browser import _table_with_a_friend_seat
    from tests.browser.test_people_in_browser import play_until_over

    ada, url = _table_with_a_friend_seat(browser, server, "en", "Ada")
    bob = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    bob.goto(f"{url}?speed=0")
    bob.click("#take-seat")
    bob.wait_for_selector("#hand button.card")
    play_until_over([ada, bob])
    ada.click("#rematch")
    bob.wait_for_selector("#rematch-offer")
    offer = bob.locator("#rematch-offer").inner_text()
    assert offer.startswith("Ada") and "offers a rematch." in offer, offer
    assert (bob.locator("#accept-rematch").get_attribute("href") or "").startswith("/t/")
    bob.click("#decline-rematch")
    assert bob.locator("#rematch-offer").count() == 0
    ada.wait_for_selector(".rematch-declined")
    assert "declined the rematch." in ada.locator(".rematch-declined").inner_text()
