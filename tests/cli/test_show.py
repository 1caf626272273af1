"""``sakura show``: what it draws (a Sakura position, a saved state of either game) and, when it
cannot, an error that says what was wrong (issue 27: a missing file was told "the first field is
3-6 or 2c/2t", a record "unknown position keys")."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from sakura.cli.main import app
from sakura.engine import make_game
from sakura.engine.games.cards import CardsGame
from sakura.engine.games.sakura import SakuraGame
from sakura.records import random_playout

runner = CliRunner()


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_a_missing_file_is_said_to_be_missing(tmp_path: Path) -> None:
    for name in ("nonexist.json", str(tmp_path / "positions" / "p.json")):
        result = runner.invoke(app, ["show", name])
        assert result.exit_code == 2, result.output
        assert f"error: no such file: {name}" in _flat(result.output)


def test_a_record_is_named_and_replay_suggested(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(random_playout(make_game("sakura", {"players": 3}), seed=2).dumps(), encoding="utf-8")
    result = runner.invoke(app, ["show", str(path)])
    assert result.exit_code == 2, result.output
    words = _flat(result.output)
    assert f"{path} is a game record, not a position" in words
    assert f"sakura replay {path} --board" in words


def test_a_saved_card_game_is_drawn(tmp_path: Path) -> None:
    state = CardsGame().new_initial_state(seed=3)
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(state.to_json()), encoding="utf-8")
    result = runner.invoke(app, ["show", str(path)])
    assert result.exit_code == 0, result.output
    assert "round 1 of 3, player" in result.output
    assert f"hand of player 1: {' '.join(state.hands[0])}" in result.output


def test_the_card_games_text_form_is_refused_clearly() -> None:
    text = CardsGame().new_initial_state(seed=3).text()
    result = runner.invoke(app, ["show", text])
    assert result.exit_code == 2, result.output
    assert "the card game's one-line text form is not read back" in _flat(result.output)


def test_a_saved_sakura_state_is_drawn(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.write_text(json.dumps(SakuraGame(4).new_initial_state(seed=5).to_json()), encoding="utf-8")
    result = runner.invoke(app, ["show", str(path)])
    assert result.exit_code == 0, result.output
    assert "Sakura: 4 players; round 1" in result.output


def test_a_file_that_is_not_json_says_so(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text("4 e14 s1", encoding="utf-8")
    result = runner.invoke(app, ["show", str(path)])
    assert result.exit_code == 2, result.output
    assert f"{path} is not a JSON file" in _flat(result.output)
