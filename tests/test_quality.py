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


# The package's build switch (``sakura._build``: SAKURA_PURE, which build runs), no layer's
# insides: a layer with compiled code of its own (rl's batched kernels) asks it too.
BUILD = {"_build"}


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_outer_layers_depend_on_the_engine_never_on_each_other(layer: str) -> None:
    allowed = LAYERS[layer] | {layer} | BUILD
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


# The engine's modules import one way, bottom to top: nothing imports a module of its own layer
# or of a layer above it, at module level or inside a function (imports under ``if
# TYPE_CHECKING:`` are for annotations only and may point anywhere). In each game: values and
# data, then the state, then what is made from a state (previews, views, loading), then
# sampling, then the game, the factory that wires them.
_BASE = [["errors", "rng"], ["protocol"]]
_GAME_LAYERS = {
    "sakura": [
        ["actions", "cards", "decisions", "events", "garden"],
        ["position", "score_sheet"],
        ["state"],
        ["preview"],
        ["serialize", "view"],
        ["sample"],
        ["game"],
        ["__init__"],
    ],
    "cards": [
        ["deck"],
        ["actions", "events"],
        ["score_sheet", "state"],
        ["serialize", "view"],
        ["sample"],
        ["game"],
        ["__init__"],
    ],
}
_TOP = [["games.__init__"], ["registry"], ["__init__"]]


def _engine_ranks() -> dict[str, int]:
    """Each engine module's layer (``sakura.engine.games.sakura.state`` -> its rank)."""
    ranks: dict[str, int] = {}
    layers = [*_BASE]
    width = max(len(v) for v in _GAME_LAYERS.values())
    for i in range(width):
        layers.append(
            [f"games.{game}.{m}" for game, ls in _GAME_LAYERS.items() if i < len(ls) for m in ls[i]]
        )
    layers += _TOP
    for rank, names in enumerate(layers):
        for name in names:
            module = "sakura.engine." + name.removesuffix(".__init__").removesuffix("__init__")
            ranks[module.rstrip(".")] = rank
    return ranks


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT / "src").with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _runtime_imports(path: Path, known: set[str], module: str | None = None) -> list[tuple[int, str]]:
    """``(line, module)`` for every engine module ``path`` imports when it runs, wherever the
    import stands, except under ``if TYPE_CHECKING:``. ``from package import module`` counts
    as importing the module, ``from package import name`` as importing the package.
    ``module`` is the module's dotted name (by default, from where ``path`` is)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module = module or _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names if a.name in known]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package, one level up per extra dot
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}".strip(".")
            for alias in node.names:
                target = f"{base}.{alias.name}"
                if target in known:
                    out.append((node.lineno, target))
                elif base in known:
                    out.append((node.lineno, base))
    return out


def test_every_engine_module_has_a_place_in_the_import_order() -> None:
    """A new engine module must be given its layer here (so the next test covers it)."""
    modules = {_module_name(p) for p in ENGINE.rglob("*.py")}
    assert modules == set(_engine_ranks()), "place these in _GAME_LAYERS: " + str(
        sorted(modules ^ set(_engine_ranks()))
    )


@pytest.mark.parametrize("path", sorted(ENGINE.rglob("*.py")), ids=lambda p: str(p.relative_to(ENGINE)))
def test_engine_modules_import_only_modules_below_them(path: Path) -> None:
    """One direction, so no import cycle can form and no import hides inside a function to
    break one (a compiler of the engine's modules needs that)."""
    ranks = _engine_ranks()
    me = _module_name(path)
    for line, target in _runtime_imports(path, set(ranks)):
        assert ranks[target] < ranks[me], (
            f"{path.relative_to(ROOT)}:{line} imports {target}, which is not below it "
            f"(layer {ranks[target]} >= {ranks[me]})"
        )


def test_the_import_order_check_sees_imports_inside_functions(tmp_path: Path) -> None:
    """The check above can fail: a local import of a module above, as the engine once had,
    is found; one under ``if TYPE_CHECKING:`` is not."""
    fake = ENGINE / "games" / "sakura" / "state.py"
    copy = tmp_path / "state.py"
    copy.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from sakura.engine.games.sakura.game import SakuraGame\n"
        "def view(self):\n    from sakura.engine.games.sakura.view import make_view\n"
        "    from sakura.engine.games.sakura import events\n",
        encoding="utf-8",
    )
    found = _runtime_imports(copy, set(_engine_ranks()), _module_name(fake))
    assert [m for _, m in found] == ["sakura.engine.games.sakura.view", "sakura.engine.games.sakura.events"]
    ranks = _engine_ranks()
    assert ranks["sakura.engine.games.sakura.view"] > ranks[_module_name(fake)]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_mypy_passes_strict_on_the_engine() -> None:
    result = _run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_engine_has_no_local_imports() -> None:
    """The project lets outer layers defer an import into a function (optional extras); the
    engine needs none, since its modules import one way."""
    result = _run("ruff", "check", "--select", "PLC0415", "src/sakura/engine")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_is_clean() -> None:
    result = _run("ruff", "check", "src", "tests", "benchmarks", "scripts")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_leaves_every_file_as_it_is() -> None:
    """One layout for every file (``ruff format``, as pre-commit runs it): a diff shows what
    changed, never how someone's editor wraps lines."""
    result = _run("ruff", "format", "--check", ".")
    assert result.returncode == 0, result.stdout + result.stderr
