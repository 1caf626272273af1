"""The ``sakura`` command line, run in-process through Typer's test runner."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from sakura.cli.main import app
from sakura.engine.games.sakura import Position

runner = CliRunner()


def test_simulate_prints_a_summary_and_saves_records(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        ["simulate", "--players", "3", "--games", "20", "--seed", "4", "--records", str(tmp_path), "--quiet"],
    )
    assert result.exit_code == 0, result.output
    assert "20 random games, 3 players" in result.output
    assert "rounds per game" in result.output and "bumps per game" in result.output
    assert "wins by seat" in result.output
    assert len(list(tmp_path.glob("game-*.json"))) == 20


def test_simulate_is_reproducible() -> None:
    args = ["simulate", "-p", "2", "--variant", "tactical", "-n", "10", "--seed", "9", "-q"]
    assert runner.invoke(app, args).output == runner.invoke(app, args).output


def test_simulate_rejects_an_impossible_table() -> None:
    result = runner.invoke(app, ["simulate", "--players", "7", "-q"])
    assert result.exit_code == 2
    assert "2 to 6 players" in result.output


def test_replay_prints_every_position_and_they_parse(tmp_path: Path) -> None:
    runner.invoke(app, ["simulate", "-p", "4", "-n", "1", "--seed", "3", "--records", str(tmp_path), "-q"])
    record = tmp_path / "game-3.json"
    result = runner.invoke(app, ["replay", str(record), "--positions"])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stdout.splitlines() if line.startswith("4 ")]
    assert len(lines) > 20
    positions = [Position.from_text(line) for line in lines]
    assert positions[0].emperor == 4 and positions[0].painters == (0, 0, 0, 0)
    assert positions[-1].scored == 3
    assert "identical to the record" in result.output


def test_replay_fails_loudly_where_a_record_diverges(tmp_path: Path) -> None:
    runner.invoke(app, ["simulate", "-p", "3", "-n", "1", "--seed", "1", "--records", str(tmp_path), "-q"])
    path = tmp_path / "game-1.json"
    data = json.loads(path.read_text())
    data["moves"][5]["events"] = []
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert "diverges at move 6" in result.output


def test_replay_rejects_a_file_that_is_not_a_record(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{ nope")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert "a record is JSON" in result.output


def test_show_draws_the_garden() -> None:
    result = runner.invoke(app, ["show", "4 e14 s1 p11,9,0,0 t5,7,5,3 q34 r5"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    garden = next(line for line in lines if line.startswith("garden"))
    emperor = next(line for line in lines if line.startswith("emperor"))
    painters = next(line for line in lines if line.startswith("painters"))
    offset = len("garden    ")
    assert garden[offset:] == "G..BT......s...B.....S..B...B....S"
    assert emperor.index("E") - offset == 14
    assert painters.index("1") - offset == 11 and painters.index("2") - offset == 9
    assert "at gate   3, 4" in result.output
    assert "1: 5   2: 7   3: 5   4: 3" in result.output


def test_show_accepts_a_json_position_file(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(Position.from_text("6 e20 s1 p3,0,12,0,7,9 t5,5,5,5,5,5 q24").to_json()))
    result = runner.invoke(app, ["show", str(path)])
    assert result.exit_code == 0, result.output
    assert "G..BBBT" in result.output


def test_show_rejects_an_impossible_position_clearly() -> None:
    result = runner.invoke(app, ["show", "4 e14 s1 p11,11,0,0 t5,7,5,3 q34"])
    assert result.exit_code == 2
    assert "two painters share a space" in result.output


def test_replay_counts_seats_from_1(tmp_path: Path) -> None:
    """The summary a person reads names seats from 1 (the record's JSON keeps indexes from 0),
    and so does a diverging move's message."""
    runner.invoke(app, ["simulate", "-p", "3", "-n", "1", "--seed", "2", "--records", str(tmp_path), "-q"])
    path = tmp_path / "game-2.json"
    data = json.loads(path.read_text())
    (winner,) = data["outcome"]["winners"]
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert f"seat {winner + 1} won" in result.output and '"winners"' not in result.output
    first = data["moves"][0]
    first["action"] = "play 99"
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert (
        f"player {first['player'] + 1} 'play 99': card 99 is not in player {first['player'] + 1}'s hand"
        in " ".join(result.output.split())
    )
