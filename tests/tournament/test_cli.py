"""``sakura tournament`` and ``sakura analyze``, run in-process through Typer's test runner."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from sakura.cli.main import app
from sakura.engine.games.sakura import default_deck

runner = CliRunner()


def test_tournament_prints_and_saves_standings_records_and_a_plot(tmp_path: Path) -> None:
    out, records, plot = tmp_path / "out", tmp_path / "records", tmp_path / "rates.png"
    result = runner.invoke(
        app,
        [
            "tournament",
            "greedy",
            "random",
            "-p",
            "3",
            "-n",
            "6",
            "--seed",
            "2",
            "-j",
            "1",
            "--out",
            str(out),
            "--records",
            str(records),
            "--plot",
            str(plot),
            "-q",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "greedy" in result.output and "fair share 33.3%" in result.output
    data = json.loads((out / "tournament.json").read_text())
    assert data["games"] == 6 and data["mode"] == "gauntlet"
    assert (out / "standings.csv").read_text().startswith("spec,")
    assert len(list(records.glob("game-*.json"))) == 6
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_tournament_is_reproducible(tmp_path: Path) -> None:
    args = ["tournament", "mcts:4", "random", "-p", "2", "--variant", "tactical", "-n", "4", "-j", "1", "-q"]
    first = runner.invoke(app, [*args, "--out", str(tmp_path / "a")])
    second = runner.invoke(app, [*args, "--out", str(tmp_path / "b")])
    assert first.exit_code == second.exit_code == 0, first.output
    a = json.loads((tmp_path / "a" / "tournament.json").read_text())
    b = json.loads((tmp_path / "b" / "tournament.json").read_text())
    assert [r["scores"] for r in a["results"]] == [r["scores"] for r in b["results"]]


def test_tournament_rejects_a_bad_spec_or_table(tmp_path: Path) -> None:
    bad_bot = runner.invoke(app, ["tournament", "greedy", "alphazero", "--out", str(tmp_path), "-q"])
    assert bad_bot.exit_code == 2 and "unknown bot" in bad_bot.output
    bad_table = runner.invoke(
        app, ["tournament", "greedy", "random", "-p", "9", "--out", str(tmp_path), "-q"]
    )
    assert bad_table.exit_code == 2 and "2 to 6 players" in bad_table.output
    assert not (tmp_path / "tournament.json").exists()


def test_analyze_writes_the_markdown_report_and_its_plots(tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text(default_deck().text().replace("17 E+2 JUMP", "17 E+1 JUMP"))
    out = tmp_path / "report"
    result = runner.invoke(
        app,
        [
            "analyze",
            "-p",
            "3",
            "-n",
            "12",
            "--deck",
            str(deck),
            "-b",
            "greedy",
            "-b",
            "random",
            "-j",
            "1",
            "--out",
            str(out),
            "-q",
        ],
    )
    assert result.exit_code == 0, result.output
    report = (out / "report.md").read_text()
    for heading in ("## Win rate by seat", "## Game length and bumps", "## Sakuras", "## Cards"):
        assert heading in report
    assert "| 17 | E+1 JUMP |" in report and str(deck) in report
    for name in ("seats", "rounds", "bumps", "sakuras", "cards-dealt", "cards-played", "cards-progress"):
        assert (out / f"{name}.png").read_bytes()[:4] == b"\x89PNG"
        assert f"({name}.png)" in report
    # one figure a question, each asking it in its title, wide enough for every card's number
    from PIL import Image

    for name in ("cards-dealt", "cards-played", "cards-progress"):
        with Image.open(out / f"{name}.png") as image:
            assert image.width >= 20 * 60 and image.height < image.width / 2
    assert "![Does holding a card help?" in report


def test_analyze_rejects_a_broken_deck(tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text("1 E+9 FLY\n")
    result = runner.invoke(app, ["analyze", "--deck", str(deck), "--out", str(tmp_path / "r"), "-q"])
    assert result.exit_code == 2 and "deck.txt line 1" in result.output


def test_tournament_plays_another_game_of_the_platform(tmp_path: Path) -> None:
    """The generic bots and the tournament need only the game protocol."""
    result = runner.invoke(
        app,
        [
            "tournament",
            "mcts:8",
            "random",
            "--game",
            "sakura-cards",
            "-n",
            "2",
            "-j",
            "1",
            "--out",
            str(tmp_path),
            "-q",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "tournament.json").read_text())
    assert data["game"] == "sakura-cards" and data["games"] == 2
    refused = runner.invoke(
        app,
        [
            "tournament",
            "greedy",
            "random",
            "--game",
            "sakura-cards",
            "--variant",
            "court",
            "--out",
            str(tmp_path),
            "-q",
        ],
    )
    assert refused.exit_code == 2 and "Sakura's options" in refused.output


def test_a_duplicate_order_number_is_refused_with_the_file_and_its_line(tmp_path: Path) -> None:
    """The issue's bug: the error said neither the file nor the line."""
    deck = tmp_path / "deck.txt"
    lines = default_deck().text().splitlines()
    lines[12] = "12" + lines[12][2:]  # line 13, card 11, becomes a card 12: the next line is a second 12
    deck.write_text("\n".join(lines) + "\n")
    for command in (["analyze"], ["tournament", "greedy", "random"]):
        result = runner.invoke(app, [*command, "--deck", str(deck), "--out", str(tmp_path / "r"), "-q"])
        assert result.exit_code == 2
        assert (
            "deck.txt line 14: order number 12 appears twice (two cards share an order number; "
            "the first is on line 13)"
        ) in result.output
    assert not (tmp_path / "r").exists()


def test_simulate_plays_another_deck(tmp_path: Path) -> None:
    faster = tmp_path / "faster.txt"
    faster.write_text(default_deck().text().replace(" E-1 ", " E+2 "))
    published = runner.invoke(app, ["simulate", "-n", "30", "-q"])
    changed = runner.invoke(app, ["simulate", "-n", "30", "-q", "--deck", str(faster)])
    assert published.exit_code == changed.exit_code == 0, changed.output
    assert "deck faster.txt" in changed.output

    def mean_rounds(output: str) -> float:
        return float(output.split("rounds per game")[1].split("│")[1])

    assert mean_rounds(changed.output) < mean_rounds(published.output)
    broken = tmp_path / "deck.txt"
    broken.write_text("1 E+1 P+1\n1 E+2 P+2\n")
    refused = runner.invoke(app, ["simulate", "-n", "3", "-q", "--deck", str(broken)])
    assert refused.exit_code == 2 and "deck.txt line 2: order number 1 appears twice" in refused.output
    cards = runner.invoke(app, ["simulate", "--game", "sakura-cards", "-n", "3", "-q", "--deck", str(faster)])
    assert cards.exit_code == 2 and "faster.txt line" in cards.output  # a Sakura deck is no card file
    assert "expected one of colours" in cards.output


def test_progress_lines_when_standard_error_is_not_a_terminal(tmp_path: Path) -> None:
    """Piped through tee, a tournament used to print nothing until the end."""
    result = runner.invoke(
        app, ["tournament", "greedy", "random", "-n", "6", "-j", "1", "--out", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    # -n 6 is rounded up to two blocks of four
    assert "tournament: 8/8 games (100%)" in result.output and "games/s, done in" in result.output
    quiet = runner.invoke(
        app, ["tournament", "greedy", "random", "-n", "6", "-j", "1", "--out", str(tmp_path), "-q"]
    )
    assert "games/s" not in quiet.output


def test_the_small_sample_note_is_printed_once(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["tournament", "greedy", "random", "-p", "2", "-n", "2", "-j", "1", "--out", str(tmp_path), "-q"]
    )
    assert result.exit_code == 0, result.output
    assert result.output.count("note:") == 1, result.output
    assert "the intervals count deals and will be wide" in " ".join(result.output.split())
