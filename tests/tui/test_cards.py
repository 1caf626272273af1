"""The card game (``sakura-cards``) in the terminal app, played by key presses (Textual pilot)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from tests.cards.scenarios import situation
from tests.tui.screen import session_at
from textual.pilot import Pilot
from textual.widgets import Select

from sakura.engine import make_game
from sakura.records import GameRecord, random_playout, replay
from sakura.tui import SakuraApp, SeatSpec, Session, Setup
from sakura.tui.cards_screens import CardsReplayScreen, CardsScreen
from sakura.tui.cards_widgets import CardsBoard, CardsHand
from sakura.tui.dialogs import EndScreen, HelpScreen, PassScreen
from sakura.tui.i18n import shape
from sakura.tui.start import StartScreen

pytestmark = pytest.mark.anyio

CARD = re.compile(r"\b[rbgy][1-5]✿?")


def _label(card: str) -> str:
    return card.replace("*", "✿")


def _screen(app: SakuraApp) -> CardsScreen:
    screens = [s for s in app.screen_stack if isinstance(s, CardsScreen)]
    assert screens, f"no card game screen: {app.screen_stack}"
    return screens[-1]


def _log(game: CardsScreen) -> str:
    return "\n".join(str(line.text) for line in game.query_one("#log").lines)


def _key_for_a_legal_card(game: CardsScreen, turn: int) -> str:
    """A key that plays a card the hand marks as playable: Enter (the cursor starts on one),
    its number, or arrows to it first (the key returned then is Enter)."""
    hand = game.query_one(CardsHand)
    cards = hand.cards or ()
    playable = [i for i, c in enumerate(cards) if c in hand.legal]
    assert playable, "a turn always has a playable card"
    index = playable[turn % len(playable)]
    if turn % 3 == 0 or index >= 10:
        return "enter"
    return str((index + 1) % 10)


async def _play_to_the_end(app: SakuraApp, pilot: Pilot[None], limit: int = 3000) -> int:
    """Answer every decision with keys (pass screens with Enter); return the turns played."""
    turns = 0
    for _ in range(limit):
        await pilot.pause()
        if isinstance(app.screen, EndScreen):
            return turns
        if isinstance(app.screen, PassScreen):
            await pilot.press("enter")
            continue
        game = _screen(app)
        if game.busy or not game.acting:
            continue
        turns += 1
        if game.mode == "area":
            await pilot.press(*(("enter",) if turns % 2 else ("down", "enter")))
        else:
            await pilot.press(_key_for_a_legal_card(game, turns))
    raise AssertionError("the game did not end")


_session_at = session_at


async def test_a_whole_card_game_against_a_bot_by_key_presses(shots: Path, tmp_path: Path) -> None:
    app = SakuraApp(setup=Setup.cards(("human", "greedy"), seed=21), delay=0, save_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        game = _screen(app)
        board = game.query_one(CardsBoard).text()
        for area in ("garden", "palace", "temple"):
            assert board.count(area) == 2  # both players' three areas
        assert "Round 1 of 3" in board
        app.save_screenshot(str(shots / "cards-board-80x24.svg"))
        turns = await _play_to_the_end(app, pilot)
        app.save_screenshot(str(shots / "cards-final.svg"))
        session = game.play.session
        assert session.terminal() and turns >= 3 * 9
        view = session.view(0)
        assert view.outcome is not None and [len(r) for r in view.round_scores] == [3, 3]
        log = _log(game)
        for r in (1, 2, 3):
            assert f"Round {r} is scored." in log
        assert "The game is over." in log and "You receive" in log and "You give" in log
        # every area of every round is told with what it scored
        assert len(re.findall(r"^  (garden|palace|temple) \d+", log, re.M)) == 3 * 2 * 3
        winner = app.screen.query_one("#winner").render()
        assert str(view.outcome.scores[0]) in str(winner)
        await pilot.press("s")  # the finished game's record
        assert app.last_saved is not None and app.last_saved.name.startswith("sakura-cards-21-")
        record = GameRecord.loads(app.last_saved.read_text(encoding="utf-8"))
        assert record.game == "sakura-cards" and replay(record).outcome() == view.outcome
        await pilot.press("n")  # play again: the start screen, still the card game
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        assert app.screen.query_one("#game", Select).value == "sakura-cards"


async def test_a_hot_seat_game_never_shows_the_other_hand(shots: Path) -> None:
    app = SakuraApp(setup=Setup.cards(("human", "human"), seed=8), delay=0)
    checked = 0
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(3000):
            await pilot.pause()
            if isinstance(app.screen, EndScreen):
                break
            game = _screen(app)
            hand = game.query_one(CardsHand)
            if isinstance(app.screen, PassScreen):
                assert hand.cards is None and game.actor is None
                assert not CARD.search(hand.text()), "a card of a hand behind the pass screen"
                if checked == 0:
                    app.save_screenshot(str(shots / "cards-hot-seat-pass.svg"))
                await pilot.press("enter")
                continue
            if game.busy or not game.acting:
                continue
            seat = game.actor
            assert seat is not None
            own = game.play.view(seat)
            assert hand.cview is not None and hand.cview.player == seat and hand.cards == own.hand
            # the hand widget names only what this seat knows: its hand, its gifts both ways,
            # its discards (the other seat's hand of the same names cannot be told apart)
            shown = set(CARD.findall(hand.text()))
            known = {_label(c) for c in (*own.hand, *own.received, *own.given, *own.discarded)}
            assert shown <= known and {_label(c) for c in own.hand} <= shown
            checked += 1
            if game.mode == "area":
                await pilot.press("enter")
            else:
                await pilot.press(_key_for_a_legal_card(game, checked))
        else:
            raise AssertionError("the game did not end")
        log = _log(game)
    assert checked > 50
    # the log is a spectator's: gifts and discards face down, no dealt hand
    assert "You are dealt" not in log and "You give" not in log and "You receive" not in log
    assert "a card face down" in log and not re.search(r"gives .*[rbgy][1-5]", log)


async def test_placing_in_a_chosen_area_and_keys_that_are_not_legal(shots: Path) -> None:
    state = situation((["g3", "y5"], ["r2", "b4"]), ([["r4"], [], ["b2"]], [["b1", "g2", "r3"], [], []]))
    session = _session_at(state, ("human", "greedy"))
    app = SakuraApp(session=session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        game = _screen(app)
        board = game.query_one(CardsBoard).text()
        assert "b1 g2 r3: three colours, in a row" in board and " 15 " in board
        await pilot.press("x", "9", "up", "escape")  # nothing of these is a move
        assert game.mode == "place" and not session.recorder.moves
        await pilot.press("1")  # g3: not in the garden (after r4), in the palace or the temple
        assert game.mode == "area"
        prompt = str(game.query_one("#prompt").render())
        assert "[2] palace · [3] temple" in prompt and "[1]" not in prompt
        app.save_screenshot(str(shots / "cards-choose-area.svg"))
        await pilot.press("1")  # the garden is not open to g3: nothing happens
        assert game.mode == "area" and not session.recorder.moves
        assert "cannot go in the garden" in str(game.query_one("#prompt").render())
        await pilot.press("escape", "2")  # another card: y5, which fits everywhere
        assert game.mode == "area" and "[1] garden · [2] palace · [3] temple" in str(
            game.query_one("#prompt").render()
        )
        await pilot.press("escape", "1", "down", "enter")  # g3, then the second open area
        await pilot.pause()
        assert session.recorder.moves[0].action == "place g3 temple"
        assert game.mode == "give" and session.view(0).areas[0][2] == ("b2", "g3")
        await pilot.press("5")  # no fifth card
        assert len(session.recorder.moves) == 1
        await pilot.press("1")  # give y5, the only card left
        await pilot.pause()
        assert session.recorder.moves[1].action == "give y5"


async def test_discarding_when_nothing_fits_then_giving(shots: Path) -> None:
    state = situation(
        (["r1", "b2", "g3", "y4"], ["r2", "y2", "b3"]), ([["r5"], ["g5"], ["y5"]], [[], [], []])
    )
    session = _session_at(state, ("human", "random"))
    app = SakuraApp(session=session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        game = _screen(app)
        assert session.view(0).legal_actions[0].startswith("discard")
        assert "no card fits" in str(game.query_one("#prompt").render())
        app.save_screenshot(str(shots / "cards-discard.svg"))
        await pilot.press("2")  # b2, face down
        await pilot.pause()
        assert session.recorder.moves[0].action == "discard b2"
        assert session.view(0).discarded == ("b2",) and session.view(1).discard_counts == (1, 0)
        assert "You discard b2 face down" in _log(game)
        assert game.mode == "give"
        await pilot.press("3")  # y4 (the hand is now r1 g3 y4)
        await pilot.pause()
        assert session.recorder.moves[1].action == "give y4"
        assert "You give y4 to Bot 2." in _log(game)
        assert "discarded –" not in game.query_one(CardsHand).text()


async def test_save_and_resume_a_card_game(tmp_path: Path) -> None:
    app = SakuraApp(setup=Setup.cards(("human", "random"), seed=31), delay=0, save_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(12):
            await pilot.pause()
            await pilot.press("enter")
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        saved = app.last_saved
        assert saved is not None and saved.name == "sakura-cards-31-r1.json"
        moves = len(_screen(app).play.session.recorder.moves)
        assert moves >= 6
    session = Session.resume(GameRecord.loads(saved.read_text(encoding="utf-8")))
    assert session.setup.game == "sakura-cards"
    assert [s.kind for s in session.setup.seats] == ["human", "random"]
    assert len(session.recorder.moves) == moves
    app = SakuraApp(session=session, delay=0, save_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert _screen(app).play.session is session
        await _play_to_the_end(app, pilot)
        assert session.terminal()


async def test_replay_tui_steps_through_a_card_record(shots: Path) -> None:
    record = random_playout(make_game("sakura-cards"), seed=4)
    app = SakuraApp(record=record, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CardsReplayScreen)
        await pilot.press("right", "right", "right")
        assert screen.index == 3
        first = record.moves[0]
        assert first.action.split()[1].replace("*", "✿") in screen.query_one(CardsBoard).text()
        await pilot.press("left", "end")
        await pilot.pause()
        assert screen.index == len(record.moves)
        app.save_screenshot(str(shots / "cards-replay-end.svg"))
        log = "\n".join(str(line.text) for line in screen.query_one("#log").lines)
        assert "Round 3 is scored." in log and "The game is over." in log
        assert "You are dealt" not in log and "a card face down" in log  # a spectator's log
        assert "Round 3 of 3 · the game is over" in screen.query_one(CardsBoard).text()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("home")


async def test_the_card_screen_in_spanish_and_persian(shots: Path) -> None:
    app = SakuraApp(setup=Setup.cards(("human", "greedy"), seed=2), delay=0, lang="es")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        game = _screen(app)
        assert "elige una carta para colocar" in str(game.query_one("#prompt").render())
        board = game.query_one(CardsBoard).text()
        assert "jardín" in board and "palacio" in board and "templo" in board and "Ronda 1 de 3" in board
        await pilot.press("enter", "enter", "enter")
        await pilot.pause()
        app.save_screenshot(str(shots / "cards-es.svg"))
        await pilot.press("question_mark")
        await pilot.pause()
        assert "el juego de cartas" in str(app.screen.query_one("#help-text").render())
        app.save_screenshot(str(shots / "cards-help-es.svg"))
    app = SakuraApp(setup=Setup.cards(("human", "greedy"), seed=2), delay=0, lang="fa")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("enter", "enter", "enter")
        await pilot.pause()
        game = _screen(app)
        board = game.query_one(CardsBoard).text()
        for word in ("باغ", "قصر", "معبد"):
            assert shape(word) in board  # shaped and in visual order for the terminal
        assert "garden" not in board
        app.save_screenshot(str(shots / "cards-fa.svg"))


async def test_the_start_screen_sets_up_a_card_game_with_an_expert_bot() -> None:
    app = SakuraApp(delay=0)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        start = app.screen
        assert isinstance(start, StartScreen)
        start.query_one("#game", Select).value = "sakura-cards"
        await pilot.pause()
        assert not start.query_one("#players-row").display and not start.query_one("#seat-row-2").display
        start.query_one("#seat-1", Select).value = "expert"
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        game = _screen(app)
        assert game.play.setup.game == "sakura-cards" and game.play.session.bots[1].spec == "expert"


@pytest.mark.soak
async def test_random_keys_never_crash_nor_play_what_is_not_legal(tmp_path: Path) -> None:
    rng = random.Random(11)
    keys = [
        "1",
        "2",
        "3",
        "4",
        "5",
        "9",
        "0",
        "left",
        "right",
        "up",
        "down",
        "enter",
        "escape",
        "tab",
        "space",
        "x",
        "s",
        "question_mark",
        "home",
        "end",
        "backspace",
        "n",
        "g",
    ]
    for kinds in (("human", "greedy"), ("human", "human")):
        app = SakuraApp(
            setup=Setup(2, None, tuple(SeatSpec(k) for k in kinds), 3, "sakura-cards"),
            delay=0,
            save_dir=tmp_path,
        )
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(300):
                await pilot.press(rng.choice(keys))
            await pilot.pause()
            game = _screen(app)
            record, log = game.play.session.record(), _log(game)
        assert app.return_code in (None, 0)
        assert record.moves, "some keys played"
        assert "That is not possible now." not in log  # no key ever sent what the view did not list
        replay(record)
