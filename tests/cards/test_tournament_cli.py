"""``sakura tournament --game sakura-cards`` plays the card game with the usual schedule."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from sakura.cli.main import app

runner = CliRunner()


def test_a_tournament_of_the_card_game(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        [
            "tournament",
            "greedy",
            "random",
            "--game",
            "sakura-cards",
            "-n",
            "4",
            "-j",
            "1",
            "-q",
            "--out",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "tournament.json").read_text())
    assert data["game"] == "sakura-cards" and data["games"] == 4 and data["players"] == 2


def test_sakura_options_are_refused_for_the_card_game(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        [
            "tournament",
            "greedy",
            "random",
            "--game",
            "sakura-cards",
            "--variant",
            "court",
            "-q",
            "--out",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 2 and "Sakura's options" in result.output
    result = runner.invoke(
        app,
        ["tournament", "greedy", "random", "--game", "sakura-cards", "-p", "3", "-q", "--out", str(tmp_path)],
    )
    assert result.exit_code == 2 and "two players" in result.output
