"""``sakura simulate --game sakura-cards`` and ``sakura replay --board`` of a card-game record."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from sakura.cli.main import app
from sakura.records import GameRecord, replay

runner = CliRunner()


def test_simulate_the_card_game_and_replay_a_record_with_its_board(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        ["simulate", "--game", "sakura-cards", "-n", "12", "--seed", "5", "--records", str(tmp_path), "-q"],
    )
    assert result.exit_code == 0, result.output
    assert "12 random games of the card game" in result.output and "discards per game" in result.output
    shares = [float(x) for x in re.findall(r"│ [12]\s+│\s+[\d.]+ │\s+([\d.]+)% │", result.output)]
    assert len(shares) == 2 and abs(sum(shares) - 100) < 0.2
    record_path = tmp_path / "game-9.json"
    final = replay(GameRecord.loads(record_path.read_text()))
    board = runner.invoke(app, ["replay", str(record_path), "--board"])
    assert board.exit_code == 0, board.output
    assert "round 3 of 3, the end" in board.output
    view = final.view(None)
    for seat in range(2):
        assert f"player {seat + 1}: total {view.totals[seat]}" in board.output
        for i, area in enumerate(("garden", "palace", "temple")):
            cards = " ".join(view.areas[seat][i]) or "-"
            assert re.search(rf"{area}\s+{re.escape(cards)}\s+{view.area_scores[seat][i]}\b", board.output)
    again = ["simulate", "--game", "sakura-cards", "-n", "12", "--seed", "5", "-q"]
    assert runner.invoke(app, again).output == runner.invoke(app, again).output


def test_simulate_refuses_what_the_card_game_does_not_have() -> None:
    for extra in (["-p", "3"], ["--variant", "court"]):
        result = runner.invoke(app, ["simulate", "--game", "sakura-cards", "-n", "1", "-q", *extra])
        assert result.exit_code == 2 and "two players" in result.output
    result = runner.invoke(app, ["simulate", "--game", "go", "-q"])
    assert result.exit_code == 2 and "unknown game" in result.output
