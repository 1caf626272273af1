"""The house rules checked by machine: the engine's layering, mypy --strict and ruff."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "src" / "sakura" / "engine"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", sorted(ENGINE.rglob("*.py")), ids=lambda p: str(p.relative_to(ENGINE)))
def test_the_engine_imports_only_the_standard_library_and_itself(path: Path) -> None:
    """Layers point inward: the rules engine imports nothing of the rest, stdlib only."""
    for name in _imports(path):
        top = name.split(".")[0]
        if top == "sakura":
            assert name.startswith("sakura.engine"), f"{path.name} imports {name}"
        else:
            assert top in sys.stdlib_module_names, f"{path.name} imports {name} (not stdlib)"


# What each outer layer may import of the package: the engine's public API and the layers it
# builds on, never a sibling's insides (the command line is the one place that wires them).
LAYERS = {
    "bots": {"engine"},
    "records": {"engine"},
    "tournament": {"engine", "bots", "records"},
    "server": {"engine", "bots", "records"},
    "tui": {"engine", "bots", "records"},
    "rl": {"engine", "bots"},
}


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_outer_layers_depend_on_the_engine_never_on_each_other(layer: str) -> None:
    allowed = LAYERS[layer] | {layer}
    for path in (ROOT / "src" / "sakura" / layer).rglob("*.py"):
        for name in _imports(path):
            parts = name.split(".")
            if parts[0] == "sakura" and len(parts) > 1:
                assert parts[1] in allowed, f"{path.relative_to(ROOT)} imports {name}"
                if parts[1] != layer and parts[1] != "engine":
                    assert len(parts) == 2, f"{path.relative_to(ROOT)} reaches into {name}"


def test_the_engine_uses_no_global_random() -> None:
    """Randomness is explicit and seeded: no module-level ``random`` anywhere in the engine."""
    for path in ENGINE.rglob("*.py"):
        assert "random" not in {n.split(".")[0] for n in _imports(path)}, path.name


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True,
                          check=False)


def test_mypy_passes_strict_on_the_engine() -> None:
    result = _run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_is_clean() -> None:
    result = _run("ruff", "check", "src", "tests", "benchmarks", "scripts")
    assert result.returncode == 0, result.stdout + result.stderr
