"""The three-area card game in a real browser (Debian's Chromium, Playwright, a live server):
a whole game against a bot by clicking (pick a card, then its area; discard when nothing fits;
give), the areas and their scores drawn, the result; a friend watching; the replay; Persian.

Skips with the reason when Playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.browser.conftest import await_turn, page_errors
from tests.browser.test_languages import untranslated


def start_against_a_bot(page: Any, level: str = "club") -> None:
    page.wait_for_selector("#game option[value='sakura-cards']", state="attached")  # the lobby is ready
    page.select_option("#game", "sakura-cards")
    page.wait_for_selector("#players-row", state="hidden")  # two players, one variant: no choice
    assert page.locator("#variant-row").is_hidden()
    page.select_option("#seat-1", level)
    page.click("#start")
    page.wait_for_url("**/t/**")
    page.wait_for_selector(".cards-board")


def play_to_the_end(page: Any, midway: Any = None) -> dict[str, int]:
    """Click through a whole game: a card of the hand, then the first area offered. Counts
    what was done; ``midway(page)`` is called once, after the fifth placement."""
    done = {"placed": 0, "given": 0, "discarded": 0}
    while not page.locator("#result:not([hidden])").count():
        area = page.locator("#choice:not([hidden]) button[data-area]:not([disabled])")
        card = page.locator("#hand button.card:not([disabled])")
        if area.count():
            area.first.click()
            done["placed"] += 1
            if done["placed"] == 5 and midway:
                midway(page)
        elif card.count():
            prompt = page.locator("#prompt").inner_text()
            card.first.click()
            if "give" in prompt or "بدهید" in prompt:
                done["given"] += 1
            elif "discard" in prompt or "دور انداختن" in prompt:
                done["discarded"] += 1
        else:
            await_turn(page)
    return done


def side_list_agrees_with_the_areas(page: Any) -> None:
    """The points written down, and this round's so far: the sum of what the areas show."""
    seat = page.locator(".seat").first.inner_text()
    shown = re.search(r"\d+ points? \(\+(\d+) this round\)", seat)
    assert shown, seat
    areas = page.locator(".cards-player[data-seat='0'] .area-points").all_inner_texts()
    assert int(shown.group(1)) == sum(int(a) for a in areas), (seat, areas)


def sheet_is_the_engines(page: Any, server: str, where: str = "#result") -> None:
    """The score sheet (issue 28): three rounds of three areas, each with its points and what
    scored, the discards and gifts, and totals that are the game's outcome, winner first."""
    page.wait_for_selector(f"{where} .cards-sheet tfoot td")
    table_id = page.url.split("?")[0].rstrip("/").split("/")[-1]
    outcome = page.request.get(f"{server}/api/tables/{table_id}/record").json()["outcome"]
    sheet = page.locator(f"{where} .cards-sheet")
    assert sheet.locator("tbody[data-round]").count() == 3
    assert sheet.locator("td[data-area]").count() == 3 * 3 * 2
    totals = {
        int(cell.get_attribute("data-seat")): int(cell.inner_text())
        for cell in sheet.locator("tfoot td").all()
    }
    assert totals == dict(enumerate(outcome["scores"])), (totals, outcome)
    assert int(sheet.locator("thead th[data-seat]").first.get_attribute("data-seat")) == outcome["winners"][0]
    given = sheet.locator("tr", has_text="Given").locator(".card.mini").count()
    assert given >= 24, given  # a gift nearly every turn, each card shown


def moves_name_the_cards(page: Any) -> None:
    """Once the game is over the replay's move list names every card placed and given."""
    moves = page.locator("#moves li").all_inner_texts()
    assert any(re.search(r"places the (red|blue|green|yellow) \d", m) for m in moves), moves[:4]
    gifts = sum(bool(re.search(r" gives .+ the (red|blue|green|yellow) \d", m)) for m in moves)
    assert gifts >= 24, moves[:4]


def replay_at_the_end(page: Any, server: str, output: Path) -> None:
    """The replay steps through the finished game from the spectator's side; its end shows
    the score sheet, and its move list names the cards."""
    page.click("text=Replay this game")
    page.wait_for_selector(".cards-board")
    page.click("#last")
    page.wait_for_selector("#log li")
    assert page.locator(".cards-player .area .card.mini").count() >= 6
    sheet_is_the_engines(page, server, "#sheet-box")
    moves_name_the_cards(page)
    page.screenshot(path=str(output / "cards-replay.png"), full_page=True)


def test_a_whole_card_game_against_a_bot_by_clicking(server: str, browser: Any, output: Path) -> None:
    page = browser.new_page(viewport={"width": 1200, "height": 1000})
    errors = page_errors(page)
    page.goto(f"{server}/?speed=0")
    start_against_a_bot(page)
    assert page.locator(".cards-player").count() == 2
    assert page.locator(".cards-player .area").count() == 6
    page.wait_for_selector("#hand button.card:not([disabled])")
    assert page.locator("#hand button.card").count() >= 10  # ten dealt (eleven with a gift)
    page.screenshot(path=str(output / "cards-table.png"), full_page=True)

    # A second browser context follows the invite link: no free seat, so it watches.
    invite = page.locator("#invite input").first.input_value()
    watcher = browser.new_context().new_page()
    watcher.goto(f"{invite}?speed=0")
    watcher.wait_for_selector("#status:has-text('watching')")
    assert watcher.locator("#hand-area").is_hidden()
    assert watcher.locator(".cards-player").count() == 2

    # Picking a card offers the areas it fits (the engine's legal actions), marked on the board.
    page.wait_for_selector("#prompt:has-text('choose a card to place')")
    page.locator("#hand button.card:not([disabled])").first.click()
    page.wait_for_selector("#choice:not([hidden]) button[data-area]")
    assert page.locator(".cards-player .area.target").count() >= 1
    assert "Where does" in page.locator("#prompt").inner_text()
    page.keyboard.press("Escape")  # put it back
    page.wait_for_selector("#choice", state="hidden")

    def midway(page: Any) -> None:
        page.screenshot(path=str(output / "cards-midway.png"), full_page=True)
        assert page.locator(".cards-player .area .card.mini").count() >= 5
        side_list_agrees_with_the_areas(page)

    done = play_to_the_end(page, midway)
    # Three rounds: each player places or discards ten cards a round and gives nearly as many.
    assert done["placed"] + done["discarded"] == 30 and done["given"] >= 24, done
    result = page.locator("#result").inner_text()
    assert re.search(r"wins with \d+ points? to \d+|A draw", result), result
    assert page.locator("#rematch").count() == 1
    sheet_is_the_engines(page, server)
    # The last round's scoring is shown with the three cards that scored, and logged per player.
    assert page.locator(".cards-scored").filter(has_text="Round 3 scored").count() == 1
    lines = page.locator("#log li").all_inner_texts()
    assert sum("Round 3:" in line and "garden:" in line for line in lines) == 2, lines[:12]
    assert any(re.search(r"places the (red|blue|green|yellow) \d", line) for line in lines)
    assert any("gives you the" in line for line in lines) and any("You give the" in line for line in lines)
    page.screenshot(path=str(output / "cards-result.png"), full_page=True)
    watcher.wait_for_selector("#result:not([hidden])")
    # The watcher never saw a gift's card: its log tells gifts face down.
    watched = watcher.locator("#log li").all_inner_texts()
    assert any("a card face down" in line for line in watched)
    assert not any("gives you" in line or "You give" in line for line in watched)

    replay_at_the_end(page, server, output)
    assert not errors, errors


def test_the_card_game_in_persian(server: str, browser: Any, output: Path) -> None:
    context = browser.new_context(locale="fa-IR", viewport={"width": 1200, "height": 1000})
    page = context.new_page()
    errors = page_errors(page)
    page.goto(f"{server}/?speed=0")
    page.wait_for_selector("body[data-ready]")  # translated (<html lang> comes at once)
    page.select_option("#game", "sakura-cards")
    assert not untranslated(page), untranslated(page)
    start_against_a_bot(page, "beginner")
    assert page.get_attribute("html", "dir") == "rtl"
    page.wait_for_selector("#hand button.card:not([disabled])")
    assert re.search("[۰-۹]", page.locator("#hand").inner_text())  # Persian digits on the cards

    def midway(page: Any) -> None:
        assert not untranslated(page), untranslated(page)
        page.screenshot(path=str(output / "cards-fa.png"), full_page=True)
        page.click("#help summary")
        assert page.locator("#help").filter(has_text="شکوفه").count() == 1
        assert not untranslated(page), untranslated(page)
        page.click("#help summary")

    done = play_to_the_end(page, midway)
    assert done["placed"] + done["discarded"] == 30
    assert "امتیاز" in page.locator("#result").inner_text()
    assert not untranslated(page), untranslated(page)
    page.screenshot(path=str(output / "cards-result-fa.png"), full_page=True)
    assert not errors, errors
    context.close()
