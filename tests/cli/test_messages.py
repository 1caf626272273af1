"""Messages are printed as text, never as Rich markup: brackets in a file name, a hint or an
exception's words come out as they are (issue 27: the Ray hint lost ``[cluster]``; a path with
``[/x]`` in it crashed the message that named it)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sakura.cli.main import app
from sakura.engine.games.sakura import default_deck

runner = CliRunner()


def _flat(text: str) -> str:
    """The output with its line breaks and runs of spaces made single spaces."""
    return " ".join(text.split())


@pytest.mark.parametrize("command", [["tournament", "greedy", "random"], ["analyze"]])
def test_the_ray_hint_names_the_extra(
    command: list[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # ``import ray`` fails, as without the extra
    result = runner.invoke(app, [*command, "--ray", "-n", "2", "--out", str(tmp_path), "-q"])
    assert result.exit_code == 2, result.output
    assert "pip install 'sakura[cluster]'" in _flat(result.output)
    assert not any(tmp_path.iterdir())


def test_a_path_with_a_closing_tag_is_named_not_read_as_markup(tmp_path: Path) -> None:
    folder = tmp_path / "a["
    folder.mkdir()
    path = folder / "x].json"  # the path reads ...a[/x].json
    path.write_text("{ nope", encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2
    assert f"error: {path}:" in _flat(result.output)


def test_a_deck_named_like_markup_keeps_its_name(tmp_path: Path) -> None:
    deck = tmp_path / "[bold]deck.txt"
    deck.write_text(default_deck().text(), encoding="utf-8")
    result = runner.invoke(app, ["simulate", "-p", "2", "-n", "2", "--deck", str(deck), "-q"])
    assert result.exit_code == 0, result.output
    assert "deck [bold]deck.txt" in _flat(result.output)
    bad = tmp_path / "[red]bad.txt"
    bad.write_text("this is no deck\n", encoding="utf-8")
    result = runner.invoke(app, ["simulate", "-p", "2", "-n", "2", "--deck", str(bad), "-q"])
    assert result.exit_code == 2, result.output
    assert "[red]bad.txt" in result.output
