"""The terminal app's shape (issue 29, deliverable 4): screens are given a play session, not
mixed with a flow. Read with ``ast``, nothing imported to look: the app is imported by no
module of the package at run time (it is where the screens are put together), no class
mixes in another class of the app, no import cycle (annotation-only imports aside), no
screen cancels another's start with ``prevent_default``, and a game screen's state is an
enum, never a string. Each check is also run on a small wrong example, so it can fail."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest
from tests.import_graph import cycles, import_graph, modules_of

from sakura.tui.cards_screens import CardsScreen
from sakura.tui.local_play import HotSeatPlay, LocalPlay
from sakura.tui.play import Display, Play
from sakura.tui.remote_play import RemotePlay, WatchPlay
from sakura.tui.sakura_screens import SakuraScreen

TUI = Path(__file__).resolve().parents[2] / "src" / "sakura" / "tui"
MODULES = modules_of(TUI, "sakura.tui")
APP = "sakura.tui.app"
# the package's own entry: ``from sakura.tui import SakuraApp`` (what ``sakura play`` runs)
ENTRY = "sakura.tui"


def _trees() -> dict[str, ast.Module]:
    return {name: ast.parse(path.read_text(encoding="utf-8")) for name, path in MODULES.items()}


def _importers_of_app(graph: dict[str, set[str]]) -> set[str]:
    return {m for m, imports in graph.items() if APP in imports and m != ENTRY}


def test_no_module_imports_the_app_at_run_time() -> None:
    assert _importers_of_app(import_graph(MODULES)) == set()


def test_the_app_check_sees_a_screen_importing_the_app(tmp_path: Path) -> None:
    """A screen that reaches for the app in a function (the old ``sakura_app``) is found."""
    package = tmp_path / "tui"
    package.mkdir()
    (package / "app.py").write_text("X = 1\n")
    (package / "screen.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from sakura.tui.app import X\n"
        "def f():\n    from sakura.tui.app import X\n    return X\n"
    )
    (package / "typed.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from sakura.tui.app import X\n"
    )
    assert _importers_of_app(import_graph(modules_of(package, "sakura.tui"))) == {"sakura.tui.screen"}


def test_no_import_cycle_between_the_apps_modules() -> None:
    assert cycles(import_graph(MODULES)) == []


def _own_classes(trees: dict[str, ast.Module]) -> set[str]:
    return {node.name for tree in trees.values() for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}


def _mixed(trees: dict[str, ast.Module]) -> list[str]:
    """Classes that inherit from two or more of the app's own classes (a mixin over a screen)."""
    own = _own_classes(trees)
    out = []
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases = [ast.unparse(b).split("[")[0].rpartition(".")[2] for b in node.bases]
                if sum(b in own for b in bases) > 1:
                    out.append(node.name)
    return out


def test_no_class_mixes_in_another_of_the_app() -> None:
    assert _mixed(_trees()) == []


def test_the_mixin_check_sees_a_flow_mixed_into_a_screen() -> None:
    code = "class Screen: ...\nclass Flow(Screen): ...\nclass Game(Screen): ...\n"
    code += "class Both(Flow[int], Game): ...\n"
    assert _mixed({"m": ast.parse(code)}) == ["Both"]


def _prevented_outside_keys(trees: dict[str, ast.Module]) -> list[str]:
    """Handlers other than a key's that call ``prevent_default`` (one screen's default
    cancelled by another class's handler: the old ``RemoteFlow.on_mount``)."""
    out = []
    for name, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name != "on_key":
                calls = [n for n in ast.walk(node) if isinstance(n, ast.Call)]
                if any(ast.unparse(c.func).endswith("prevent_default") for c in calls):
                    out.append(f"{name}.{node.name}")
    return out


def test_only_a_key_handler_prevents_a_default() -> None:
    assert _prevented_outside_keys(_trees()) == []


def test_the_default_check_sees_a_cancelled_mount() -> None:
    code = "class A:\n    def on_mount(self, event):\n        event.prevent_default()\n"
    assert _prevented_outside_keys({"m": ast.parse(code)}) == ["m.on_mount"]


def _string_modes(trees: dict[str, ast.Module]) -> list[str]:
    """Assignments of a string to ``self.mode`` (alone or in a tuple): a state machine of
    strings, where the screens use their enums (``Flow``, ``Pick``, ``Step``)."""
    out = []
    for name, tree in trees.items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Assign):
                continue
            for target in node.targets:
                pairs = (
                    zip(target.elts, node.value.elts, strict=False)
                    if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple)
                    else [(target, node.value)]
                )
                for left, right in pairs:
                    if ast.unparse(left) == "self.mode" and isinstance(right, ast.Constant):
                        out.append(f"{name}:{node.lineno}")
    return out


def test_a_screens_mode_is_an_enum_never_a_string() -> None:
    assert _string_modes(_trees()) == []


def test_the_mode_check_sees_a_string() -> None:
    code = "class A:\n    def f(self):\n        self.mode, self.actor = 'over', None\n"
    assert _string_modes({"m": ast.parse(code)}) == ["m:3"]


def _members(protocol: type) -> set[str]:
    return {n for n, _ in inspect.getmembers(protocol) if not n.startswith("_")} - set(dir(object))


@pytest.mark.parametrize("kind", [LocalPlay, HotSeatPlay, RemotePlay, WatchPlay])
def test_every_play_session_has_the_whole_protocol(kind: type) -> None:
    """Local, hot-seat, remote and watch: one protocol, one class each, nothing missing."""
    missing = {name for name in _members(Play) if not hasattr(kind, name)}
    assert missing == set()


def test_every_game_screen_is_a_display() -> None:

    for screen in (SakuraScreen, CardsScreen):
        missing = {
            name for name in _members(Display) - {"settings", "names", "busy"} if not hasattr(screen, name)
        }
        assert missing == set(), screen
