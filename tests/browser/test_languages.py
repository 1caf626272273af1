"""Whole games in Persian (right to left) and in Spanish, in a real browser.

Persian comes from the browser's preference (``navigator.languages``); Spanish is chosen in
the language menu and remembered. Screenshots go to the ``output`` folder like the other browser
tests' (``SAKURA_TEST_OUTPUT`` to keep them). Skips with the reason when Playwright or
/usr/bin/chromium is missing.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.browser.conftest import await_turn, box, page_errors

# The visible text of the page that is in the page's language: text nodes that are rendered,
# except those inside an element marked with another `lang` (the language menu names each
# language in itself; a server detail is marked English).
VISIBLE_TEXT = """() => {
  const lang = document.documentElement.lang;
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || !node.textContent.trim()) continue;
    if (parent.closest(`[lang]:not([lang="${lang}"])`)) continue;
    if (!parent.checkVisibility({ visibilityProperty: true })) continue;
    texts.push(node.textContent.trim());
  }
  return texts;
}"""


def start_against_three_bots(page: Any) -> None:
    page.select_option("#players", "4")
    for seat in (1, 2, 3):
        page.select_option(f"#seat-{seat}", "beginner" if seat == 1 else "club")
    page.click("#start")
    page.wait_for_url("**/t/**")
    page.wait_for_selector("#hand button.card:not([disabled])")


def play_to_the_end(page: Any, midway: Any = None) -> int:
    """Click the first playable card or the first direction until the result shows; call
    ``midway(page)`` once, after the third card."""
    plays = 0
    while not page.locator("#result:not([hidden])").count():
        choice = page.locator("#choice:not([hidden]) button[data-choice]:not([disabled])")
        card = page.locator("#hand button.card:not([disabled])")
        if choice.count():
            choice.first.click()
        elif card.count():
            card.first.click()
            plays += 1
            if plays == 3 and midway:
                page.wait_for_selector("#log li")
                midway(page)
        else:
            await_turn(page)
    return plays


def untranslated(page: Any) -> list[str]:
    return [text for text in page.evaluate(VISIBLE_TEXT) if re.search("[A-Za-z]", text)]


def test_a_whole_game_in_persian_reads_right_to_left(server: str, browser: Any, output: Path) -> None:
    context = browser.new_context(locale="fa-IR", viewport={"width": 1200, "height": 900})
    page = context.new_page()
    errors = page_errors(page)
    page.goto(f"{server}/?speed=0")  # no ?lang: the browser's preference decides
    page.wait_for_selector("body[data-ready]")  # translated (<html lang> comes at once)
    assert page.get_attribute("html", "lang") == "fa"
    assert page.get_attribute("html", "dir") == "rtl"
    assert page.locator("#lang").input_value() == "fa"
    assert not untranslated(page), untranslated(page)
    page.screenshot(path=str(output / "lobby-fa.png"), full_page=True)
    start_against_three_bots(page)
    assert page.get_attribute("html", "dir") == "rtl"

    # The garden: three sakuras, four painters, drawn mirrored (the gate at the top right).
    assert page.locator("svg.garden .space-S").count() == 3
    assert page.locator("svg.garden .painter").count() == 4
    gate = box(page, "svg.garden [data-space='0'] rect")
    first = box(page, "svg.garden [data-space='1'] ellipse")
    assert gate is not None and first is not None
    assert gate["x"] > first["x"]
    # Persian digits, with the printed number small on each card.
    assert re.search("[۰-۹]", page.locator("#facts").inner_text())
    assert page.locator("#hand .card .card-latin").count() == 5

    def midway(page: Any) -> None:
        assert not untranslated(page), untranslated(page)
        page.screenshot(path=str(output / "table-fa.png"), full_page=True)
        page.click("#help summary")
        assert not untranslated(page), untranslated(page)
        page.screenshot(path=str(output / "help-fa.png"), full_page=True)
        page.click("#help summary")

    plays = play_to_the_end(page, midway)
    assert plays >= 5
    assert "ژتون" in page.locator("#result").inner_text()
    assert page.locator("#log li").filter(has_text="کارت").count() > 0
    assert not untranslated(page), untranslated(page)
    page.screenshot(path=str(output / "result-fa.png"), full_page=True)
    assert not errors, errors
    context.close()


def test_a_whole_game_in_spanish_chosen_in_the_menu(server: str, browser: Any, output: Path) -> None:
    context = browser.new_context(locale="en-US", viewport={"width": 1200, "height": 900})
    page = context.new_page()
    errors = page_errors(page)
    page.goto(f"{server}/?speed=0")
    assert page.get_attribute("html", "lang") == "en"
    with page.expect_navigation():
        page.select_option("#lang", "es")
    page.wait_for_selector("body[data-ready]")  # translated (<html lang> comes at once)
    assert page.evaluate("localStorage.getItem('sakuraLang')") == "es"
    assert "sakura_lang=es" in page.evaluate("document.cookie")
    assert page.locator("#start").inner_text() == "Abrir la mesa"
    start_against_three_bots(page)  # the table page remembers the choice
    assert page.get_attribute("html", "lang") == "es"
    assert page.get_attribute("html", "dir") == "ltr"

    def midway(page: Any) -> None:
        page.screenshot(path=str(output / "table-es.png"), full_page=True)

    plays = play_to_the_end(page, midway)
    assert plays >= 5
    assert "fichas" in page.locator("#result").inner_text()
    # One line a card: "Carta 17 de Rojo (bot, intermedio): el Emperador avanza ..."
    lines = page.locator("#log li").all_inner_texts()
    assert any(re.match(r"Carta \d+ de .+: ", line) for line in lines), lines[:20]
    page.screenshot(path=str(output / "result-es.png"), full_page=True)
    assert not errors, errors
    context.close()
