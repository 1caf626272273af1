"""The server's shape (issue 29): small modules, and no import cycle between them at run time
(an import made only for annotations, under ``TYPE_CHECKING``, is not one)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.import_graph import cycles, import_graph, modules_of

SERVER = Path(__file__).resolve().parents[2] / "src" / "sakura" / "server"
MOST_LINES = 450
MODULES = modules_of(SERVER, "sakura.server")


@pytest.mark.parametrize("path", sorted(SERVER.rglob("*.py")), ids=lambda p: str(p.relative_to(SERVER)))
def test_no_server_module_is_long(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MOST_LINES, f"{path.name}: {lines} lines; split it by what it holds"


def test_no_import_cycle_between_server_modules() -> None:
    assert cycles(import_graph(MODULES)) == []


def test_the_cycle_check_sees_a_cycle() -> None:
    """The check can fail: two modules importing each other are one cycle."""
    assert cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
