"""Snapshots of the terminal app: the start screen, a Sakura game, its help, the end of a game
(the score sheet) and a card game at 80×24 and 100×30, in English, Spanish and Persian,
compared with the SVG screenshots kept in ``tests/tui/snapshots/`` so that a layout change
shows.

Every game is dealt from a fixed seed and caught when the human must act (no bot is thinking),
so the screen is the same on every run. After a deliberate change of the screens, look at the
new screenshots (``out/tui/snapshots/``, written on a mismatch) and accept them with
``SAKURA_UPDATE_SNAPSHOTS=1 python -m pytest tests/tui/test_snapshots.py``.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest
from tests.tui.screen import screen_svg, screen_text, until_end

from sakura.engine import make_game
from sakura.records import random_playout
from sakura.tui import SakuraApp, SeatSpec, Session, Setup
from sakura.tui.game_screen import GameScreen

pytestmark = pytest.mark.anyio

KEPT = Path(__file__).with_name("snapshots")
OUT = Path(__file__).resolve().parents[2] / "out" / "tui" / "snapshots"
SIZES = [(80, 24), (100, 30)]
LANGS = ["en", "es", "fa"]


def _app(screen: str, lang: str) -> SakuraApp:
    if screen == "start":
        return SakuraApp(lang=lang, delay=0)
    if screen == "end":  # a finished game resumed: its end panel at once
        record = random_playout(make_game("sakura", {"players": 3}), seed=4)
        record = replace(record, extra={"tui": {"seats": ["human", "greedy", "greedy"]}})
        return SakuraApp(session=Session.resume(record), lang=lang, delay=0)
    if screen in ("sakura", "help"):
        seats = (SeatSpec("human"), SeatSpec("greedy"), SeatSpec("greedy"), SeatSpec("random"))
        return SakuraApp(setup=Setup(4, None, seats, 17), lang=lang, delay=0)
    return SakuraApp(setup=Setup.cards(("human", "greedy"), seed=17), lang=lang, delay=0)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("screen", ["start", "sakura", "help", "end", "cards"])
async def test_the_screen_looks_as_it_did(screen: str, size: tuple[int, int], lang: str) -> None:
    app = _app(screen, lang)
    name = f"{screen}-{size[0]}x{size[1]}-{lang}.svg"
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        if screen == "end":
            await until_end(app, pilot)
        elif screen != "start":
            for _ in range(200):  # until the human's turn, with the bots' moves in the log
                game = app.screen
                if isinstance(game, GameScreen) and game.acting and not game.busy:
                    break
                await pilot.pause(0.02)
            else:
                raise AssertionError("the human's turn did not come")
            # the cursor on the second card (a key's effect is seen), or the help opened
            await pilot.press("question_mark" if screen == "help" else "right")
        await pilot.pause()
        svg, text = screen_svg(app), screen_text(app)
    kept = KEPT / name
    if os.environ.get("SAKURA_UPDATE_SNAPSHOTS") or not kept.exists():
        KEPT.mkdir(exist_ok=True)
        kept.write_text(svg, encoding="utf-8")
        if not os.environ.get("SAKURA_UPDATE_SNAPSHOTS"):
            pytest.fail(f"no snapshot {name} was kept: one was written; look at it and commit it")
        return
    if svg != kept.read_text(encoding="utf-8"):
        OUT.mkdir(parents=True, exist_ok=True)
        (OUT / name).write_text(svg, encoding="utf-8")
        pytest.fail(
            f"{name} differs from the kept snapshot (the new one: {OUT / name}); the screen now:\n{text}"
        )
