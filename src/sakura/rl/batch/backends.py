"""Which implementation steps a batched env: the compiled kernel where it is built, else numpy.

The kernels (``sakura.rl.batch.kernel`` for Sakura, ``sakura.rl.batch.cards_kernel`` for the
card game) are Cython modules with no ``.py`` twin (``.pyx``, sharing ``splitmix.pxi``):
``setup.py`` compiles them beside the engine's hot modules when the machine has a C compiler.
Where one is missing, older than its source (an edited checkout not rebuilt), or
``SAKURA_PURE=1`` asks for the pure build, the numpy rules run instead, with the same results
(the differential tests hold both to the reference engine).

>>> resolve("numpy")
'numpy'
>>> resolve("auto") in ("numpy", "compiled")
True
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
from functools import cache
from pathlib import Path
from types import ModuleType

from sakura._build import PURE_VARIABLE, pure_requested

KERNELS = {"sakura": "sakura.rl.batch.kernel", "sakura-cards": "sakura.rl.batch.cards_kernel"}
BACKENDS = ("auto", "numpy", "compiled")


@cache
def _load(game: str) -> tuple[ModuleType | None, str]:
    """The kernel module of ``game`` and ``""``, or ``None`` and why it cannot run."""
    if pure_requested():
        return None, f"{PURE_VARIABLE}=1 asks for the pure build"
    name = KERNELS[game]
    spec = importlib.util.find_spec(name)
    if spec is None or not isinstance(spec.loader, importlib.machinery.ExtensionFileLoader):
        return None, f"{name} is not built (no C compiler at install, or SAKURA_BUILD_PURE=1)"
    assert spec.origin is not None
    binary = Path(spec.origin)
    sources = (binary.with_name(name.rpartition(".")[2] + ".pyx"), binary.with_name("splitmix.pxi"))
    built = binary.stat().st_mtime
    if any(source.is_file() and source.stat().st_mtime > built for source in sources):
        return None, f"{name} is older than its source (rebuild: python setup.py build_ext --inplace)"
    return importlib.import_module(name), ""


def kernel(game: str = "sakura") -> ModuleType | None:
    """The compiled kernel module of ``game`` (``sakura`` or ``sakura-cards``), or ``None``
    where it cannot run (:func:`unavailable` says why)."""
    return _load(game)[0]


def unavailable(game: str = "sakura") -> str:
    """Why the compiled kernel of ``game`` does not run here (``""`` when it does)."""
    return _load(game)[1]


def resolve(backend: str, game: str = "sakura") -> str:
    """``"numpy"`` or ``"compiled"`` for a requested ``backend`` (``auto``: compiled where it
    runs). Asking for ``compiled`` where it cannot run is an error that says why."""
    if backend not in BACKENDS:
        raise ValueError(f"backend= must be one of {BACKENDS}, not {backend!r}")
    if backend == "numpy":
        return "numpy"
    if kernel(game) is not None:
        return "compiled"
    if backend == "compiled":
        raise ValueError(f"backend='compiled' is not available: {unavailable(game)}")
    return "numpy"
