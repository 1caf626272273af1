"""Watching a web table from the terminal app (``sakura play --join URL --watch``) and who is
connected: a live uvicorn server on loopback, a scripted player on the seat's WebSocket, the
app driven by Textual's pilot."""

from __future__ import annotations

import asyncio
import contextlib
import json

import httpx
import pytest
from tests.tui.screen import create_table, log_text, screen_text, wait_for
from websockets.asyncio.client import connect

from sakura.tui import SakuraApp
from sakura.tui.cards_screens import CardsScreen
from sakura.tui.dialogs import EndScreen
from sakura.tui.remote_screens import JoinFailedScreen
from sakura.tui.sakura_screens import SakuraScreen
from sakura.tui.widgets import HandWidget

pytestmark = pytest.mark.anyio


async def _player(ws_url: str, token: str, leave_after: int, back: asyncio.Event) -> None:
    """Seat 0 played by a script: the first legal action each time its view lists some; after
    ``leave_after`` actions it hangs up and waits for ``back`` before connecting again."""
    acted, left = 0, False
    while True:
        async with connect(ws_url) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            waiting = False
            async for raw in ws:
                message = json.loads(raw)
                if message["type"] == "error" or (message["type"] == "update" and message["seat"] == 0):
                    waiting = False
                view = message.get("view")
                if not isinstance(view, dict):
                    continue
                if view["terminal"]:
                    return
                if view["legal_actions"] and not waiting:
                    waiting = True
                    acted += 1
                    await ws.send(json.dumps({"type": "act", "action": view["legal_actions"][0]}))
                    if acted == leave_after and not left:
                        break
        left = True
        await back.wait()


_log, _wait = log_text, wait_for


async def test_watching_a_web_table_without_a_seat_and_seeing_who_is_away(server: str) -> None:
    created = create_table(server, ["human", "easy"])
    table = created["table"]["id"]
    ws_url = f"ws{server[4:]}/ws/{table}"
    back = asyncio.Event()
    app = SakuraApp(join=f"{server}/t/{table}", watch=True, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _wait(pilot, lambda: any(isinstance(s, SakuraScreen) for s in app.screen_stack))
        game = next(s for s in app.screen_stack if isinstance(s, SakuraScreen))
        assert game.play.link.seat is None and game.play.link.token is None
        await _wait(pilot, lambda: "You are watching table" in _log(game))
        assert game.query_one(HandWidget).cards is None
        await _wait(pilot, lambda: "every hand is hidden" in screen_text(app))
        player = asyncio.create_task(_player(ws_url, created["token"], 4, back))
        try:
            await _wait(pilot, lambda: "Player 1 is away." in _log(game))
            assert "away" in screen_text(app)  # the status line marks the seat
            await pilot.press("1", "enter", "2")  # a watcher's keys play nothing
            back.set()
            await _wait(pilot, lambda: "Player 1 is back." in _log(game))
            await _wait(pilot, lambda: isinstance(app.screen, EndScreen))
        finally:
            player.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await player
        log = _log(game)
        assert "Player 1 has chosen." in log and "The game is over." in log
        assert "You choose" not in log and "The server says" not in log
        # A message on its way while the app closes finds the screen's widgets gone: it is
        # dropped, not a worker's failure (CI once failed on this race at the test's end).
        # The socket's own listener stops first: the player's leaving sends a live message of
        # its own, which must not land while the widgets are half removed (CI saw that too).
        game.workers.cancel_group(game, "network")
        await pilot.pause()
        await game.remove_children()
        await game.play.handle_live({"type": "table", "table": game.play.link.table})
        assert game.play.link.view(None).outcome is not None
        game.tick()  # and so does the countdown's second (its interval outlives the widgets)
    info = httpx.get(f"{server}/api/tables/{table}", timeout=60).json()
    assert info["status"] == "finished"


@pytest.mark.parametrize("game_name", ["sakura", "sakura-cards"])
async def test_an_invite_link_of_a_full_table_watches_it(server: str, game_name: str) -> None:
    # the creator holds the only human seat
    table = create_table(server, ["human", "easy"], game=game_name)["table"]["id"]
    app = SakuraApp(join=f"{server}/t/{table}", delay=0)
    kind = CardsScreen if game_name == "sakura-cards" else SakuraScreen
    async with app.run_test(size=(100, 30)) as pilot:
        await _wait(pilot, lambda: any(isinstance(s, (kind, JoinFailedScreen)) for s in app.screen_stack))
        assert not isinstance(app.screen, JoinFailedScreen)
        game = next(s for s in app.screen_stack if isinstance(s, kind))
        assert game.play.link.seat is None
        await _wait(pilot, lambda: "You are watching" in _log(game))
        assert "Every seat of table" in _log(game)
        await _wait(pilot, lambda: "every hand is hidden" in screen_text(app))
        await pilot.press("1", "enter")  # nothing to play
        await pilot.pause()
        assert "The server says" not in _log(game)
        await pilot.press("h")  # issue 31, item 10: no "when it is your turn" to a spectator
        await _wait(pilot, lambda: "hints are for the players" in _log(game))
        assert "A hint comes when it is your turn" not in _log(game)
