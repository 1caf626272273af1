"""Compiles the engine's hot modules with Cython from their own ``.py`` source, when it can.

Everything else about the package is declared in ``pyproject.toml``. The ``.pxd`` file beside a
module gives the compiler its types; the ``.py`` stays the reference and runs unchanged. Without
a C compiler (or with ``SAKURA_BUILD_PURE=1``) the install goes on as a pure-Python package, and
``sakura --version`` says which build runs.

Compiling takes a minute or two on two idle cores (longer on a busy machine), so the build
says what it does: a line when it starts and when it ends, on the terminal itself when there is
one (pip shows a build's own output only with ``pip install -v``, which then also shows a line
a module), else on stderr. ``SAKURA_BUILD_QUIET=1`` keeps it off the terminal.
"""

from __future__ import annotations

import ast
import os
import shutil
import sys
import threading
import time
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext


def _listed(name: str) -> tuple[str, ...]:
    """A list of modules of ``src/sakura/_build.py`` (read as text: the package is not
    importable while it is being built)."""
    tree = ast.parse(Path(__file__).with_name("src").joinpath("sakura", "_build.py").read_text("utf-8"))
    for node in tree.body:
        names = [getattr(target, "id", None) for target in getattr(node, "targets", ())]
        if isinstance(node, ast.Assign) and name in names:
            return tuple(ast.literal_eval(node.value))
    raise RuntimeError(f"src/sakura/_build.py has no {name}")


def hot_modules() -> tuple[str, ...]:
    """The modules to compile from their ``.py``: ``HOT_MODULES`` of ``_build.py``."""
    return _listed("HOT_MODULES")


def kernels() -> tuple[str, ...]:
    """The modules written in Cython (``.pyx``): ``KERNELS`` of ``_build.py``."""
    return _listed("KERNELS")


DIRECTIVES = {
    "language_level": 3,
    # Annotations stay documentation: an ``int`` parameter must still accept what the pure
    # build accepts (and reject it with the engine's own message). Types come from .pxd files.
    "annotation_typing": False,
    "binding": True,  # compiled functions keep their signatures and docstrings (doctests)
    "embedsignature": True,
}


def say(message: str, *, terminal: bool = False) -> None:
    """One line on stderr (pip shows it with -v); with ``terminal``, on the user's terminal too
    when the build has one (pip captures the build's stderr and shows nothing of it otherwise)."""
    print(f"sakura: {message}", file=sys.stderr, flush=True)
    if terminal and not os.environ.get("SAKURA_BUILD_QUIET"):
        try:
            with open("/dev/tty", "w", encoding="utf-8") as tty:
                tty.write(f"\nsakura: {message}\n")
        except OSError:  # no terminal (CI, a pipe, Windows): stderr only
            pass


class OptionalBuildExt(build_ext):
    """A build_ext whose failure (no compiler, no headers) leaves a pure-Python install."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:  # compile the modules side by side (one per core)
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        self._done = 0
        self._lock = threading.Lock()
        started = time.monotonic()
        count = len(self.extensions)
        if count:
            cores = f"{self.parallel} cores" if self.parallel != 1 else "1 core"
            say(
                f"compiling the engine ({count} modules, C from Cython) on {cores}: a minute or more; "
                "SAKURA_BUILD_PURE=1 installs the pure-Python engine at once",
                terminal=True,
            )
        try:
            super().run()
        except Exception as exc:  # any build failure means "install pure"
            self._fallback(exc)
        if count:
            say(
                f"compiled {self._done} of {count} modules in {time.monotonic() - started:.0f} s",
                terminal=True,
            )

    def build_extension(self, ext):  # type: ignore[no-untyped-def]
        started = time.monotonic()
        try:
            super().build_extension(ext)
        except Exception as exc:
            self._fallback(exc, ext.name)
            return
        with self._lock:
            self._done += 1
            done = self._done
        say(f"built {ext.name} ({done}/{len(self.extensions)}, {time.monotonic() - started:.0f} s)")

    @staticmethod
    def _fallback(exc: BaseException, name: str | None = None) -> None:
        what = f"module {name}" if name else "the compiled engine"
        say(f"{what} not compiled ({type(exc).__name__}: {exc}); it runs as pure Python", terminal=True)


def compiler_found() -> bool:
    """Is the C compiler this Python builds extensions with on PATH? Asked before Cython
    translates anything, so a machine without one installs pure at once."""
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.sysconfig import customize_compiler

    compiler = new_compiler()
    customize_compiler(compiler)
    command = getattr(compiler, "compiler_so", None) or getattr(compiler, "compiler", None)
    return bool(command) and shutil.which(command[0]) is not None


def extensions() -> list:  # type: ignore[type-arg]
    if os.environ.get("SAKURA_BUILD_PURE", "").strip().lower() in ("1", "true", "yes"):
        say("SAKURA_BUILD_PURE is set: installing the pure-Python engine")
        return []
    try:
        found = compiler_found()
    except Exception as exc:  # an unusual platform: let build_ext try, and fall back there
        say(f"could not look for a C compiler ({exc})")
        found = True
    if not found:
        say("no C compiler found: installing the pure-Python engine")
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        say("Cython is not available: installing the pure-Python engine")
        return []
    from setuptools import Extension

    # -g0: no debug information (Python's own flags ask for it): gcc takes a quarter less time
    # and the wheel is half the size.
    modules = [
        Extension(name, [os.path.join("src", *name.split(".")) + ".py"], extra_compile_args=["-O2", "-g0"])
        for name in hot_modules()
    ]
    # The kernels: loops over arrays, where -O3 vectorises more; no contraction of a multiply
    # and an add into one rounding (FMA), so their floats are numpy's to the last bit.
    modules += [
        Extension(
            name,
            [os.path.join("src", *name.split(".")) + ".pyx"],
            extra_compile_args=["-O3", "-g0", "-ffp-contract=off"],
        )
        for name in kernels()
    ]
    started = time.monotonic()
    say(f"translating {len(modules)} hot modules and kernels to C with Cython")
    try:
        translated = list(
            cythonize(modules, compiler_directives=DIRECTIVES, quiet=True, nthreads=os.cpu_count() or 1)
        )
        say(f"translated to C in {time.monotonic() - started:.0f} s")
        return translated
    except Exception as exc:  # a Cython error must not stop the install
        say(f"Cython failed ({exc}); installing the pure-Python engine")
        return []


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
