"""The terminal app on small screens: focus you can see, a start button on screen, a log you
can page back, lines that are never cut mid-word (issue #17, items 1-3), by key presses."""

from __future__ import annotations

import re

import pytest
from tests.cards.scenarios import situation
from tests.tui.screen import play_until, screen_text, session_at, until_end
from textual.widgets import Button, Input, Select

from sakura.tui import SakuraApp, SeatSpec, Setup
from sakura.tui.cards_screens import CardsScreen
from sakura.tui.dialogs import GameLog
from sakura.tui.game_screen import GameScreen
from sakura.tui.start import StartScreen

pytestmark = pytest.mark.anyio


async def test_tab_then_enter_on_the_start_screen_opens_the_game_list_and_starts_nothing() -> None:
    app = SakuraApp(delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.focused, Button)  # Enter at once still starts
        await pilot.press("tab")
        assert app.focused is not None and app.focused.id == "game"  # a field, not a container
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        assert app.screen.query_one("#game", Select).expanded


@pytest.mark.parametrize("size", [(100, 30), (80, 24)])
async def test_the_start_button_and_every_label_fit_with_six_seats(size: tuple[int, int]) -> None:
    app = SakuraApp(delay=0)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        start = app.screen
        start.query_one("#players", Select).value = 6
        start.query_one("#game", Select).value = "sakura-cards"
        await pilot.pause()
        assert "Sakura: the card game (two players)" in screen_text(app)  # on one line
        start.query_one("#game", Select).value = "sakura"
        await pilot.pause()
        button = start.query_one("#go", Button).region
        assert button.bottom <= size[1] - 1  # above the footer, whole
        assert "Seat 6" in screen_text(app) and "Start the game" in screen_text(app)


async def test_the_log_pages_back_by_keyboard_to_the_first_round() -> None:
    setup = Setup(4, None, (SeatSpec("human"), SeatSpec("greedy"), SeatSpec("greedy"), SeatSpec("random")), 9)
    app = SakuraApp(setup=setup, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        game = await play_until(app, pilot, lambda g: g.play.view(None).round >= 4 and g.acting)
        log = game.query_one(GameLog)
        assert log.size.height >= 10  # more than eight lines at 80×24
        assert "Round 1 —" not in screen_text(app)
        for _ in range(60):
            await pilot.press("pageup")
        await pilot.pause()
        assert log.scroll_y == 0 and not log.follow
        text = screen_text(app)
        assert "A new game: seed 9." in text and "— Round 1 —" in text, text
        await pilot.press("1")  # a move writes new lines: the log stays where it was read
        await pilot.pause()
        assert log.scroll_y == 0
        for _ in range(80):
            await pilot.press("pagedown")
        await pilot.pause()
        assert log.follow and log.scroll_y == log.max_scroll_y


async def test_the_status_line_keeps_every_entry_whole_and_the_court_painter_named() -> None:
    for setup, width in (
        (Setup(2, None, (SeatSpec("human"), SeatSpec("greedy")), 3), 80),
        (Setup(6, None, (SeatSpec("human"), *[SeatSpec("greedy")] * 5), 3), 80),
        (Setup(6, None, (SeatSpec("human"), *[SeatSpec("greedy")] * 5), 3), 100),
    ):
        app = SakuraApp(setup=setup, delay=0)
        async with app.run_test(size=(width, 30)) as pilot:
            await pilot.pause()
            text = screen_text(app)
            names = ["court painter"] if setup.players == 2 else [f"Bot {n}" for n in range(2, 7)]
            for name in ["Player 1", *names]:
                assert re.search(rf"{name} sp \d+ ♦\d+", text), (name, text)


async def test_the_status_line_shows_the_card_each_painter_played() -> None:
    """The played cards lie face up in front of their players until the next reveal: from the
    second round on each entry of the status line ends with its painter's card, "#n", this
    round's once revealed and the last round's while the new cards are chosen (six painters at
    80 columns, each entry still whole)."""
    setup = Setup(6, None, (SeatSpec("human"), *[SeatSpec("greedy")] * 5), 5)
    app = SakuraApp(setup=setup, delay=0)
    async with app.run_test(size=(80, 30)) as pilot:
        game = await play_until(
            app,
            pilot,
            lambda g: g.play.view(0).round >= 2 and g.acting and not g.busy and not g.play.view(0).revealed,
        )
        played = dict(game.play.view(0).last_round)
        assert sorted(played) == list(range(6))
        text = screen_text(app)
        for seat, name in enumerate(["Player 1", *[f"Bot {n}" for n in range(2, 7)]]):
            assert re.search(rf"{name} sp \d+ ♦\d+ #{played[seat]}\b", text), (name, played[seat], text)


async def test_space_numbers_never_run_together_at_100_columns() -> None:
    app = SakuraApp(setup=Setup(6, None, (SeatSpec("human"), *[SeatSpec("greedy")] * 5), 3), delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        ruler = next(line for line in screen_text(app).split("\n") if line.lstrip().startswith("space"))
        assert "10" in ruler and not re.search(r"\d{3}", ruler), ruler


async def test_the_card_screen_at_80x24_cuts_no_explanation_and_no_line_of_what_you_know() -> None:
    state = situation(
        (["g3", "y5", "r2", "b4", "y2"], ["r2", "b4"]),
        (
            [["g1*", "g2", "g3", "g4", "g5", "b5"], ["y1", "y1*", "y3", "y4"], ["b2"]],
            [["b1", "g2", "r3", "y4", "r5*"], [], []],
        ),
        given=(["b3", "r4", "y2", "g3", "r1*", "b1", "y3"], ["r1", "y3", "b1", "g4", "b5", "r3", "g2"]),
        discards=(["r3", "b2", "y3"], []),
    )
    session = session_at(state, ("human", "greedy"))
    app = SakuraApp(session=session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        game = next(s for s in app.screen_stack if isinstance(s, CardsScreen))
        text = screen_text(app)
        garden = next(line for line in text.split("\n") if "g1✿" in line)
        whole = ("one colour (green), in a row, blossom +3", "1 colour, run, ✿+3")
        assert garden.rstrip().endswith(whole), garden
        assert "discarded r3 b2 y3" in text and "received r1 y3 b1 g4 b5 r3 g2★" in text
        assert "given b3 r4 y2 g3 r1✿ b1 y3" in text
        assert game.query_one(GameLog).size.height >= 5


async def test_the_start_screen_shows_the_command_lines_options_and_starts_that_game() -> None:
    """Issue 31, item 5: ``sakura play --seed 77 --bots expert`` opens the start screen with
    seed 77 and expert bots; Enter starts exactly that game."""
    prefill = Setup(3, None, (SeatSpec("human"), SeatSpec("expert"), SeatSpec("expert")), 77)
    app = SakuraApp(start=prefill, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        assert app.screen.query_one("#seed", Input).value == "77"
        assert [app.screen.query_one(f"#seat-{i}", Select).value for i in range(3)] == [
            "human",
            "expert",
            "expert",
        ]
        await pilot.press("enter")
        for _ in range(100):
            if isinstance(app.screen, GameScreen):
                break
            await pilot.pause(0.02)
        assert isinstance(app.screen, GameScreen)
        assert app.screen.play.seed == 77
        assert [s.kind for s in app.screen.play.setup.seats] == ["human", "expert", "expert"]


async def test_only_the_focused_fields_label_is_lit_on_the_start_screen() -> None:
    """Issue 31, item 7: "Game" stayed highlighted wherever the focus was, and the focused
    field's label was never bold (docs/tui.md says it is)."""
    from textual.widgets import Label

    app = SakuraApp(delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()

        def bold_labels() -> list[str]:
            return [str(label.render()) for label in app.screen.query(Label) if label.rich_style.bold]

        assert isinstance(app.focused, Button) and bold_labels() == []
        for expected in ("Game", "Players"):
            await pilot.press("tab")
            await pilot.pause()
            assert bold_labels() == [expected], (app.focused, bold_labels())
        await pilot.press("shift+tab", "shift+tab")
        await pilot.pause()
        assert isinstance(app.focused, Button) and bold_labels() == []


async def test_no_text_from_behind_shows_beside_the_help_or_the_end_panel() -> None:
    """Issue 31, item 10: the game behind a dialog showed through at its edges ("──", "Bo",
    half a card). The help covers the screen; the end panel spans the width at the bottom,
    under the final garden, which stays in view."""
    from dataclasses import replace

    from sakura.engine import make_game
    from sakura.records import random_playout
    from sakura.tui import Session
    from sakura.tui.dialogs import HelpScreen

    app = SakuraApp(
        setup=Setup(3, None, (SeatSpec("human"), SeatSpec("greedy"), SeatSpec("random")), 5), delay=0
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        assert "space     0" not in text and "─" not in text and "┃" not in text, text
    record = replace(
        random_playout(make_game("sakura", {"players": 3}), seed=4),
        extra={"tui": {"seats": ["human"] + ["greedy"] * 2}},
    )
    app = SakuraApp(session=Session.resume(record), delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_end(app, pilot)
        lines = screen_text(app).split("\n")
        top = next(i for i, line in enumerate(lines) if "Score sheet" in line)
        assert any(line.startswith(" garden") for line in lines[:top]), "\n".join(lines)
        # the panel's own scrollbar (block glyphs) may sit at its edge; no text from behind
        assert all(line[76:].strip(" ▁▂▃▄▅▆▇█") == "" for line in lines[top:]), "\n".join(lines)
        assert all(line[:2].strip() == "" for line in lines[top:]), "\n".join(lines)


async def test_ctrl_q_in_a_game_under_way_asks_and_can_save_before_quitting(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Issue 31, deliverable 2: Ctrl+Q mid-game quit at once and lost the game; it asks now:
    Esc goes on, S saves and quits."""
    from sakura.tui.dialogs import QuitScreen

    app = SakuraApp(
        setup=Setup(3, None, (SeatSpec("human"), SeatSpec("greedy"), SeatSpec("random")), 5),
        delay=0,
        save_dir=tmp_path,
    )
    async with app.run_test(size=(80, 24)) as pilot:
        game = await play_until(app, pilot, lambda g: g.acting)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen) and "Quit the game under way?" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is game and app.return_code is None  # still playing
        await pilot.press("ctrl+q")
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
    assert app.last_saved is not None and app.last_saved.exists()
    assert app.return_code == 0
