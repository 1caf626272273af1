"""``sakura play`` and ``sakura replay --tui`` from the command line: the options that choose
a game, the errors a user can cause (each exits 2 before the app starts), and the app each
path starts (its ``run`` replaced, so no terminal is needed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sakura.cli.main import app
from sakura.engine import make_game
from sakura.records import random_playout
from sakura.tui import SakuraApp

runner = CliRunner()


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[SakuraApp]:
    """The apps the command would have run."""
    apps: list[SakuraApp] = []

    def run(self: SakuraApp, *args: Any, **kwargs: Any) -> None:
        apps.append(self)

    monkeypatch.setattr(SakuraApp, "run", run)
    return apps


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--game", "chess"], "unknown game 'chess'; the terminal app plays sakura and sakura-cards"),
        (["--game", "sakura-cards", "--players", "3"], "is for two players and has no variants"),
        (["--game", "sakura-cards", "--variant", "tactical"], "leave out --players and --variant"),
        (["--game", "sakura-cards", "--bots", "alphazero"], "unknown bot 'alphazero'"),
        (["--game", "sakura-cards", "--seat", "3"], "--seat is 1 to 2"),
        (["--watch"], "--watch watches a web table: give its link with --join"),
        (["--players", "3", "--bots", "policy"], "no trained policy for the table 'sakura-3p'"),
    ],
)
def test_bad_game_options_say_what_is_wrong(args: list[str], words: str, started: list[SakuraApp]) -> None:
    result = runner.invoke(app, ["play", *args])
    assert result.exit_code == 2, result.output
    assert words in result.output
    assert not started


def test_game_sakura_cards_starts_a_card_game_at_once(started: list[SakuraApp]) -> None:
    result = runner.invoke(
        app,
        [
            "play",
            "--game",
            "sakura-cards",
            "--bots",
            "mcts:100",
            "--seat",
            "2",
            "--seed",
            "9",
            "--players",
            "2",
        ],
    )
    assert result.exit_code == 0, result.output
    (tui,) = started
    assert tui.setup is not None and tui.setup.game == "sakura-cards" and tui.setup.seed == 9
    assert [s.kind for s in tui.setup.seats] == ["mcts:100", "human"]
    result = runner.invoke(app, ["play", "--game", "sakura-cards", "--hot-seat"])
    assert result.exit_code == 0, result.output
    hot = started[1].setup
    assert hot is not None and [s.kind for s in hot.seats] == ["human", "human"]


def test_resume_takes_a_card_record_and_refuses_another_game(
    tmp_path: Path, started: list[SakuraApp]
) -> None:
    record = random_playout(make_game("sakura-cards"), seed=5)
    path = tmp_path / "cards.json"
    path.write_text(record.dumps(), encoding="utf-8")
    result = runner.invoke(app, ["play", "--resume", str(path)])
    assert result.exit_code == 0, result.output
    assert started[0].session is not None and started[0].session.setup.game == "sakura-cards"
    result = runner.invoke(app, ["play", "--resume", str(path), "--game", "sakura"])
    assert result.exit_code == 2 and "is a game of sakura-cards, not sakura" in result.output


def test_replay_tui_opens_a_card_record(tmp_path: Path, started: list[SakuraApp]) -> None:
    record = random_playout(make_game("sakura-cards"), seed=6)
    path = tmp_path / "cards.json"
    path.write_text(record.dumps(), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path), "--tui"])
    assert result.exit_code == 0, result.output
    assert started[0].record == record


def test_join_with_watch_starts_a_spectator(started: list[SakuraApp]) -> None:
    result = runner.invoke(app, ["play", "--join", "http://127.0.0.1:1/t/abc", "--watch"])
    assert result.exit_code == 0, result.output
    assert started[0].join == "http://127.0.0.1:1/t/abc" and started[0].spectate


def test_join_refuses_what_is_no_table_link_before_the_app_starts(started: list[SakuraApp]) -> None:
    result = runner.invoke(app, ["play", "--join", "not-a-link"])
    assert result.exit_code == 2, result.output
    assert "not a table link: 'not-a-link'" in result.output
    assert not started


def test_a_failed_join_exits_1_and_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    def run(self: SakuraApp, *args: Any, **kwargs: Any) -> None:
        self.join_error = "Cannot reach the server at http://127.0.0.1:1"  # as the join screen sets it

    monkeypatch.setattr(SakuraApp, "run", run)
    result = runner.invoke(app, ["play", "--join", "http://127.0.0.1:1/t/abc"])
    assert result.exit_code == 1, result.output
    assert "error: cannot join the table: Cannot reach the server" in result.output


def test_replay_board_ends_its_last_line_before_the_summary(tmp_path: Path) -> None:
    import subprocess
    import sys

    for game in ("sakura", "sakura-cards"):
        path = tmp_path / f"{game}.json"
        path.write_text(random_playout(make_game(game), seed=3).dumps(), encoding="utf-8")
        out = subprocess.run(
            [sys.executable, "-m", "sakura.cli.main", "replay", str(path), "--board"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            check=True,
        ).stdout
        assert "\nreplayed " in out and out.count("replayed ") == 1, out[-300:]


@pytest.mark.parametrize(
    "field",
    [
        "seats",
        7,
        ["human", "greedy", "greedy"],
        {"seats": "human"},
        {"seats": [1, 2, 3]},
        {"seats": ["human"]},
    ],
)
def test_resume_refuses_a_tui_field_it_did_not_write_without_a_traceback(
    field: object, tmp_path: Path, started: list[SakuraApp]
) -> None:
    """Issue 31, item 4: a record whose header's ``tui`` field is not an object crashed with
    an AttributeError; it is said in one line, like every other corrupt record."""
    from dataclasses import replace

    record = replace(random_playout(make_game("sakura", {"players": 3}), seed=3), extra={"tui": field})
    path = tmp_path / "odd.json"
    path.write_text(record.dumps(), encoding="utf-8")
    result = runner.invoke(app, ["play", "--resume", str(path)])
    assert result.exit_code == 2, result.output
    assert 'the record\'s "tui"' in result.output and "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert not started


def test_resume_refuses_an_unknown_bot_in_the_tui_field(tmp_path: Path, started: list[SakuraApp]) -> None:
    from dataclasses import replace

    record = random_playout(make_game("sakura", {"players": 3}), seed=3)
    record = replace(record, extra={"tui": {"seats": ["human", "alphazero", "greedy"]}})
    path = tmp_path / "odd.json"
    path.write_text(record.dumps(), encoding="utf-8")
    result = runner.invoke(app, ["play", "--resume", str(path)])
    assert result.exit_code == 2 and "unknown bot" in result.output, result.output
    assert not started


@pytest.mark.parametrize(
    ("args", "table"),
    [
        (["--seed", "77"], (3, None, ["human", "greedy", "greedy"], 77)),
        (["--bots", "expert"], (3, None, ["human", "expert", "expert"], None)),
        (["--hot-seat"], (3, None, ["human", "human", "human"], None)),
        (["--variant", "tactical"], (2, "tactical", ["human", "greedy"], None)),
        (["--seat", "4", "--bots", "random"], (4, None, ["random", "random", "random", "human"], None)),
    ],
)
def test_options_without_players_fill_in_the_start_screen(
    args: list[str], table: tuple[int, str | None, list[str], int | None], started: list[SakuraApp]
) -> None:
    """Issue 31, item 5: without -p these options were silently dropped; now the start screen
    opens with them filled in (and Enter starts that table)."""
    result = runner.invoke(app, ["play", *args])
    assert result.exit_code == 0, result.output
    (tui,) = started
    assert tui.setup is None and tui.start is not None  # the start screen, not a game at once
    start = tui.start
    assert (start.players, start.variant, [s.kind for s in start.seats], start.seed) == table


def test_a_bad_option_without_players_is_said_before_the_start_screen(started: list[SakuraApp]) -> None:
    result = runner.invoke(app, ["play", "--bots", "alphazero"])
    assert result.exit_code == 2 and "unknown bot 'alphazero'" in result.output, result.output
    assert not started
