"""Fixtures of the browser tests: a live server and Debian's Chromium driven by Playwright.

The tests skip with the reason when Playwright or /usr/bin/chromium is missing (``apt-get
install chromium``; Playwright's own browser download does not work on our machines).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def _chromium() -> Iterator[Any]:
    """One Chromium for a module's tests (a launch costs about a second; each test still gets
    fresh pages and contexts, closed after it: see ``browser``)."""
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is not installed (pip install -e '.[dev]')"
    )
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install -y chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def browser(_chromium: Any) -> Iterator[Any]:
    """The module's Chromium; what a test opened in it (``new_page``, ``new_context``) is
    closed after the test, so no page, cookie or storage passes to the next one."""
    before = set(_chromium.contexts)
    try:
        yield _chromium
    finally:
        for context in _chromium.contexts:
            if context not in before:
                context.close()


@pytest.fixture(scope="session")
def output(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go: a temporary folder of the run (pytest keeps the last runs' under
    its base temp), or ``SAKURA_TEST_OUTPUT`` to keep them somewhere; never the repository."""
    chosen = os.environ.get("SAKURA_TEST_OUTPUT")
    if not chosen:
        return tmp_path_factory.mktemp("browser")
    path = Path(chosen)
    path.mkdir(parents=True, exist_ok=True)
    return path


def page_errors(page: Any) -> list[str]:
    """The page's uncaught script errors, collected as they happen (a test asserts none)."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


def box(page: Any, selector: str) -> dict[str, float] | None:
    """The first element's box for ``selector`` (as ``bounding_box()``), found and measured in
    one evaluation: the table redraws its garden (a new ``svg``) on every update, so a
    locator's element can be replaced between being found and being measured, and
    ``bounding_box()`` then answers None although the page is whole."""
    found: dict[str, float] | None = page.evaluate(
        "(selector) => { const r = document.querySelector(selector)?.getBoundingClientRect();"
        " return r ? { x: r.x, y: r.y, width: r.width, height: r.height } : null; }",
        selector,
    )
    return found


# Whatever lets a page go on: a card to play, a choice to answer, or the game's result.
PLAYABLE = (
    "#result:not([hidden]), #choice:not([hidden]) button:not([disabled]), #hand button.card:not([disabled])"
)


def await_turn(page: Any) -> None:
    """Wait until ``page`` can act (a card, a choice) or the game is over: what a click loop
    waits for when nothing is enabled (right after a click every button is disabled until
    the server answers), instead of a fixed pause."""
    page.wait_for_selector(PLAYABLE, state="attached")


def await_turn_or_others(page: Any) -> None:
    """Wait until ``page`` can act, the game is over, or its table waits on someone else (its
    view lists nothing for it, the staging done): what a loop over several pages waits for on
    each in turn, since no one wait spans two pages."""
    page.wait_for_function(
        "(playable) => !!document.querySelector(playable) || (!!window.sakuraTable"
        " && !window.sakuraTable.animating() && window.sakuraTable.view()?.legal_actions.length === 0)",
        arg=PLAYABLE,
    )


def frame_done(page: Any) -> None:
    """Return once the page has drawn a frame after now: every input event dispatched before
    has been handled. What a test awaits before it checks that a key did *nothing* (there is
    no condition to wait for when nothing must happen)."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)))")
