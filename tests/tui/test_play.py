"""The terminal app played by key presses through Textual's pilot (headless)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from tests.tui.screen import play_until, screen_text
from textual.pilot import Pilot

from sakura.records import GameRecord, replay
from sakura.tui import SakuraApp, SeatSpec, Session, Setup
from sakura.tui.dialogs import EndScreen, HelpScreen, PassScreen
from sakura.tui.game_screen import GameScreen
from sakura.tui.replay_screen import ReplayScreen
from sakura.tui.start import StartScreen
from sakura.tui.widgets import HandWidget

pytestmark = pytest.mark.anyio


def _setup(
    players: int = 3,
    variant: str | None = None,
    kinds: tuple[str, ...] = ("human", "greedy", "random"),
    seed: int = 5,
) -> Setup:
    return Setup(players, variant, tuple(SeatSpec(k) for k in kinds), seed)


async def _play_to_the_end(app: SakuraApp, pilot: Pilot[None], limit: int = 2000) -> None:
    """Answer every question with keys: Enter on the pass screen, '1' for cards and choices."""
    for _ in range(limit):
        await pilot.pause()
        if isinstance(app.screen, EndScreen):
            return
        if isinstance(app.screen, PassScreen):
            await pilot.press("enter")
        elif isinstance(app.screen, GameScreen) and app.screen.mode == "court":
            await pilot.press("2")  # the court painter's card: another than one's own
        else:
            await pilot.press("1")
    raise AssertionError("the game did not end")


def _game(app: SakuraApp) -> GameScreen:
    screens = [s for s in app.screen_stack if isinstance(s, GameScreen)]
    assert screens
    return screens[-1]


async def test_a_whole_game_against_bots_by_key_presses(shots: Path, tmp_path: Path) -> None:
    app = SakuraApp(setup=_setup(), delay=0, save_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.save_screenshot(str(shots / "board-80x24.svg"))
        await _play_to_the_end(app, pilot)
        app.save_screenshot(str(shots / "final-standings.svg"))
        session = _game(app).play.session
        assert session.terminal()
        await pilot.press("s")  # save the finished game's record
        assert app.last_saved is not None
        record = GameRecord.loads(app.last_saved.read_text(encoding="utf-8"))
        assert replay(record).is_terminal()
        await pilot.press("n")  # play again: back to the start screen
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)


async def test_the_start_screen_starts_a_game_with_enter() -> None:
    app = SakuraApp(delay=0)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


async def test_a_choice_mid_resolution_shows_its_consequence_and_is_asked_then(shots: Path) -> None:
    app = SakuraApp(setup=_setup(), delay=0)
    async with app.run_test(size=(120, 36)) as pilot:
        game = await play_until(app, pilot, lambda g: g.mode == "choice")
        view = game.play.view(game.actor)
        assert view.pending is not None and view.pending[0] == game.actor
        prompt = str(game.query_one("#prompt").render())
        assert "[1/F]" in prompt and "[2/B]" in prompt
        await pilot.press("down")  # look at "back": the preview is the engine's, on a clone
        await pilot.pause()
        app.save_screenshot(str(shots / "choice-120x36.svg"))
        before = game.play.session.state.to_json()
        game.show_choice()
        assert game.play.session.state.to_json() == before  # previews change nothing
        await pilot.press("enter")
        await pilot.pause()
        moves = game.play.session.recorder.moves
        assert any(m.action == "back" for m in moves)


async def test_save_and_resume(tmp_path: Path) -> None:
    app = SakuraApp(setup=_setup(seed=11), delay=0, save_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(6):
            await pilot.pause()
            await pilot.press("1")
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        saved = app.last_saved
        assert saved is not None
        moves = len(_game(app).play.session.recorder.moves)
    session = Session.resume(GameRecord.loads(saved.read_text(encoding="utf-8")))
    assert len(session.recorder.moves) == moves
    assert [s.kind for s in session.setup.seats] == ["human", "greedy", "random"]
    app = SakuraApp(session=session, delay=0, save_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await _play_to_the_end(app, pilot)
        assert _game(app).play.terminal()


async def test_hot_seat_hides_the_hand_between_players(shots: Path) -> None:
    app = SakuraApp(setup=_setup(2, "tactical", ("human", "human")), delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, PassScreen)
        game = _game(app)
        assert game.query_one(HandWidget).cards is None  # nothing of any hand behind the pass screen
        app.save_screenshot(str(shots / "hot-seat-pass.svg"))
        await pilot.press("enter")
        await pilot.pause()
        first = game.actor
        assert first is not None and game.query_one(HandWidget).cards == game.play.view(first).hand
        while game.actor == first and game.mode in ("select", "court"):
            await pilot.press("1")
            await pilot.pause()
            if game.mode == "court":
                await pilot.press("2")
                await pilot.pause()
        assert isinstance(app.screen, PassScreen)
        assert game.query_one(HandWidget).cards is None
        await _play_to_the_end(app, pilot)


async def test_a_game_in_spanish(shots: Path) -> None:
    app = SakuraApp(setup=_setup(kinds=("human", "random", "greedy")), delay=0, lang="es")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        game = _game(app)
        assert "elige una carta" in str(game.query_one("#prompt").render())
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        app.save_screenshot(str(shots / "help-es.svg"))
        await pilot.press("escape")
        await _play_to_the_end(app, pilot)
        app.save_screenshot(str(shots / "final-es.svg"))
        text = "\n".join(str(line.text) for line in game.query_one("#log").lines)
        assert "Ronda" in text and "La partida ha terminado." in text


async def test_persian_is_shaped_for_the_terminal(shots: Path) -> None:
    app = SakuraApp(setup=_setup(), delay=0, lang="fa")
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(3):
            await pilot.pause()
            await pilot.press("1")
        app.save_screenshot(str(shots / "board-fa.svg"))


async def test_replay_steps_through_a_record(tmp_path: Path) -> None:
    from sakura.engine import make_game
    from sakura.records import random_playout

    record = random_playout(make_game("sakura", {"players": 4}), seed=3)
    app = SakuraApp(record=record, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        for key in ("right", "right", "left", "end", "home", "end"):
            await pilot.press(key)
        await pilot.pause()
        assert app.screen.index == len(record.moves)


@pytest.mark.soak
async def test_random_keys_never_crash(shots: Path) -> None:
    rng = random.Random(7)
    keys = [
        "1",
        "2",
        "3",
        "4",
        "5",
        "left",
        "right",
        "up",
        "down",
        "enter",
        "escape",
        "tab",
        "space",
        "f",
        "b",
        "x",
        "s",
        "question_mark",
        "home",
        "end",
        "backspace",
        "z",
        "9",
        "0",
        "n",
    ]
    for setup in (_setup(), _setup(2, "tactical", ("human", "human"))):
        app = SakuraApp(setup=setup, delay=0, save_dir=shots / "random-keys")
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(300):
                await pilot.press(rng.choice(keys))
            await pilot.pause()
        assert app.return_code in (None, 0)


async def test_a_choice_of_the_emperors_direction_shows_where_he_would_land() -> None:
    """Issue 31, deliverable 2: a forward/back choice for the Emperor shows his landing space
    on the garden (a dim crown beside the real one), for each direction looked at."""
    from sakura.tui.render import emperor_from_events

    for seed in range(5, 40):  # the first deal whose human meets a choice of the Emperor's move
        app = SakuraApp(setup=_setup(seed=seed), delay=0)
        async with app.run_test(size=(120, 36)) as pilot:
            game = await play_until(
                app, pilot, lambda g: g.mode == "choice" or g.mode == "over" or g.play.terminal()
            )
            view = game.play.view(game.actor) if game.actor is not None else None
            if view is None or view.pending is None or view.pending[2] != "garden":
                continue
            ghosts = 0
            for key, word in (("up", "forward"), ("down", "back")):
                await pilot.press(key)
                await pilot.pause()
                land = emperor_from_events(game.play.preview(game.actor, word))
                row = next(line for line in screen_text(app).split("\n") if line.startswith(" Emperor"))
                if land is not None and land != view.emperor:
                    assert row.count("♔") == 2, row  # where he stands, and where he would land
                    ghosts += 1
                else:
                    assert row.count("♔") == 1, row
            assert ghosts  # forward always takes him somewhere
            return
    raise AssertionError("no deal met a choice of the Emperor's move")
