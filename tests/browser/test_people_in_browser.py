"""People in Chromium: two accounts play a rated game to the end in two browser contexts and
both see their new ratings on their pages; the archive finds the game by a player's name; and
text a person types (names, chat, searches) shows literally everywhere, never as HTML."""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.browser.conftest import await_turn_or_others, page_errors
from tests.server.test_ratings import _random_player

from sakura.server.limits import LOOPBACK_HOSTS, Limits

PASSWORD = "a fine long password"


@pytest.fixture
def server_options() -> dict[str, Any]:
    """Two browsers on this one machine are one address: the rating-farm rule (farm.py), which
    would leave their rated game unrated, is off here (tests/server/test_rating_farm.py has it)."""
    return {"limits": Limits(allowed_hosts=LOOPBACK_HOSTS, rating_shared_days=0)}


XSS = ['<img src=x onerror="window.__xss=1">', '"><script>window.__xss=2</script>']


def sign_up(page: Any, server: str, username: str, next_path: str = "/") -> None:
    page.goto(f"{server}/login?next={next_path}")
    page.fill("#signup-username", username)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup")  # (enabled once the page's script listens)
    page.wait_for_selector("#me")


def play_until_over(pages: list[Any], seconds: float = 300) -> None:
    """Click for every page whatever it may play (a card, then a direction) until all show the
    result (bounded in time, not in clicks: a loaded machine makes each click slower)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if all(p.locator("#result:not([hidden])").count() for p in pages):
            return
        for page in pages:
            await_turn_or_others(page)
            choice = page.locator("#choice:not([hidden]) button[data-choice]:not([disabled])")
            card = page.locator("#hand button.card:not([disabled])")
            if choice.count():
                choice.first.click()
            elif card.count():
                card.first.click()
    raise AssertionError(
        f"the game did not end in {seconds:.0f} s; the pages show: "
        + " | ".join(p.locator("#status").inner_text() for p in pages)
    )


def no_injection(page: Any) -> None:
    assert page.evaluate("window.__xss") is None
    assert page.locator("img[src='x']").count() == 0
    assert page.locator("script:not([src])").count() == 0


def test_two_accounts_play_a_rated_game_and_both_see_their_new_rating(
    server: str, browser: Any, output: Path
) -> None:
    ada = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    bob = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    errors = page_errors(ada) + page_errors(bob)
    sign_up(ada, server, "Ada")
    ada.goto(f"{server}/?speed=0")
    ada.select_option("#players", "2")
    ada.check("#rated")
    assert ada.locator("#seat-1").input_value() == "friend"
    ada.screenshot(path=str(output / "lobby-rated-1366.png"), full_page=True)
    ada.click("#start")
    ada.wait_for_url("**/t/**")
    table_url = ada.url.split("?")[0].split("#")[0]
    table_id = table_url.rsplit("/", 1)[1]
    bob.goto(table_url)
    bob.click("#take-seat")  # not logged in: a rated table says so
    bob.wait_for_selector("#error:has-text('log in')")
    sign_up(bob, server, "Bob", f"/t/{table_id}")
    bob.wait_for_selector("#take-seat")
    bob.click("#take-seat")
    bob.wait_for_selector("#hand button.card")
    bob.goto(f"{table_url}?speed=0")  # seated still (the seat's token is in this context's storage),
    bob.wait_for_selector("#hand button.card")  # now without the rounds' staging, as Ada's page
    assert bob.locator("#rated").inner_text() == "Rated"  # the table says it counts
    # Each player's rating beside the name, on the shown scale (a new account: provisional).
    bob.wait_for_selector("#seats .seat-rating >> nth=1")
    shown = bob.locator("#seats .seat-rating").all_inner_texts()
    assert len(shown) == 2 and all(re.fullmatch(r"\d{3,4}\?", r) for r in shown), shown
    play_until_over([ada, bob])
    for page, name in ((ada, "Ada"), (bob, "Bob")):
        page.goto(f"{server}/u/{name}")
        page.wait_for_selector(".rating-card[data-class='sakura-2-court'] svg.rating-plot polyline")
        text = page.locator(".rating-card").inner_text()
        assert re.search(r"\d{3,4}\? \(provisional", text) and "1 game" in text, text  # the shown scale
        assert "±" in (page.locator(".rating-card .rating").get_attribute("title") or "")  # the model's
        assert page.locator("#games li[data-table]").count() == 1
    bob.screenshot(path=str(output / "player-390.png"), full_page=True)
    ada.screenshot(path=str(output / "player-1366.png"), full_page=True)
    ada.goto(f"{server}/leaderboard?class=sakura-2-court")
    ada.wait_for_selector("#rows tr a")
    assert sorted(ada.locator("#rows tr a").all_inner_texts()) == ["Ada", "Bob"]
    ada.screenshot(path=str(output / "leaderboard-1366.png"), full_page=True)
    ada.goto(f"{server}/games/{table_id}")
    ada.wait_for_selector("#board svg")
    ada.screenshot(path=str(output / "game-1366.png"), full_page=True)
    assert not errors, errors


def test_the_archive_finds_games_by_a_players_name(server: str, browser: Any, output: Path) -> None:
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    for name in ("Ada", "Zoë"):  # two games against a bot, played by a script
        created = httpx.post(f"{server}/api/tables", json={"players": 2, "name": name}).json()
        _random_player(server, created["table"]["id"], created["token"], 1)
    page.goto(f"{server}/games")
    page.wait_for_selector("#games li[data-table]")
    assert page.locator("#games li[data-table]").count() == 2
    page.fill("#q", "zoË")
    page.click("#go")
    page.wait_for_selector("#summary:has-text('Zo')")
    page.wait_for_function("() => document.querySelectorAll('#games li[data-table]').length === 1")
    assert "Zoë" in page.locator("#games li").inner_text()
    page.screenshot(path=str(output / "archive-1366.png"), full_page=True)
    page.fill("#q", "nobody")
    page.click("#go")
    page.wait_for_selector("#games li.none")
    assert page.locator("#games li a").count() == 0
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{server}/games?q=Ada")
    page.wait_for_selector("#games li[data-table]")
    page.screenshot(path=str(output / "archive-390.png"), full_page=True)


def test_what_a_person_types_never_becomes_html(server: str, browser: Any) -> None:
    for payload in XSS:
        host = browser.new_context().new_page()
        errors = page_errors(host)
        host.goto(f"{server}/?speed=0")
        host.fill("#name", payload[:24])
        host.select_option("#players", "2")
        host.select_option("#seat-1", "friend")
        host.click("#start")
        host.wait_for_url("**/t/**")
        host.wait_for_selector("#chat-input")
        host.fill("#chat-input", payload)
        host.press("#chat-input", "Enter")
        host.wait_for_selector("#chat .chat-text")
        assert host.locator("#chat .chat-text").first.inner_text() == payload
        assert payload[:24] in host.locator(".seat[data-seat='0'] .seat-name").inner_text()
        friend = browser.new_context().new_page()
        friend.goto(host.url.split("#")[0])
        friend.fill("#join-name", payload[-24:])
        friend.click("#take-seat")
        friend.wait_for_selector("#hand button.card")
        host.wait_for_selector(f".seat[data-seat='1'] .seat-name:has-text('{payload[-10:]}')")
        watcher = browser.new_context().new_page()  # a spectator with a name of their own
        watcher.goto(f"{server}/")
        watcher.fill("#name", payload[:24])
        watcher.goto(host.url.split("#")[0])
        watcher.wait_for_selector("#chat-input")
        watcher.fill("#chat-input", payload)
        watcher.press("#chat-input", "Enter")
        host.wait_for_selector("#chat .chat-line.spectator")
        assert host.locator("#chat .chat-line.spectator .chat-text").inner_text() == payload
        login = browser.new_context().new_page()
        login.goto(f"{server}/login")
        login.fill("#signup-username", payload[:24])
        login.fill("#signup-password", PASSWORD)
        login.click("#signup")
        login.wait_for_selector("#signup-error:not([hidden])")  # refused, and said as text
        archive = browser.new_context().new_page()
        archive.goto(f"{server}/games")
        archive.fill("#q", payload[:24])
        archive.click("#go")
        # the page says "no finished game yet" before the search answers: wait for the answer,
        # which names the search (as text)
        archive.locator("#games li.none", has_text=payload[:24]).wait_for()
        assert payload[:24] in archive.locator("#games li.none").inner_text()
        for page in (host, friend, watcher, login, archive):
            no_injection(page)
        assert not errors, errors


def test_names_that_look_like_html_show_literally_in_the_archive_game_and_replay(
    server: str, browser: Any
) -> None:
    for payload in XSS:
        created = httpx.post(f"{server}/api/tables", json={"players": 2, "name": payload[:24]}).json()
        table_id = created["table"]["id"]
        _random_player(server, table_id, created["token"], 2)
        page = browser.new_page()
        errors = page_errors(page)
        page.goto(f"{server}/games")
        page.wait_for_selector(f"#games li[data-table='{table_id}']")
        assert payload[:24] in page.locator(f"#games li[data-table='{table_id}']").inner_text()
        page.goto(f"{server}/games/{table_id}")
        page.wait_for_selector("#board svg")
        assert payload[:24] in page.locator("#players").inner_text()
        no_injection(page)
        page.goto(f"{server}/replay/{table_id}")
        page.wait_for_selector("#moves li")
        assert payload[:24] in page.locator("#seats").inner_text()
        no_injection(page)
        assert not errors, errors


def test_a_wrong_password_is_said_once_in_the_readers_language_next_to_the_button(
    server: str, browser: Any
) -> None:
    page = browser.new_context(locale="es-ES").new_page()
    sign_up(page, server, "Carmen")
    other = browser.new_context(locale="es-ES").new_page()  # logged out: the account, a wrong password
    other.goto(f"{server}/login")
    other.fill("#login-username", "Carmen")
    other.fill("#login-password", "not the password at all")
    other.click("#login")
    error = other.locator("#login-error:not([hidden])")
    error.wait_for()
    assert error.locator(".detail").count() == 0  # no second, English copy of the message
    assert not re.search(r"\b(password|invalid|wrong)\b", error.inner_text(), re.IGNORECASE)
    assert other.locator("#signup-error").is_hidden()
    button, message = other.locator("#login").bounding_box(), error.bounding_box()
    assert button is not None and message is not None
    assert 0 <= message["y"] - (button["y"] + button["height"]) < 60  # right under the button


def test_turn_based_ratings_and_games_are_shown_apart(server: str, browser: Any, output: Path) -> None:
    """A rated turn-based game (issue 35) rates in its own mode: the leaderboard's Pace switch
    shows it, the player's page names the mode, and the archive tags and filters the pace."""
    players = {name: httpx.Client(base_url=server, timeout=60) for name in ("Ada", "Bob")}
    csrf = {}
    for name, client in players.items():
        answer = client.post("/api/signup", json={"username": name, "password": PASSWORD})
        csrf[name] = {"x-csrf-token": answer.json()["csrf"]}
    body = {"players": 2, "variant": "court", "rated": True, "pace": "1d", "seats": [{"kind": "human"}] * 2}
    created = players["Ada"].post("/api/tables", json=body, headers=csrf["Ada"]).json()
    turn_id = created["table"]["id"]
    joined = players["Bob"].post(f"/api/tables/{turn_id}/join", json={}, headers=csrf["Bob"]).json()
    both = [
        threading.Thread(target=_random_player, args=(server, turn_id, token, seed))
        for seed, token in enumerate((created["token"], joined["token"]))
    ]
    for thread in both:
        thread.start()
    realtime = httpx.post(f"{server}/api/tables", json={"players": 2, "name": "Zoë"}).json()
    _random_player(server, realtime["table"]["id"], realtime["token"], 3)  # against a bot, in real time
    for thread in both:
        thread.join(120)
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    errors = page_errors(page)
    page.goto(f"{server}/leaderboard?class=sakura-2-court")
    page.wait_for_selector("#rows td.none")  # nobody rated in real time
    page.select_option("#mode", "turn")
    page.wait_for_selector("#rows tr a")
    assert sorted(page.locator("#rows tr a").all_inner_texts()) == ["Ada", "Bob"]
    page.goto(f"{server}/u/Ada")
    page.wait_for_selector(".rating-card[data-mode='turn'][data-class='sakura-2-court'] svg.rating-plot")
    assert "Turn-based" in page.locator(".rating-card h3").inner_text()
    assert page.locator(".rating-card[data-mode='realtime']").count() == 0
    page.goto(f"{server}/games")
    page.wait_for_function("() => document.querySelectorAll('#games li[data-table]').length === 2")
    tag = page.locator(f"#games li[data-table='{turn_id}'] .pace-tag")
    assert tag.inner_text() == "Turn-based: 1 day a move"
    page.select_option("#mode", "turn")
    page.wait_for_function("() => document.querySelectorAll('#games li[data-table]').length === 1")
    assert page.locator("#games li[data-table]").get_attribute("data-table") == turn_id
    assert "mode=turn" in page.url
    page.select_option("#mode", "realtime")
    rows = "document.querySelectorAll('#games li[data-table]')"
    page.wait_for_function(
        f"() => {rows}.length === 1 && {rows}[0].dataset.table === '{realtime['table']['id']}'"
    )
    page.screenshot(path=str(output / "archive-pace-1366.png"), full_page=True)
    page.goto(f"{server}/games/{turn_id}")  # the game's page says its pace among its facts
    page.wait_for_selector("#game-facts dd:has-text('Turn-based: 1 day a move')")
    assert not errors, errors
