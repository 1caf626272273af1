"""The table's chat in Chromium: a player and a spectator talk in Persian, quick phrases show
in the reader's language, a spectator is marked, a mute hides a seat's words for the reader
only, and the replay shows what was said."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.browser.conftest import page_errors


def _table_with_a_friend_seat(browser: Any, server: str, lang: str, name: str) -> tuple[Any, str]:
    host = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    host.goto(f"{server}/?speed=0&lang={lang}")
    host.fill("#name", name)
    host.select_option("#players", "2")
    host.select_option("#seat-1", "friend")
    host.click("#start")
    host.wait_for_url("**/t/**")
    host.wait_for_selector("#chat-input")
    return host, host.url.split("?")[0]


def test_a_player_and_a_spectator_chat_in_persian(server: str, browser: Any, output: Path) -> None:
    host, url = _table_with_a_friend_seat(browser, server, "fa", "نگار")
    errors = page_errors(host)
    watcher = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    watcher.goto(f"{url}?speed=0&lang=fa")
    watcher.wait_for_selector("#chat-input")
    host.fill("#chat-input", "سلام، خوش آمدید!")
    host.press("#chat-input", "Enter")
    watcher.wait_for_selector("#chat .chat-line:has-text('سلام، خوش آمدید!')")
    line = watcher.locator("#chat .chat-line").first
    assert "نگار" in line.locator(".chat-who").inner_text()
    watcher.click("#chat-phrases button[data-phrase='gg']")
    host.wait_for_selector("#chat .chat-line.spectator:has-text('بازی خوبی بود')")
    assert host.locator("#chat .chat-line.spectator .chat-tag").inner_text() == "تماشاگر"
    host.screenshot(path=str(output / "chat-fa-1366.png"))
    watcher.screenshot(path=str(output / "chat-fa-390.png"), full_page=True)
    assert not errors, errors


def test_a_mute_hides_a_seat_for_the_reader_only_and_survives_a_reload(server: str, browser: Any) -> None:
    host, url = _table_with_a_friend_seat(browser, server, "en", "Ada")
    friend = browser.new_context().new_page()
    friend.goto(f"{url}?speed=0")
    friend.fill("#join-name", "Bo")
    friend.click("#take-seat")
    friend.wait_for_selector("#hand button.card:not([disabled])")
    friend.fill("#chat-input", "first words")
    friend.press("#chat-input", "Enter")
    host.wait_for_selector("#chat .chat-line:has-text('first words')")
    host.click(".seat[data-seat='1'] button[data-mute='1']")
    host.wait_for_selector("#chat .chat-line:has-text('first words')", state="detached")
    friend.fill("#chat-input", "unheard")
    friend.press("#chat-input", "Enter")
    friend.wait_for_selector("#chat .chat-line:has-text('unheard')")  # the speaker still sees it
    host.fill("#chat-input", "can you hear me?")
    host.press("#chat-input", "Enter")
    friend.wait_for_selector("#chat .chat-line:has-text('can you hear me?')")  # muting is one way
    host.reload()
    host.wait_for_selector("#chat .chat-line:has-text('can you hear me?')")
    assert host.locator("#chat .chat-line:has-text('unheard')").count() == 0
    host.click(".seat[data-seat='1'] button[data-mute='1']")
    host.wait_for_selector("#chat .chat-line:has-text('unheard')")
    watcher = browser.new_context().new_page()
    watcher.goto(url)
    watcher.wait_for_selector("#chat-input")
    watcher.fill("#chat-input", "hi from a spectator")
    watcher.press("#chat-input", "Enter")
    host.wait_for_selector("#chat .chat-line.spectator")  # a spectator spoke: their mute shows
    host.click("#mute-spectators")  # the spectators, all together
    watcher.fill("#chat-input", "from the stands")
    watcher.press("#chat-input", "Enter")
    watcher.wait_for_selector("#chat .chat-line:has-text('from the stands')")
    friend.wait_for_selector("#chat .chat-line:has-text('from the stands')")
    assert host.locator("#chat .chat-line:has-text('from the stands')").count() == 0
    host.click("#mute-spectators")
    host.wait_for_selector("#chat .chat-line.spectator:has-text('from the stands')")


def test_spectators_may_not_chat_where_the_creator_said_so(server: str, browser: Any) -> None:
    host = browser.new_page()
    host.goto(f"{server}/?speed=0")
    host.select_option("#players", "2")
    host.uncheck("#spectator-chat")
    host.click("#start")
    host.wait_for_url("**/t/**")
    host.wait_for_selector("#chat-details:not([open])")  # a table of bots: the chat is folded away
    host.click("#chat-details summary")
    host.wait_for_selector("#chat-input")
    watcher = browser.new_context().new_page()
    watcher.goto(host.url)
    watcher.wait_for_selector("#chat-details[open]")  # a spectator watches people: open
    watcher.wait_for_selector("#chat-note:has-text('Spectators may not chat')")
    assert watcher.locator("#chat-form").is_hidden()


def test_a_folded_chat_counts_what_came_and_opening_it_clears_the_count(server: str, browser: Any) -> None:
    host, url = _table_with_a_friend_seat(browser, server, "en", "Ada")
    host.click("#chat-details summary")  # the reader folds the chat away
    host.wait_for_selector("#chat-details:not([open])")
    assert host.locator("#chat-unread").is_hidden()
    friend = browser.new_context().new_page()
    friend.goto(f"{url}?speed=0")
    friend.fill("#join-name", "Bo")
    friend.click("#take-seat")
    friend.wait_for_selector("#hand button.card:not([disabled])")  # seated (its socket opened again)
    for text in ("hello", "your move"):
        friend.fill("#chat-input", text)
        friend.press("#chat-input", "Enter")
        friend.wait_for_selector(f"#chat .chat-line:has-text('{text}')")
    host.wait_for_selector("#chat-unread:not([hidden]):has-text('2')")
    assert host.locator("#chat-details:not([open])").count() == 1  # still folded: the count says it
    assert host.locator("#chat-unread").get_attribute("aria-label") == "2 unread messages"
    host.click("#chat-details summary")
    host.wait_for_selector("#chat-unread[hidden]", state="attached")
