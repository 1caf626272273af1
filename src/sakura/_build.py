"""Which build of the engine is running: compiled (Cython, from the same ``.py`` source) or pure.

The engine's hot modules are compiled by ``setup.py`` when the installing machine has a C
compiler; the ``.py`` files stay the reference and run unchanged where there is none. An
extension module sits beside its ``.py`` file, and Python prefers it, so the only switch needed
is the other way: ``SAKURA_PURE=1`` in the environment puts :class:`PureFinder` in front of the
import system, and every ``sakura.*`` module that has a compiled twin loads from its ``.py``
instead. It is read once, when :mod:`sakura` is first imported (the engine itself reads no
environment: it is stdlib only and does no I/O).

>>> info = build_info()
>>> info.kind in ("compiled", "pure")
True
>>> info.kind == "pure" or bool(info.modules)
True
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

PURE_VARIABLE = "SAKURA_PURE"

# The modules setup.py compiles (it reads this list from this file's text).
HOT_MODULES = (
    "sakura.engine.rng",
    "sakura.engine.protocol",
    "sakura.engine.games.sakura.actions",
    "sakura.engine.games.sakura.events",
    "sakura.engine.games.sakura.position",
    "sakura.engine.games.sakura.state",
    "sakura.engine.games.sakura.view",
    "sakura.engine.games.sakura.sample",
    "sakura.engine.games.sakura.preview",
    "sakura.engine.games.cards.actions",
    "sakura.engine.games.cards.events",
    "sakura.engine.games.cards.state",
    "sakura.engine.games.cards.view",
    "sakura.engine.games.cards.sample",
    "sakura.bots.mcts",
    "sakura.bots.greedy",
    "sakura.bots.sakura_heuristic",
    "sakura.bots.cards_heuristic",
    "sakura.bots.sakura_value",
    "sakura.bots.sakura_reading",
    "sakura.rl.core",
    "sakura.rl.encoding",
    "sakura.rl.sakura_encoding",
    "sakura.rl.cards_encoding",
    "sakura.rl.pettingzoo_env",
)

# Modules written in Cython itself (a ``.pyx``, no ``.py`` twin): they exist only compiled, and
# the code that uses them falls back to a pure implementation of its own where they are
# missing, stale or ``SAKURA_PURE`` is set (``sakura.rl.batch.backends``). setup.py compiles
# them after the hot modules.
KERNELS = ("sakura.rl.batch.kernel", "sakura.rl.batch.cards_kernel")


class PureFinder(importlib.abc.MetaPathFinder):
    """Finds ``sakura.*`` modules as the path finder does, but returns the ``.py`` source
    where the path finder would return a compiled extension module: always when
    ``everything`` (``SAKURA_PURE=1``), otherwise only where the compiled module is older than
    its ``.py`` or ``.pxd`` (an edited source in a developer's checkout must never run as the
    stale binary of its previous text; ``pip install -e .`` again recompiles it)."""

    def __init__(self, *, everything: bool) -> None:
        self.everything = everything
        self.stale: list[str] = []

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("sakura."):
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is None or not isinstance(spec.loader, importlib.machinery.ExtensionFileLoader):
            return None
        assert spec.origin is not None
        binary = Path(spec.origin)
        source = binary.with_name(fullname.rpartition(".")[2] + ".py")
        if not source.is_file():
            return None
        if not self.everything:
            if _current(binary, source, set()):
                return None
            self.stale.append(fullname)
        return importlib.util.spec_from_file_location(fullname, source)


def _current(binary: Path, source: Path, seen: set[Path]) -> bool:
    """Whether the compiled ``binary`` of ``source`` may run: newer than its ``.py`` and its
    ``.pxd``, and every module its ``.pxd`` cimports runs compiled too (a compiled module
    reaches into the extension types it cimports, so it cannot run beside their source)."""
    built = binary.stat().st_mtime
    types = source.with_suffix(".pxd")
    if source.stat().st_mtime > built or (types.is_file() and types.stat().st_mtime > built):
        return False
    if not types.is_file() or source in seen:
        return True
    seen.add(source)
    for line in types.read_text("utf-8").splitlines():
        words = line.split()
        cimported = len(words) >= 4 and words[0] == "from" and words[2] == "cimport"
        if cimported and words[1].startswith("sakura."):
            dep = _SOURCES.joinpath(*words[1].split(".")).with_suffix(".py")
            suffixes = importlib.machinery.EXTENSION_SUFFIXES
            built_dep = next((b for b in (dep.with_suffix(x) for x in suffixes) if b.is_file()), None)
            if built_dep is None or not _current(built_dep, dep, seen):
                return False
    return True


_SOURCES = Path(__file__).parent.parent  # the folder holding the sakura package


def pure_requested() -> bool:
    """True when ``SAKURA_PURE`` asks for the pure build (``1``, ``true``, ``yes``)."""
    return os.environ.get(PURE_VARIABLE, "").strip().lower() in ("1", "true", "yes")


def install_pure_finder(*, everything: bool) -> PureFinder:
    """Put a :class:`PureFinder` first on ``sys.meta_path`` (once)."""
    for finder in sys.meta_path:
        if isinstance(finder, PureFinder):
            finder.everything = finder.everything or everything
            return finder
    finder = PureFinder(everything=everything)
    sys.meta_path.insert(0, finder)
    return finder


def _finder() -> PureFinder | None:
    return next((f for f in sys.meta_path if isinstance(f, PureFinder)), None)


@dataclass(frozen=True)
class BuildInfo:
    """``kind`` is ``"compiled"`` when any hot module runs compiled, else ``"pure"``;
    ``modules`` are the compiled ones; ``forced_pure`` says ``SAKURA_PURE`` chose it."""

    kind: str
    modules: tuple[str, ...]
    missing: tuple[str, ...]
    forced_pure: bool
    stale: tuple[str, ...] = ()

    def describe(self) -> str:
        if self.kind == "compiled":
            text = f"compiled engine (Cython, {len(self.modules)} of {len(HOT_MODULES)} hot modules)"
            if self.missing:
                text += f"; pure: {', '.join(self.missing)}"
            if self.stale:
                text += " (older than their source, so run from it: reinstall to recompile)"
            return text
        if self.forced_pure:
            return f"pure Python engine ({PURE_VARIABLE}=1)"
        return "pure Python engine (no compiled modules: installed without a C compiler)"


def _compiled(name: str) -> bool | None:
    """True if ``name`` runs compiled, False if from source, None if it cannot be imported
    (an optional extra such as numpy for the RL encodings is missing)."""
    try:
        module = importlib.import_module(name)
    except ImportError:
        return None
    return isinstance(getattr(module, "__loader__", None), importlib.machinery.ExtensionFileLoader)


def build_info() -> BuildInfo:
    """Inspect the imported hot modules (importing them if needed)."""
    states = {name: _compiled(name) for name in HOT_MODULES}
    compiled = tuple(name for name, state in states.items() if state)
    missing = tuple(name for name, state in states.items() if state is False)
    finder = _finder()
    stale = tuple(finder.stale) if finder is not None else ()
    return BuildInfo(
        "compiled" if compiled else "pure", compiled, missing if compiled else (), pure_requested(), stale
    )
