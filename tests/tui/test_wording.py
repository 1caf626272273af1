"""What the terminal app says: the log's sentences, the prompts, the replay's names, in every
language; driven by key presses through Textual's pilot (issue #17, items 4-8)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tests.cards.scenarios import situation
from tests.tui.screen import screen_text, session_at, until_end
from textual.pilot import Pilot

from sakura.engine import make_game
from sakura.records import GameRecord, random_playout
from sakura.tui import SakuraApp, SeatSpec, Session, Setup
from sakura.tui.cards_screens import CardsScreen
from sakura.tui.dialogs import HelpScreen
from sakura.tui.game_screen import GameScreen
from sakura.tui.replay_screen import ReplayScreen
from sakura.tui.sakura_screens import SakuraScreen

pytestmark = pytest.mark.anyio


def _log(screen: Any) -> str:
    return "\n".join(str(line.text) for line in screen.query_one("#log").lines)


def _record_with(players: int, wanted: Callable[[dict[str, Any]], bool]) -> GameRecord:
    """The first random game (by seed) in which some event is ``wanted``."""
    game = make_game("sakura", {"players": players})
    for seed in range(200):
        record = random_playout(game, seed=seed)
        state = game.state_from_json(record.initial)
        for move in record.moves:
            events = state.apply_action(move.player, game.parse_action(move.action))
            if any(wanted(e.to_dict()) for e in events):
                return record
    raise AssertionError("no such game")


async def _replayed_log(record: GameRecord, lang: str = "en") -> str:
    app = SakuraApp(record=record, delay=0, lang=lang)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("end")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        return _log(app.screen)


async def test_the_emperor_backing_onto_a_painter_is_told_as_his_move() -> None:
    record = _record_with(2, lambda e: e["type"] == "bumped" and e["by"] == "emperor")
    log = await _replayed_log(record)
    assert "The Emperor backs onto" in log
    for line in log.split("\n"):  # a painter's own bump is still told as it reaching him
        if "reaches the Emperor" in line:
            assert "backs onto" not in line


async def test_a_painter_that_cannot_move_is_not_said_to_move_from_a_space_to_itself() -> None:
    record = _record_with(2, lambda e: e["type"] == "painter_moved" and e["start"] == e["end"])
    log = await _replayed_log(record)
    assert not re.search(r"from space (\d+) to space \1\b", log)
    assert "is at the gate and cannot go back." in log


async def test_every_log_line_starts_with_a_capital_and_the_replay_names_seats_as_the_game_did(
    tmp_path: Path,
) -> None:
    setup = Setup(2, None, (SeatSpec("human"), SeatSpec("greedy")), 4)  # with the court painter
    app = SakuraApp(setup=setup, delay=0, save_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(12):
            await pilot.pause()
            await pilot.press("1")
        await pilot.pause()
        await pilot.press("s")
        assert app.last_saved is not None
    record = GameRecord.loads(app.last_saved.read_text(encoding="utf-8"))
    log = await _replayed_log(record)
    assert "Player 1" in log and "Bot 2" in log
    assert "human 1" not in log and "greedy 2" not in log
    whole = await _replayed_log(_record_with(2, lambda e: e["type"] == "choice_asked"))
    assert "ourt painter" in whole
    for line in whole.split("\n"):
        assert not line.strip() or not line.strip()[0].islower(), line


async def test_a_resumed_game_does_not_say_it_is_new(tmp_path: Path) -> None:
    app = SakuraApp(
        setup=Setup(3, None, (SeatSpec("human"), SeatSpec("greedy"), SeatSpec("greedy")), 42),
        delay=0,
        save_dir=tmp_path,
    )
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(3):
            await pilot.pause()
            await pilot.press("1")
        await pilot.pause()
        await pilot.press("s")
    assert app.last_saved is not None
    session = Session.resume(GameRecord.loads(app.last_saved.read_text(encoding="utf-8")))
    app = SakuraApp(session=session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        log = _log(app.screen)
        assert "A new game" not in log
        assert f"goes on after {len(session.recorder.moves)} moves" in log
        # issue 31, deliverable 2: the earlier log comes back, as its player saw it
        assert log.index("Cards revealed") < log.index("goes on after")
        assert "You choose card" in log.split("goes on after")[0]


async def _to_a_choice(
    app: SakuraApp, pilot: Pilot[None], enough: Callable[[SakuraScreen], bool]
) -> SakuraScreen:
    """Play '1' until a choice is asked that ``enough`` accepts (others are answered with Enter)."""
    for _ in range(600):
        await pilot.pause()
        game = next(s for s in app.screen_stack if isinstance(s, SakuraScreen))
        if game.mode == "choice":
            if enough(game):
                return game
            await pilot.press("enter")
        else:
            await pilot.press("1")
    raise AssertionError("no such choice came up")


def _prompt(game: GameScreen[Any, Any]) -> str:
    return str(game.query_one("#prompt").render())


async def test_a_choice_preview_joins_whole_sentences() -> None:
    app = SakuraApp(
        setup=Setup(3, None, (SeatSpec("human"), SeatSpec("greedy"), SeatSpec("random")), 5), delay=0
    )

    def two_sentences(game: SakuraScreen) -> bool:
        return _prompt(game).split("\n")[-1].count(".") >= 2

    async with app.run_test(size=(120, 36)) as pilot:
        game = await _to_a_choice(app, pilot, two_sentences)
        preview = _prompt(game).split("\n")[-1]
        assert ".;" not in preview and "; " not in preview


async def test_spanish_says_del_and_takes_its_own_letters_for_forward_and_back() -> None:
    record = _record_with(3, lambda e: e["type"] == "choice_asked")
    log = await _replayed_log(record, "es")
    assert "la dirección del movimiento" in log and "de el" not in log
    app = SakuraApp(
        setup=Setup(3, None, (SeatSpec("human"), SeatSpec("greedy"), SeatSpec("random")), 5),
        delay=0,
        lang="es",
    )
    async with app.run_test(size=(100, 30)) as pilot:
        game = await _to_a_choice(app, pilot, lambda g: True)
        assert "[1/A]" in _prompt(game) and "[2/R]" in _prompt(game)
        moves = game.play.session.recorder.moves
        for key in ("r", "b"):  # atrás ("retroceder"); the English letter still works
            game = await _to_a_choice(app, pilot, lambda g: True)
            done = len(moves)
            await pilot.press(key)
            await pilot.pause()
            assert moves[done].action == "back"


async def test_persian_lines_that_start_with_latin_text_read_right_to_left() -> None:
    app = SakuraApp(
        setup=Setup(3, None, (SeatSpec("human"), SeatSpec("greedy"), SeatSpec("random")), 5),
        delay=0,
        lang="fa",
    )
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        lines = screen_text(app).split("\n")
        # the first logical words ("E+1، E+2", "P+n", "JUMP") are the rightmost in visual order
        for start, last in (("E+1", "E+2"), ("P+n", "P+n"), ("JUMP", "JUMP")):
            line = next(x for x in lines if start in x)
            assert line.rstrip().endswith(last), line


async def test_the_card_log_tells_your_own_moves_as_yours() -> None:
    app = SakuraApp(setup=Setup.cards(("human", "greedy"), seed=21), delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(60):
            await pilot.pause()
            game = next(s for s in app.screen_stack if isinstance(s, CardsScreen))
            if len(game.play.session.recorder.moves) >= 6:
                break
            if game.acting:
                await pilot.press("enter")
        log = _log(game)
        assert "You place" in log and "You give" in log
        assert "Player 1 places" not in log and "Player 1 discards" not in log


async def test_a_card_with_one_open_area_is_placed_there_without_a_wrong_message() -> None:
    state = situation((["y1", "r5"], ["r2", "b4"]), ([["r4"], ["b3"], []], [[], [], []]))
    session = session_at(state, ("human", "greedy"))
    app = SakuraApp(session=session, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        game = next(s for s in app.screen_stack if isinstance(s, CardsScreen))
        await pilot.press("1")  # y1: lower than the garden's r4 and the palace's b3: the temple only
        assert game.mode == "area" and "[3] temple" in _prompt(game)
        await pilot.press("1")
        assert "cannot go" not in _prompt(game)
        assert "fits only in the temple" in _prompt(game) and not session.recorder.moves
        await pilot.press("enter")
        await pilot.pause()
        assert session.recorder.moves[0].action == "place y1 temple"


@pytest.mark.parametrize(
    ("lang", "one", "two"),
    [
        ("en", "you draw card 5.", "you draw cards 13 and 40."),
        ("es", "robas la carta 5.", "robas las cartas 13 y 40."),
        ("fa", "شما کارت 5 را", "شما کارت‌های 13 و 40 را"),
    ],
)
def test_the_cards_you_draw_are_named_as_cards(lang: str, one: str, two: str) -> None:
    """Issue 31, item 6: "you draw 5" read as five cards; it is card 5 (or cards 13 and 40)."""
    from sakura.tui import i18n
    from sakura.tui.log import sentence

    i18n.set_language(lang)
    try:
        said = [sentence({"type": "hands_refilled", "draws": [d, [1]]}, str, you=0) for d in ([5], [13, 40])]
    finally:
        i18n.set_language("en")
    assert said[0] is not None and one in said[0]
    assert said[1] is not None and two in said[1]


async def test_the_final_standings_show_the_court_painter_and_say_it_never_wins() -> None:
    """Issue 31, item 9: the court painter was left out of the final standings even with the
    most tokens (13 against the winner's 11), and nothing said why."""
    from dataclasses import replace

    game = make_game("sakura", {"players": 2})
    record = random_playout(game, seed=2)  # the court painter ends with 13 tokens, the winner 11
    record = replace(record, extra={"tui": {"seats": ["human", "greedy"]}})
    app = SakuraApp(session=Session.resume(record), delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_end(app, pilot)
        text = screen_text(app)
        row = next(line for line in text.split("\n") if "court painter" in line and "│" in line)
        assert "13" in row and "–" in row, text  # its tokens, and no place
        assert "never wins" in text and "You finished 1st." in text
        places = [line for line in text.split("\n") if re.search(r"│\s*[12]\s*│", line)]
        assert len(places) == 2 and "11" in places[0] and "★" in places[0], text


async def test_tactical_the_court_painters_card_is_asked_and_told_clearly() -> None:
    """Issue 31, item 8: choosing the court painter's card left the cursor on the card just
    chosen, where Enter did nothing, silently; the log said "You choose card 20, 23."; and the
    court painter's last card fell off the status line at 80 columns."""
    app = SakuraApp(setup=Setup(2, "tactical", (SeatSpec("human"), SeatSpec("greedy")), 4), delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(400):
            await pilot.pause()
            game = next(s for s in app.screen_stack if isinstance(s, SakuraScreen))
            if game.acting and game.mode == "select" and game.play.view(0).double == 0:
                break
            if game.acting:
                await pilot.press("enter")
        else:
            raise AssertionError("the human never played two cards")
        status = [line for line in screen_text(app).split("\n") if "♦" in line]
        assert sum(line.count("#") for line in status) == 3, status  # every painter's last card
        hand = game.play.view(0).hand or ()
        await pilot.press("1")
        await pilot.pause()
        assert game.mode == "court" and hand[game.cursor] != hand[0]
        await pilot.press("1")  # the card already chosen for one's own painter
        await pilot.pause()
        assert game.mode == "court" and "is for your own painter" in _prompt(game)
        moves = len(game.play.session.recorder.moves)
        await pilot.press("enter")  # the cursor is on another card: it is played
        for _ in range(100):
            if len(game.play.session.recorder.moves) > moves:
                break
            await pilot.pause(0.02)
        assert len(game.play.session.recorder.moves) > moves, (game.mode, _prompt(game), moves)
        played = game.play.session.recorder.moves[moves]
        assert played.action == f"play {hand[0]} court {hand[1]}"
        assert (
            f"You choose card {hand[0]} for your painter and card {hand[1]} for the court painter."
            in _log(game)
        )


@pytest.mark.parametrize("lang", ["en", "es", "fa"])
def test_the_help_is_whole_sentences_never_a_fragment_per_line(lang: str) -> None:
    """Issue 31, item 10: the help's own line breaks left fragments ("together and", "+3,")
    that the screen's wrapping then stranded; each help line is now a whole sentence."""
    from rich.console import Group
    from rich.text import Text

    from sakura.tui import i18n
    from sakura.tui.cards_screens import rules_text as cards_rules
    from sakura.tui.sakura_screens import rules_text as sakura_rules

    i18n.set_language(lang)
    try:
        lines = []
        for help_text in (sakura_rules(), cards_rules()):
            if isinstance(help_text, Text):
                lines += help_text.plain.split("\n")
            else:
                assert isinstance(help_text, Group)
                lines += [str(getattr(p, "text", "")) for p in help_text.renderables]
    finally:
        i18n.set_language("en")
    dangling = (" and", " y", " و", ",", "،", ":")
    assert [line for line in lines if line.rstrip().endswith(dangling)] == []


HELP_TEACHES = {  # deliverable 3 of issue 31: what the help must teach, by an English phrase
    "the court painter": "The court painter (K) plays too",
    "the tactical variant": "Tactical variant:",
    "bridges": "three spaces with five or six",
    "the torii": "starts on the torii",
    "4 tokens at the last sakura": "earns 4 instead of 3",
    "the hint key": "H: a hint",
    "paging the log": "PageUp/PageDown",
}


def test_the_card_games_help_names_its_hint_and_log_keys_too() -> None:
    from sakura.tui.cards_screens import rules_text

    text = rules_text()
    assert "H: a hint" in getattr(text, "plain", "") and "PageUp/PageDown" in getattr(text, "plain", "")


@pytest.mark.parametrize("lang", ["en", "es", "fa"])
def test_the_help_teaches_the_two_player_rules_the_garden_and_every_key(lang: str) -> None:
    from rich.console import Group
    from rich.text import Text

    from sakura.tui import i18n
    from sakura.tui.sakura_screens import rules_text

    i18n.set_language("en")
    english = rules_text()
    assert isinstance(english, Text)
    paragraphs = [line for line in english.plain.split("\n") if line]
    i18n.set_language(lang)
    try:
        shown = rules_text()
        texts = shown.plain.split("\n") if isinstance(shown, Text) else []
        if isinstance(shown, Group):
            texts = [str(getattr(p, "text", "")) for p in shown.renderables]
        for what, phrase in HELP_TEACHES.items():
            source = next((p for p in paragraphs if phrase in p), None)
            assert source is not None, f"the help does not teach {what}"
            if lang != "en":  # a translation of its own, on the help of that language
                translated = i18n.lt(source)
                assert translated != source and translated in texts, (what, lang)
    finally:
        i18n.set_language("en")


async def test_the_end_shows_the_engines_score_sheet_and_the_tie_break() -> None:
    """Issue 31 (deliverable 2) and 28 (deliverable 2): the end says why the winner won: the
    tokens of each cherry tree, the bumps, and the tie-break in words."""
    from dataclasses import replace

    from sakura.engine.games.sakura import score_sheet
    from sakura.records import game_events

    game = make_game("sakura", {"players": 3})
    for seed in range(300):  # the first random game won on the tie-break
        record = random_playout(game, seed=seed)
        sheet = score_sheet(game_events(record), 3)
        if sheet.decided_by_closeness and any(b.token_lost for b in sheet.bumps):
            break
    record = replace(record, extra={"tui": {"seats": ["human", "greedy", "greedy"]}})
    app = SakuraApp(session=Session.resume(record), delay=0)
    async with app.run_test(size=(100, 40)) as pilot:
        await until_end(app, pilot)
        text = screen_text(app)
    (winner,) = sheet.winners
    assert f"Tied on {sheet.tokens[winner]} tokens: " in text and "closest to the Emperor" in text, text
    assert "✿1" in text and "✿3" in text and "Bumps" in text and "At start" in text
    rows = [line for line in text.split("\n") if re.search(r"│\s*[123]\s*│", line)]
    assert len(rows) == 3 and "★" in rows[0]
    for row in rows:  # the engine's numbers, every one of them
        seat = next(s for s in range(3) if f"Player {s + 1}" in row or f"Bot {s + 1}" in row)
        cells = [c.strip() for c in row.split("│")[3:-1]]
        assert (
            cells[0] == "5" and cells[-2] == str(sheet.tokens[seat]) and cells[-1] == str(sheet.spaces[seat])
        )
    assert "reached the Emperor" in text or "backed the Emperor" in text
    place = sheet.order().index(0) + 1
    assert f"You finished {place}{ {1: 'st', 2: 'nd', 3: 'rd'}[place] }." in text
