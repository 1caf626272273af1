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
from tests.live_server import running_server

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]
OUTPUT = Path(os.environ.get("SAKURA_TEST_OUTPUT", Path(__file__).resolve().parents[2] / "out" / "browser"))


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """A live uvicorn server on loopback, in a thread."""
    with running_server(tmp_path / "sakura.db") as url:
        yield url


@pytest.fixture
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="playwright is not installed (pip install -e '.[dev]')")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install -y chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def output() -> Path:
    """Where screenshots go (``SAKURA_TEST_OUTPUT`` to change)."""
    OUTPUT.mkdir(parents=True, exist_ok=True)
    return OUTPUT


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
        " return r ? { x: r.x, y: r.y, width: r.width, height: r.height } : null; }", selector)
    return found
