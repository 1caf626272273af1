""" "Learn to play" in the terminal, driven by keys through Textual's pilot: from the start
screen to the end in every language, the garden highlighting each step's spaces, painters
and Emperor; a wrong card or a wrong direction is explained and changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot

from sakura.records import load_script
from sakura.tui import SakuraApp
from sakura.tui.start import StartScreen
from sakura.tui.tutorial_screen import LessonWidget, TutorialScreen
from sakura.tui.widgets import GardenWidget, HandWidget

pytestmark = pytest.mark.anyio
SCRIPT = load_script()


async def _open(app: SakuraApp, pilot: Pilot[None]) -> TutorialScreen:
    await pilot.pause()
    assert isinstance(app.screen, StartScreen)
    await pilot.press("f2")  # the start screen's "Learn to play" key (in the footer)
    await pilot.pause()
    assert isinstance(app.screen, TutorialScreen)
    return app.screen


def _reversed(screen: TutorialScreen) -> set[str]:
    """The garden's highlighted cells, as their characters."""
    garden = screen.query_one(GardenWidget).render()
    text = garden.plain  # type: ignore[union-attr]
    return {
        text[s.start : s.end].strip()
        for s in garden.spans  # type: ignore[union-attr]
        if "reverse" in str(s.style)
    }


async def _move(pilot: Pilot[None], screen: TutorialScreen, action: str) -> None:
    if action.startswith("play "):
        hand = screen.tutorial.view.hand
        await pilot.press(str(hand.index(int(action.split()[1])) + 1))
    else:
        await pilot.press("1" if action == "forward" else "2")


@pytest.mark.parametrize("lang", ["en", "es", "fa"])
async def test_the_tutorial_plays_to_its_end_from_the_start_screen(lang: str, shots: Path) -> None:
    app = SakuraApp(lang=lang, delay=0)
    async with app.run_test(size=(110, 44)) as pilot:
        screen = await _open(app, pilot)
        for index, step in enumerate(SCRIPT.steps):
            await pilot.pause()
            assert screen.tutorial.index == index
            lesson = screen.query_one(LessonWidget)
            assert lesson.body == step.says(lang)
            garden = screen.query_one(GardenWidget)
            assert tuple(garden.lit["lit_spaces"]) == step.highlight.spaces
            assert tuple(garden.lit["lit_painters"]) == step.highlight.painters
            lit = _reversed(screen)
            if step.highlight.emperor:
                assert "♔" in lit
            for seat in step.highlight.painters:
                assert "ABC"[seat] in lit
            assert screen.query_one(HandWidget).lit == frozenset(step.highlight.cards)
            assert screen.query_one(HandWidget).has_class("lit") == step.highlight.hand
            if step.id in ("choose-forward", "scoring"):
                app.save_screenshot(str(shots / f"tutorial-{step.id}-{lang}.svg"))
            if step.expect is None:
                await pilot.press("enter")
            else:
                await _move(pilot, screen, step.expect)
        await pilot.pause()
        assert screen.done and screen.tutorial.finished
        view = screen.tutorial.view
        assert view.scored == 1 and view.tokens[0] == 8
        app.save_screenshot(str(shots / f"tutorial-done-{lang}.svg"))
        await pilot.press("enter")  # "Play a real game" has the focus
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)


async def test_a_wrong_card_or_direction_changes_nothing_and_is_explained() -> None:
    app = SakuraApp(lang="fa", delay=0)
    async with app.run_test(size=(110, 44)) as pilot:
        screen = await _open(app, pilot)
        await pilot.press("2")  # a card's key on a step that only speaks
        await pilot.pause()
        assert screen.tutorial.index == 0 and screen.note
        for step in SCRIPT.steps:
            await pilot.pause()
            if step.expect is None:
                await pilot.press("enter")
                continue
            before, index = screen.tutorial.state.to_json(), screen.tutorial.index
            if step.expect.startswith("play "):
                hand = screen.tutorial.view.hand
                wrong = next(i for i, card in enumerate(hand) if f"play {card}" != step.expect)
                await pilot.press(str(wrong + 1))
            else:
                await pilot.press("2" if step.expect == "forward" else "1")
            await pilot.pause()
            assert screen.tutorial.state.to_json() == before and screen.tutorial.index == index
            assert screen.query_one(LessonWidget).note == step.explains("fa") != ""
            await _move(pilot, screen, step.expect)
            await pilot.pause()
            assert screen.tutorial.index == index + 1
            assert screen.query_one(LessonWidget).note == ""
        await pilot.pause()
        assert screen.done


async def test_backspace_goes_back_a_step_as_it_was(shots: Path) -> None:
    """Backspace: the step before, its board and log as they were there; then on again."""
    app = SakuraApp(lang="es", delay=0)
    async with app.run_test(size=(110, 44)) as pilot:
        screen = await _open(app, pilot)
        await pilot.press("backspace")  # the first step has no step before it
        await pilot.pause()
        assert screen.tutorial.index == 0
        first_move = next(i for i, s in enumerate(SCRIPT.steps) if s.expect)
        for _ in range(first_move):
            await pilot.press("enter")
        await pilot.pause()
        assert "Retroceso: el paso anterior." in str(screen.query_one("#prompt").render())
        state, log = screen.tutorial.state.to_json(), _log_text(screen)
        expected = SCRIPT.steps[first_move].expect
        assert expected is not None
        await _move(pilot, screen, expected)
        await pilot.pause()
        assert screen.tutorial.index == first_move + 1 and _log_text(screen) != log
        await pilot.press("backspace")
        await pilot.pause()
        assert screen.tutorial.index == first_move
        assert screen.tutorial.state.to_json() == state and _log_text(screen) == log
        assert screen.query_one(LessonWidget).body == SCRIPT.steps[first_move].says("es")
        app.save_screenshot(str(shots / "tutorial-back-es.svg"))
        await _move(pilot, screen, expected)  # and on again
        await pilot.pause()
        assert screen.tutorial.index == first_move + 1


def _log_text(screen: TutorialScreen) -> str:
    return "\n".join(str(line.text) for line in screen.log_widget.lines)
