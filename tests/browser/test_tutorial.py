""" "Learn to play" in Chromium: from the lobby, the guided game played to its end in every
language, with the board highlighting what each step talks about; a wrong move is explained
and changes nothing; the end leads to the lobby."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.browser.conftest import page_errors
from tests.browser.test_accessibility import violations
from tests.browser.test_languages import untranslated
from tests.browser.test_phone import PHONE, fits

from sakura.records import load_script

SCRIPT = load_script()


def _ready(page: Any) -> None:
    page.wait_for_function(
        "() => document.body.dataset.ready === '1' && window.sakuraTutorial && !window.sakuraTutorial.busy()"
    )


def _settled(page: Any, index: int) -> None:
    page.wait_for_function(
        f"() => window.sakuraTutorial.index() === {index} && !window.sakuraTutorial.busy()"
    )


def _marked(page: Any) -> list[str]:
    """What is highlighted now, as data: spaces, painters, cards, and element ids."""
    found: list[str] = page.eval_on_selector_all(
        ".tut-hl",
        """nodes => nodes.map(n =>
        n.dataset.space !== undefined ? `space ${n.dataset.space}` :
        n.dataset.painter !== undefined ? `painter ${n.dataset.painter}` :
        n.dataset.card !== undefined ? `card ${n.dataset.card}` :
        n.classList.contains('emperor') ? 'emperor' : (n.id || n.className.baseVal || n.className))""",
    )
    return found


def _expected_marks(index: int) -> set[str]:
    light = SCRIPT.steps[index].highlight
    out = {f"space {s}" for s in light.spaces} | {f"painter {p}" for p in light.painters}
    out |= {f"card {c}" for c in light.cards}
    for flag, name in (
        ("emperor", "emperor"),
        ("hand", "hand"),
        ("choice", "choice"),
        ("seats", "seats"),
        ("log", "log"),
    ):
        if getattr(light, flag):
            out.add(name)
    return out


def _play(page: Any, action: str) -> None:
    if action.startswith("play "):
        page.click(f'#hand button[data-card="{action.split()[1]}"]')
    else:
        page.click(f'#choice button[data-choice="{action}"]')


@pytest.mark.parametrize("lang", ["en", "es", "fa"])
def test_the_tutorial_plays_to_its_end_from_the_lobby(
    server: str, browser: Any, lang: str, output: Path
) -> None:
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    errors = page_errors(page)
    page.goto(f"{server}/?lang={lang}")
    page.wait_for_selector("#learn")
    page.click("#learn")
    page.wait_for_url("**/learn*")
    page.goto(page.url + ("&" if "?" in page.url else "?") + f"speed=0&lang={lang}")
    _ready(page)
    assert page.get_attribute("html", "dir") == ("rtl" if lang == "fa" else "ltr")
    for index, step in enumerate(SCRIPT.steps):
        _settled(page, index)
        assert page.inner_text("#lesson-text") == step.says(lang)
        if lang == "fa":
            assert not untranslated(page), (step.id, untranslated(page))
        assert _expected_marks(index) <= set(_marked(page)), (step.id, _marked(page))
        if step.highlight.tiles:
            assert page.locator("#seats .seat-tile.tut-hl").count() == 3
        if step.expect is None and lang == "fa":  # by keyboard: Next has the focus
            assert page.evaluate("document.activeElement.id") == "lesson-next"
            page.keyboard.press("Enter")
        elif step.expect is None:
            page.click("#lesson-next")
        elif lang == "fa":  # the table's keys: a card by its place in the hand, F/B a choice
            assert page.is_hidden("#lesson-next")
            if step.expect.startswith("play "):
                hand = page.evaluate("window.sakuraTutorial.view().hand")
                page.keyboard.press(f"Digit{hand.index(int(step.expect.split()[1])) + 1}")
            else:
                page.keyboard.press("KeyF" if step.expect == "forward" else "KeyB")
        else:
            assert page.is_hidden("#lesson-next")
            _play(page, step.expect)
        if step.id in ("choose-forward", "the-end"):
            page.screenshot(path=str(output / f"tutorial-{step.id}-{lang}.png"))
    page.wait_for_function("() => window.sakuraTutorial.finished()")
    assert page.is_visible("#result")
    if lang == "fa":
        assert not untranslated(page), untranslated(page)
    view = page.evaluate("() => window.sakuraTutorial.view()")
    assert view["scored"] == 1 and view["tokens"][0] == 8  # the scoring happened, three for you
    page.screenshot(path=str(output / f"tutorial-done-{lang}.png"))
    page.click("#play-real")
    page.wait_for_selector("#create")
    assert page.url.rstrip("/") == server.rstrip("/")
    assert not errors


def test_a_wrong_move_changes_nothing_and_is_explained(server: str, browser: Any, output: Path) -> None:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    errors = page_errors(page)
    page.goto(f"{server}/learn?speed=0&lang=es")
    _ready(page)
    fits(page)
    first_move = next(i for i, s in enumerate(SCRIPT.steps) if s.expect)
    for index in range(first_move):
        _settled(page, index)
        assert page.is_disabled('#hand button[data-card="49"]')  # read first: no card yet
        page.click("#lesson-next")
    _settled(page, first_move)
    board = page.inner_html("#board")
    hand = page.inner_html("#hand")
    page.tap('#hand button[data-card="10"]')
    page.wait_for_selector("#lesson-feedback:not([hidden])")
    assert page.inner_text("#lesson-feedback") == SCRIPT.steps[first_move].explains("es")
    assert page.evaluate("() => window.sakuraTutorial.index()") == first_move
    assert page.inner_html("#board") == board and page.inner_html("#hand") == hand
    assert page.inner_text("#log").strip() == ""
    page.screenshot(path=str(output / "tutorial-wrong-phone-es.png"))
    page.tap('#hand button[data-card="49"]')
    _settled(page, first_move + 1)
    assert page.is_hidden("#lesson-feedback")
    assert "49" in page.inner_text("#log")
    fits(page)
    assert not errors
    context.close()


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_tutorial_has_no_serious_accessibility_violations(server: str, browser: Any, lang: str) -> None:
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.goto(f"{server}/learn?speed=0&lang={lang}")
    _ready(page)
    assert violations(page) == []
    for index, step in enumerate(SCRIPT.steps):
        _settled(page, index)
        if step.id in ("play-49", "choose-forward"):  # a card to play; a choice on the board
            assert violations(page) == [], step.id
        if step.expect is None:
            page.click("#lesson-next")
        else:
            _play(page, step.expect)
    page.wait_for_function("() => window.sakuraTutorial.finished()")
    assert violations(page) == []


def test_back_returns_to_the_step_before_as_it_was(server: str, browser: Any, output: Path) -> None:
    """ "Previous step" shows the step before at once, its board, hand and log as they were there, and
    the lesson goes on from it; the first step has none."""
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    errors = page_errors(page)
    page.goto(f"{server}/learn?speed=0")
    _ready(page)
    assert page.is_hidden("#lesson-back")
    first_move = next(i for i, s in enumerate(SCRIPT.steps) if s.expect)
    for index in range(first_move):
        _settled(page, index)
        page.click("#lesson-next")
    _settled(page, first_move)
    before = {part: page.inner_html(part) for part in ("#board", "#hand", "#log")}
    assert SCRIPT.steps[first_move].expect is not None
    _play(page, SCRIPT.steps[first_move].expect)
    _settled(page, first_move + 1)
    assert page.inner_html("#log") != before["#log"]  # the move is in the log
    page.click("#lesson-back")
    _settled(page, first_move)
    assert {part: page.inner_html(part) for part in before} == before
    assert page.inner_text("#lesson-text") == SCRIPT.steps[first_move].says("en")
    page.screenshot(path=str(output / "tutorial-back.png"))
    _play(page, SCRIPT.steps[first_move].expect)  # and on again, the same way
    _settled(page, first_move + 1)
    assert not errors, errors
