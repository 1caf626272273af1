"""Which implementation steps a batched env: the compiled kernel where it is built, else numpy.

``sakura.rl.batch.kernel`` is a Cython module with no ``.py`` twin (``kernel.pyx``):
``setup.py`` compiles it beside the engine's hot modules when the machine has a C compiler.
Where it is missing, older than its source (an edited checkout not rebuilt), or
``SAKURA_PURE=1`` asks for the pure build, the numpy rules run instead, with the same results
(``tests/rl/test_batch_differential.py`` holds both to the reference engine).

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

KERNEL = "sakura.rl.batch.kernel"
BACKENDS = ("auto", "numpy", "compiled")


@cache
def _load() -> tuple[ModuleType | None, str]:
    """The kernel module and ``""``, or ``None`` and why it cannot run."""
    if pure_requested():
        return None, f"{PURE_VARIABLE}=1 asks for the pure build"
    spec = importlib.util.find_spec(KERNEL)
    if spec is None or not isinstance(spec.loader, importlib.machinery.ExtensionFileLoader):
        return None, "the compiled kernel is not built (no C compiler at install, or SAKURA_BUILD_PURE=1)"
    assert spec.origin is not None
    binary = Path(spec.origin)
    source = binary.with_name("kernel.pyx")
    if source.is_file() and source.stat().st_mtime > binary.stat().st_mtime:
        return (
            None,
            "the compiled kernel is older than kernel.pyx (rebuild: python setup.py build_ext --inplace)",
        )
    return importlib.import_module(KERNEL), ""


def kernel() -> ModuleType | None:
    """The compiled kernel module, or ``None`` where it cannot run (:func:`unavailable` says why)."""
    return _load()[0]


def unavailable() -> str:
    """Why the compiled kernel does not run here (``""`` when it does)."""
    return _load()[1]


def resolve(backend: str) -> str:
    """``"numpy"`` or ``"compiled"`` for a requested ``backend`` (``auto``: compiled where it
    runs). Asking for ``compiled`` where it cannot run is an error that says why."""
    if backend not in BACKENDS:
        raise ValueError(f"backend= must be one of {BACKENDS}, not {backend!r}")
    if backend == "numpy":
        return "numpy"
    if kernel() is not None:
        return "compiled"
    if backend == "compiled":
        raise ValueError(f"backend='compiled' is not available: {unavailable()}")
    return "numpy"
