"""axe-core on the people's pages: log-in, the archive, a finished game, a player, the
leaderboard, and the table with its chat; no "serious" or "critical" violation, in English
and in Persian."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from tests.browser.test_accessibility import violations
from tests.server.test_ratings import _random_player


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_people_pages_have_no_serious_violations(server: str, browser: Any, lang: str) -> None:
    created = httpx.post(f"{server}/api/tables", json={"players": 2, "name": "Ada"}).json()
    table_id = created["table"]["id"]
    _random_player(server, table_id, created["token"], 3)
    signed = httpx.post(f"{server}/api/signup", json={"username": "Negar", "password": "a long password"})
    assert signed.status_code == 201
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    for path, ready in (
        (f"/login?lang={lang}", "#signup:not([disabled])"),
        (f"/games?lang={lang}", "#games li[data-table]"),
        (f"/games/{table_id}?lang={lang}", "#board svg"),
        (f"/u/Negar?lang={lang}", "#ratings h2"),
        (f"/leaderboard?lang={lang}", "#rows tr"),
    ):
        page.goto(server + path)
        page.wait_for_selector(ready)
        assert violations(page) == [], path
    other = httpx.post(f"{server}/api/tables", json={"players": 2, "name": "Ada"}).json()
    page.goto(f"{server}/t/{other['table']['id']}?lang={lang}&speed=0#token={other['token']}")
    page.wait_for_selector("#chat-details", state="attached")
    page.click("#chat-details summary")  # folded at a table of bots
    page.fill("#chat-input", "سلام")
    page.press("#chat-input", "Enter")
    page.wait_for_selector("#chat .chat-line")
    assert violations(page) == []
