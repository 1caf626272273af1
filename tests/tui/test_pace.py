"""The pace of a round (issue #31, deliverable 2): step by step, a round waits for Space at
each card so the 11-line log at 80×24 never scrolls past unread; P changes the pace."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from sakura.tui import SakuraApp, SeatSpec, Setup
from sakura.tui.game_screen import GameScreen
from sakura.tui.pace import PACES, Pace

pytestmark = pytest.mark.anyio


def _log(app: SakuraApp) -> list[str]:
    return [str(line.text).strip() for line in app.screen.query_one("#log").lines]  # type: ignore[attr-defined]


async def _until(pilot: Pilot[None], condition: Callable[[], bool], limit: int = 500) -> None:
    for _ in range(limit):
        if condition():
            return
        await pilot.pause()
    raise AssertionError("the condition never came")


async def _play_a_card_and_wait(app: SakuraApp, pilot: Pilot[None]) -> GameScreen[Any, Any]:
    """Play the first card once it is the human's turn; return when the round waits for Space."""
    screen = app.screen
    assert isinstance(screen, GameScreen)
    await _until(pilot, lambda: screen.acting)
    await pilot.press("1")
    await _until(pilot, lambda: app.pace.waiting)
    return screen


async def test_step_by_step_a_round_waits_for_space_at_each_card(tmp_path: Path) -> None:
    setup = Setup(3, None, (SeatSpec("human"), SeatSpec("greedy"), SeatSpec("greedy")), 5)
    app = SakuraApp(setup=setup, pace="step", save_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _play_a_card_and_wait(app, pilot)
        assert any(line.startswith("Cards revealed") for line in _log(app))
        assert "Space: the next step" in str(screen.query_one("#prompt").render())
        steps = 0
        while not screen.acting:  # each Space lets one step of the round go on, never more
            before = len(_log(app))
            for _ in range(3):
                await pilot.pause()
            assert len(_log(app)) == before, "the round went on without a key"
            await pilot.press("space")
            steps += 1
            await _until(pilot, lambda: app.pace.waiting or screen.acting)
        assert steps >= 3  # the cards revealed, then each of the three cards
        assert sum(line.startswith(("Card ", "Your card")) for line in _log(app)) >= 3


async def test_p_cycles_the_pace_and_says_so(tmp_path: Path) -> None:
    setup = Setup(2, None, (SeatSpec("human"), SeatSpec("greedy")), 7)
    app = SakuraApp(setup=setup, pace="step", save_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _play_a_card_and_wait(app, pilot)
        await pilot.press("p")  # step -> fast: the waiting step goes on, and the rest unpaused
        await _until(pilot, lambda: screen.acting)
        assert app.pace.name == "fast" and "Pace: fast (no pauses)." in _log(app)


def test_the_paces_cycle_in_order_and_an_unknown_one_is_refused() -> None:
    pace = Pace("normal")
    assert [pace.cycle() for _ in PACES] == [*PACES[1:], PACES[0]]
    with pytest.raises(ValueError, match="unknown pace"):
        Pace("glacial")
    assert Pace.from_delay(0).name == "fast" and Pace.from_delay(0.2).seconds == 0.2
