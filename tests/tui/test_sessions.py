"""Each kind of play session through Textual's pilot, for both games (issue 29, deliverable
4): a game here to the end (:class:`LocalPlay`), the keyboard handed over between players
(:class:`HotSeatPlay`), a seat at a live web table (:class:`RemotePlay`) and a watched
table (:class:`WatchPlay`). The screens are the same for every kind; the session decides."""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise
from typing import Any

import pytest
from tests.tui.screen import create_table, log_text, wait_for
from textual.pilot import Pilot

from sakura.records import replay
from sakura.tui import SakuraApp, SeatSpec, Setup
from sakura.tui.dialogs import EndScreen, PassScreen, QuitScreen
from sakura.tui.game_screen import Flow, GameScreen
from sakura.tui.local_play import HotSeatPlay, LocalPlay
from sakura.tui.remote_play import RemotePlay, WatchPlay
from sakura.tui.start import StartScreen

pytestmark = pytest.mark.anyio

SAKURA_VS_BOTS = Setup(3, None, (SeatSpec("human"), SeatSpec("greedy"), SeatSpec("random")), 5)
CARDS_VS_BOT = Setup.cards(("human", "greedy"), seed=21)
SAKURA_HOT_SEAT = Setup(3, None, (SeatSpec("human"), SeatSpec("greedy"), SeatSpec("human")), 4)
CARDS_HOT_SEAT = Setup.cards(("human", "human"), seed=8)


def _game(app: SakuraApp) -> GameScreen[Any, Any]:
    screens = [s for s in app.screen_stack if isinstance(s, GameScreen)]
    assert screens, f"no game screen: {app.screen_stack}"
    return screens[-1]


def _key(game: GameScreen[Any, Any]) -> str:
    """A key that plays something legal: the card game's Enter (the first card that may be
    played, then its first open area), Sakura's first card, forward, or the court's second."""
    if game.play.setup.game == "sakura-cards":
        return "enter"
    return "2" if game.mode == "court" else "1"


async def _to_the_end(app: SakuraApp, pilot: Pilot[None], limit: int = 5000) -> None:
    for _ in range(limit):
        await pilot.pause()
        if isinstance(app.screen, EndScreen):
            return
        if isinstance(app.screen, PassScreen):
            await pilot.press("enter")
        elif isinstance(app.screen, GameScreen) and app.screen.acting and not app.screen.busy:
            await pilot.press(_key(app.screen))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("setup", [SAKURA_VS_BOTS, CARDS_VS_BOT], ids=["sakura", "cards"])
async def test_a_game_here_is_played_to_the_end_by_its_local_session(setup: Setup) -> None:
    app = SakuraApp(setup=setup, delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen))
        game = _game(app)
        assert type(game.play) is LocalPlay and game.play.viewer == 0 and game.play.humans == (0,)
        assert game.play.asks_before_quit()  # a game under way here would be lost
        await _to_the_end(app, pilot)
        assert game.mode == Flow.OVER and game.actor is None and game.play.terminal()
        record = game.play.record()
        assert len(record.moves) == len(game.play.session.recorder.moves) > 0
        assert replay(record).outcome() == game.play.view(None).outcome
        assert "The game is over." in log_text(game) and not game.play.asks_before_quit()
        await pilot.press("n")  # another game: the start screen, set up as this one, a new deal
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen))
        assert isinstance(app.screen, StartScreen) and app.screen.setup == replace(setup, seed=None)


@pytest.mark.parametrize("setup", [SAKURA_HOT_SEAT, CARDS_HOT_SEAT], ids=["sakura", "cards"])
async def test_a_hot_seat_session_hands_the_keyboard_over_only_when_the_player_changes(
    setup: Setup,
) -> None:
    app = SakuraApp(setup=setup, delay=0)
    handed: list[str] = []  # who each pass screen named
    decisions: list[list[int]] = []  # the seats that decided, one list per hand-over
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, (GameScreen, PassScreen)))
        game = _game(app)
        assert type(game.play) is HotSeatPlay and game.play.viewer is None
        for _ in range(3000):
            await pilot.pause()
            if isinstance(app.screen, PassScreen):
                assert game.actor is None and not game.acting  # no hand behind the pass screen
                if len(handed) == 6:
                    break
                handed.append(app.screen.player_name)
                decisions.append([])
                await pilot.press("enter")
                await wait_for(pilot, lambda: game.acting)
                assert game.actor is not None and game.who(game.actor) == handed[-1]
            elif game.acting and not game.busy:
                assert decisions, "a turn opened before the keyboard was handed over"
                assert game.actor is not None and game.who(game.actor) == handed[-1]
                decisions[-1].append(game.actor)
                await pilot.press(_key(game))
        else:
            raise AssertionError("six hand-overs did not come")
    humans = {game.who(s) for s in game.play.humans}
    assert set(handed) == humans and all(a != b for a, b in pairwise(handed))
    assert all(turns for turns in decisions)
    if setup.game == "sakura-cards":  # a turn is two decisions (place, then give) on one hand-over
        assert all(len(turns) >= 2 for turns in decisions[:-1])


@pytest.mark.parametrize("game_name", ["sakura", "sakura-cards"])
async def test_a_seat_at_a_web_table_plays_through_its_remote_session(server: str, game_name: str) -> None:
    created = create_table(server, ["human", "easy"], game=game_name)
    app = SakuraApp(join=f"{server}/t/{created['table']['id']}#token={created['token']}", delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen))
        game = _game(app)
        assert type(game.play) is RemotePlay and game.play.viewer == 0 and game.play.humans == (0,)
        assert game.play.record() is None and not game.play.asks_before_quit()  # the server keeps it
        await wait_for(pilot, lambda: game.acting and not game.busy)
        before = game.play.view(0).progress
        await pilot.press(_key(game))
        if game_name == "sakura-cards":
            await wait_for(pilot, lambda: game.mode == "area")
            await pilot.press("enter")
        await wait_for(pilot, lambda: game.play.view(0).progress != before)
        assert "The server says" not in log_text(game)  # the action was the view's, not refused
        await pilot.press("ctrl+q")  # the server keeps the game: no question, the app quits
        await pilot.pause()
        assert not isinstance(app.screen, QuitScreen)
    assert app.return_code == 0


@pytest.mark.parametrize("game_name", ["sakura", "sakura-cards"])
async def test_a_watched_table_is_a_watch_session_whose_keys_play_nothing(
    server: str, game_name: str
) -> None:
    table = create_table(server, ["human", "easy"], game=game_name)["table"]["id"]
    app = SakuraApp(join=f"{server}/t/{table}", watch=True, delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen))
        game = _game(app)
        assert type(game.play) is WatchPlay and game.play.viewer is None and game.play.humans == ()
        await wait_for(pilot, lambda: f"You are watching table {table}" in log_text(game))
        seq = game.play.link.seq
        await pilot.press("1", "enter", "2", "h")
        await wait_for(pilot, lambda: "hints are for the players" in log_text(game))
        assert not game.acting and game.actor is None and game.play.link.seq == seq
        assert "The server says" not in log_text(game)  # nothing was sent to be refused
