"""``sakura replay FILE --analyse``: a table of the seat's decisions and a PNG graph."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from sakura.cli.main import app

runner = CliRunner()
GOLDEN = Path(__file__).resolve().parent.parent / "records" / "golden" / "3p-seed1.json"


def test_replay_analyse_prints_the_decisions_and_writes_the_graph(tmp_path: Path) -> None:
    png = tmp_path / "graph.png"
    result = runner.invoke(
        app,
        [
            "replay",
            str(GOLDEN),
            "--analyse",
            "--seat",
            "2",
            "--spec",
            "mcts:30",
            "--samples",
            "40",
            "--png",
            str(png),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "seat 2 (Player 2): each decision's cards played out" in result.output
    assert "decisions of seat 2 (Player 2)" in result.output and "on 40 samples" in result.output
    assert "round points with mcts:30" in result.output
    assert re.search(r"−\d+\.\d ± \d+\.\d", result.output)  # a loss is shown with its margin
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_replay_analyse_refuses_a_seat_that_is_not_there_and_a_bot_that_does_not_search() -> None:
    result = runner.invoke(app, ["replay", str(GOLDEN), "--analyse", "--seat", "4"])
    assert result.exit_code == 2 and "no seat 4" in result.output
    result = runner.invoke(app, ["replay", str(GOLDEN), "--analyse", "--spec", "greedy"])
    assert result.exit_code == 2 and "search bot" in result.output
