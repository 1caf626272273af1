"""Your turn while the tab is hidden: the title and the favicon say so and, once allowed, a
browser notification; seeing the tab again puts both back.

Headless Chromium keeps every tab visible (Playwright has no API to hide one: microsoft/
playwright#2286), so the test stands in for the browser's tab switch: an init script makes
``document.hidden`` a switch and fires ``visibilitychange`` as a browser does."""

from __future__ import annotations

from typing import Any

from tests.browser.conftest import await_turn_or_others

VISIBILITY = """
(() => {
  let hidden = false;
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  Object.defineProperty(document, "visibilityState",
    { configurable: true, get: () => (hidden ? "hidden" : "visible") });
  window.sakuraTestHide = (value) => {
    hidden = value;
    document.dispatchEvent(new Event("visibilitychange"));
  };
})();
"""


def test_a_hidden_tab_shows_your_turn_in_its_title_favicon_and_a_notification(
    server: str, browser: Any
) -> None:
    context = browser.new_context()
    context.grant_permissions(["notifications"], origin=server)
    context.add_init_script(VISIBILITY)
    host = context.new_page()
    host.goto(f"{server}/?speed=0")
    host.select_option("#players", "2")
    host.select_option("#seat-1", "friend")
    host.click("#start")
    host.wait_for_url("**/t/**")
    host.wait_for_selector("#hand button.card:not([disabled])")
    host.click("#notify")
    host.wait_for_selector("#notify[aria-pressed='true']")
    host.locator("#hand button.card").first.click()  # chosen: now the friend is awaited
    host.wait_for_selector("#prompt:has-text('You have chosen')")
    host.evaluate("window.sakuraTestHide(true)")  # the player switches to another tab
    assert not host.title().startswith("★")  # not the player's turn yet
    friend = browser.new_context().new_page()
    friend.goto(host.url.split("#")[0])
    friend.click("#take-seat")
    friend.wait_for_selector("#hand button.card:not([disabled])")
    friend.locator("#hand button.card").first.click()
    # the round's cards are played; the host is due again (a choice or the next card). The
    # friend's card may first ask the friend forward or back: the friend answers it.
    choice = friend.locator("#choice:not([hidden]) button[data-choice]:not([disabled])")
    for _ in range(10):  # a choice or two of the friend's, then the host is due
        await_turn_or_others(friend)
        if not choice.count():
            break
        choice.first.click()
    host.wait_for_function("() => document.title.startsWith('★')", timeout=30_000)
    assert host.locator("link[rel=icon]").get_attribute("href") == "/static/favicon-turn.svg"
    host.wait_for_function("() => window.sakuraTable.notified() === 1")
    host.evaluate("window.sakuraTestHide(false)")  # and back
    host.wait_for_function("() => !document.hidden && !document.title.startsWith('★')")
    assert host.locator("link[rel=icon]").get_attribute("href") == "/static/favicon.svg"
