"""``sakura play --join`` at a turn-based table (issue 35): the prompt says when the move is due
in hours or days ("Due in 2 d 23 h"), where a real-time table's timer counts seconds, in the
app's language; and the game plays to its end by key presses as a real-time one does.

A real uvicorn serves the app on loopback (the ``server`` fixture); the table is made through
the HTTP API and the app is driven by key presses (Textual pilot)."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from tests.tui.screen import create_table, log_text, wait_for
from tests.tui.test_join import _play_to_the_end, _remote
from textual.pilot import Pilot

from sakura.server.limits import LOOPBACK_HOSTS, Limits
from sakura.tui import SakuraApp, i18n
from sakura.tui.remote_screens import JoinFailedScreen
from sakura.tui.sakura_screens import SakuraScreen

pytestmark = pytest.mark.anyio


def _prompt(app: SakuraApp) -> str:
    return str(_remote(app).query_one("#prompt").render())


async def _joined(app: SakuraApp, pilot: Pilot[None]) -> SakuraScreen:
    await wait_for(pilot, lambda: any(isinstance(s, SakuraScreen) for s in app.screen_stack))
    return _remote(app)


async def test_a_turn_based_table_shows_its_deadline_in_days_and_plays_to_the_end(server: str) -> None:
    created = create_table(server, ["human", "easy"], pace="3d")
    table = created["table"]["id"]
    app = SakuraApp(join=f"{server}/t/{table}#token={created['token']}", delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        game = await _joined(app, pilot)
        await wait_for(pilot, lambda: "Due in 2 d 23 h" in _prompt(app))
        assert "left to decide" not in _prompt(app)  # no countdown of seconds
        assert "A turn-based table" in log_text(game)
        assert await _play_to_the_end(app, pilot) >= 5  # a move each round, every one ours
    info = httpx.get(f"{server}/api/tables/{table}", timeout=60).json()
    assert info["status"] == "finished" and info["pace"] == "3d"


async def test_hours_and_minutes_in_the_apps_language(server: str) -> None:
    created = create_table(server, ["human", "easy"], pace="12h")
    link = f"{server}/t/{created['table']['id']}#token={created['token']}"
    app = SakuraApp(join=link, delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await _joined(app, pilot)
        await wait_for(pilot, lambda: "Due in 11 h 59 min" in _prompt(app))
    app = SakuraApp(join=link, delay=0, lang="es")
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await _joined(app, pilot)
            await wait_for(pilot, lambda: re.search(r"Vence en 11 h 5\d min", _prompt(app)) is not None)
    finally:
        i18n.set_language("en")


@pytest.fixture
def server_options() -> dict[str, Any]:
    """One turn-based game at once for players not logged in (``turn_games_per_address``)."""
    return {"limits": Limits(allowed_hosts=LOOPBACK_HOSTS, turn_games_per_address=1)}


async def test_past_the_bound_on_games_at_once_the_join_says_why(server: str) -> None:
    create_table(server, ["human", "easy"], pace="1d")  # this address's one turn-based game
    host = httpx.Client(base_url=server, timeout=60)  # an account invites (its own bound)
    answer = host.post("/api/signup", json={"username": "Ada", "password": "a good long password"})
    invite = host.post(
        "/api/tables",
        json={"players": 2, "pace": "1d", "seats": [{"kind": "human"}, {"kind": "human"}]},
        headers={"x-csrf-token": answer.json()["csrf"]},
    ).json()["table"]["id"]
    app = SakuraApp(join=f"{server}/t/{invite}", delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, JoinFailedScreen))
        assert isinstance(app.screen, JoinFailedScreen)
        assert "turn-based games in progress" in str(app.screen.reason)
    assert httpx.get(f"{server}/api/tables/{invite}", timeout=60).json()["seats"][1]["claimed"] is False
