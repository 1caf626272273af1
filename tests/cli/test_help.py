"""Every command's ``--help`` reads as plain text: no ``<bool>`` after each flag (a switch takes
no value), no raw reStructuredText backticks from a docstring, and no bracket eaten as markup
(issue 27: the Ray hint printed ``pip install 'sakura'``)."""

from __future__ import annotations

from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from sakura.cli.main import app

runner = CliRunner()


def _commands(command: Any, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The path of every command and group under ``command``, itself first (Typer's groups are
    its own vendored Click's: read by their ``commands``)."""
    paths = [path]
    for name, sub in getattr(command, "commands", {}).items():
        paths += _commands(sub, (*path, name))
    return paths


COMMANDS = _commands(typer.main.get_command(app))


def test_every_command_is_covered() -> None:
    names = {" ".join(p) for p in COMMANDS}
    assert {
        "",
        "simulate",
        "replay",
        "show",
        "tournament",
        "analyze",
        "compare",
        "serve",
        "play",
        "db",
        "db current",
        "db upgrade",
        "admin",
        "admin grant",
        "admin revoke",
    } <= names


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "sakura")
def test_help_is_plain_text(path: tuple[str, ...]) -> None:
    result = runner.invoke(app, [*path, "--help"])
    assert result.exit_code == 0, result.output
    assert "<bool>" not in result.output
    assert "``" not in result.output
    assert "[red]" not in result.output and "[/]" not in result.output


@pytest.mark.parametrize("command", ["tournament", "analyze"])
def test_the_ray_hint_keeps_its_brackets(command: str) -> None:
    result = runner.invoke(app, [command, "--help"])
    assert "pip install 'sakura[cluster]'" in " ".join(result.output.split())
