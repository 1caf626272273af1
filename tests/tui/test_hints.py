"""The ``h`` key: each legal action's estimated chance of winning, worked out off the UI
thread from the acting seat's view, the same as a direct search of the same seed and budget."""

from __future__ import annotations

import re
import zlib
from pathlib import Path
from typing import Any

import pytest

from sakura.bots import advise
from sakura.tui import SakuraApp, SeatSpec, Setup
from sakura.tui.game_screen import Flow, GameScreen

pytestmark = pytest.mark.anyio


async def _ask_hint(pilot: Any, screen: GameScreen) -> None:  # type: ignore[type-arg]
    """Press H and wait (up to 12 s) for the hint to come."""
    await pilot.press("h")
    for _ in range(600):
        await pilot.pause(0.02)
        if screen.hinter.last is not None:
            return


def _log(screen: GameScreen) -> str:  # type: ignore[type-arg]
    return "\n".join(str(line.text) for line in screen.query_one("#log").lines)


async def test_the_hint_key_shows_each_cards_chance_and_the_screen_stays_live(
    shots: Path, tmp_path: Path
) -> None:
    setup = Setup(3, None, (SeatSpec("human"), SeatSpec("greedy"), SeatSpec("greedy")), 11)
    app = SakuraApp(setup=setup, delay=0, save_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.acting
        screen.hinter.spec = "mcts:300"
        prompt = screen.prompt_said
        view = screen.play.view(0)
        moves = len(screen.play.session.recorder.moves)  # the bots may have chosen already
        shown: list[str] = []
        line = screen.prompt_line
        screen.prompt_line = lambda text: (shown.append(text), line(text))  # type: ignore[method-assign]
        await _ask_hint(pilot, screen)
        advice = screen.hinter.last
        assert advice is not None, "no hint came"
        progress = [text for text in shown if text.startswith("Working out a hint")]
        assert progress[0] == "Working out a hint… 0%" and progress[-1] == "Working out a hint… 100%"
        assert shown[-1] == prompt  # then the prompt is back
        seed = zlib.crc32(f"{screen.play.seed}:{moves}".encode())
        assert advice == advise(screen.play.session.game, view, "mcts:300", seed=seed)  # the same search
        text = " ".join(_log(screen).split())  # the log wraps its lines
        assert "Hint (estimated chance of winning)" in text
        for card in view.hand:
            assert f"card {card}: " in text
        assert re.search(r"card \d+: \d+ ± \d+%", text)  # each chance with its margin
        app.save_screenshot(str(shots / "hint-100x30.svg"))
        await pilot.press("1")  # and the game goes on by its keys
        await pilot.pause()
        assert len(screen.play.session.recorder.moves) >= 1


async def test_the_hint_key_in_spanish_and_when_it_is_not_your_turn(tmp_path: Path) -> None:
    setup = Setup(2, None, (SeatSpec("human"), SeatSpec("greedy")), 3)
    app = SakuraApp(setup=setup, delay=0, save_dir=tmp_path, lang="es")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        screen.hinter.spec = "mcts:40"
        await _ask_hint(pilot, screen)
        assert screen.hinter.last is not None
        assert "Pista" in _log(screen)
        screen.mode = Flow.WAIT  # someone else's turn: no hint
        await pilot.press("h")
        await pilot.pause()
        assert "Las pistas llegan cuando te toca decidir" in _log(screen)


async def test_the_hint_key_in_the_card_game_names_its_cards_and_areas(tmp_path: Path) -> None:
    """The card game's hint says "the r3✿ in the garden", not the action's text form."""
    setup = Setup(2, None, (SeatSpec("human"), SeatSpec("greedy")), 5, "sakura-cards")
    app = SakuraApp(setup=setup, delay=0, save_dir=tmp_path)
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        for _ in range(100):  # the greedy bot may start
            if screen.acting:
                break
            await pilot.pause(0.05)
        assert screen.acting
        screen.hinter.spec = "mcts:40"
        await _ask_hint(pilot, screen)
        advice = screen.hinter.last
        assert advice is not None, "no hint came"
        words = " ".join(_log(screen).split())  # the log wraps its lines
        line = words[words.index("Hint (estimated chance of winning)") :]
        for a in advice.actions:
            verb, card, *area = a.action.split()
            shown = card.replace("*", "✿")
            said = f"the {shown} in the {area[0]}" if verb == "place" else f"{verb} the {shown}"
            assert said in line, (said, line)
            assert a.action not in line
