"""The two builds of the engine (issue #16): the Cython build ``setup.py`` compiles from the
``.py`` source, and that source run as it is (``SAKURA_PURE=1``, or no compiler at install).

* Both builds play the same seeded games byte for byte: fast-path games, fully checked games
  (every event as every viewer sees it, every viewer's view, saved states, clones, positions),
  whole game records and bot games, at every table (``digest.py`` digests them; each build runs
  it in a child process of its own).
* ``SAKURA_PURE`` switches the build, and ``sakura --version`` says which one runs.
* ``setup.py`` compiles exactly ``sakura._build.HOT_MODULES`` and ``KERNELS``.
* A compiled module older than its ``.py`` or ``.pxd`` is never loaded (on a copy of the tree).
* A machine without a C compiler installs the pure build and says so.

The children import the package from this checkout's ``src`` (``PYTHONPATH``), whatever else
is installed.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import os
import runpy
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path
from typing import Any

import pytest

from sakura import __version__
from sakura._build import HOT_MODULES, KERNELS

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
DIGEST = Path(__file__).with_name("digest.py")
TABLES = ["2p-court", "2p-tactical", "3p", "4p", "5p", "6p", "cards"]
GAMES = 2000  # fast-path games a table; digest.py plays GAMES // 20 checked ones
PARTS = {"fast": GAMES, "checked": GAMES // 20, "records": 5, "bots": 4}  # games in each part
EXTENSIONS = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def _source(name: str, root: Path = SRC) -> Path:
    return root.joinpath(*name.split(".")).with_suffix(".py")


def _binaries(root: Path = SRC) -> dict[str, Path]:
    """The hot modules that have a compiled extension module beside their ``.py``."""
    out = {}
    for name in HOT_MODULES:
        source = _source(name, root)
        found = [source.with_name(source.stem + suffix) for suffix in EXTENSIONS]
        found = [path for path in found if path.is_file()]
        if found:
            out[name] = found[0]
    return out


NO_BUILD = (
    "no compiled build in this checkout: setup.py compiles the hot modules when a C "
    "compiler and Cython are there (pip install -e ., or python setup.py build_ext --inplace)"
)


def _needs_compiled() -> None:
    if not _binaries():
        pytest.skip(NO_BUILD)


def _env(*, pure: bool, src: Path = SRC, **extra: str) -> dict[str, str]:
    env = {**os.environ, **extra}
    env.pop("SAKURA_PURE", None)
    if pure:
        env["SAKURA_PURE"] = "1"
    env["PYTHONPATH"] = os.pathsep.join([str(src), *filter(None, [os.environ.get("PYTHONPATH")])])
    return env


def _run(args: list[str], env: dict[str, str], timeout: float = 300, *, stderr: bool = False) -> str:
    """The child's output (with its error output after it if ``stderr``); it must succeed."""
    done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    assert done.returncode == 0, f"{' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr if stderr else done.stdout


def _digest(
    table: str, *, pure: bool, games: int = GAMES, more: tuple[str, ...] = (), prelude: str = ""
) -> tuple[str, dict[str, str]]:
    """digest.py's first line (the build) and its parts (``part -> "games steps sha256"``).
    ``prelude`` is Python run in the child before the digest (to change the engine there)."""
    args = [str(DIGEST), table, str(games), *more]
    if prelude:
        args = [
            "-c",
            f"{prelude}\nimport runpy, sys\nsys.argv = {args!r}\n"
            f"runpy.run_path({str(DIGEST)!r}, run_name='__main__')",
        ]
    first, *lines = _run([sys.executable, *args], _env(pure=pure)).splitlines()
    parts = {}
    for line in lines:
        part, rest = line.split(" ", 1)
        parts[part] = rest
    return first, parts


def test_the_tables_are_the_digests_tables() -> None:
    from tests.build.digest import TABLES as DIGEST_TABLES

    assert sorted(TABLES) == sorted(DIGEST_TABLES)


# ------------------------------------------------------------------------------ the differential


@pytest.mark.parametrize("table", TABLES)
def test_both_builds_play_the_same_games(table: str) -> None:
    """The same seeds give the same bytes in both builds: 2,000 random fast-path games, 100
    fully checked ones, 5 records and a game of each bot (greedy, softmax, two searches)."""
    _needs_compiled()
    compiled_build, compiled = _digest(table, pure=False)
    pure_build, pure = _digest(table, pure=True)
    assert compiled_build.startswith("build compiled "), compiled_build
    assert pure_build == "build pure pure Python engine (SAKURA_PURE=1)", pure_build
    assert list(pure) == list(PARTS), pure
    for part, games in PARTS.items():
        played, steps, _ = pure[part].split()
        assert int(played) == games and int(steps) > games, (part, pure[part])
    differ = [part for part in PARTS if compiled[part] != pure[part]]
    assert not differ, f"the builds differ at {table} in {differ}: compiled {compiled}, pure {pure}"


# Changes to the engine that the digest must see, and the parts that must change (the others
# must not): a leak of a secret card to the other players (only what viewers see changes), and
# the legal actions in another order (every game changes).
LEAK = (
    "from sakura.engine.games.sakura.events import CardChosen\nCardChosen.seen_by = lambda self, viewer: self"
)
REORDER = (
    "from sakura.engine.games.sakura.state import SakuraState\n"
    "legal = SakuraState.legal_actions\n"
    "SakuraState.legal_actions = lambda self, player: legal(self, player)[::-1]"
)


@pytest.mark.parametrize(
    ("prelude", "changed"),
    [(LEAK, {"checked"}), (REORDER, {"fast", "checked", "records"})],
    ids=["secret-card-leaked", "legal-actions-reordered"],
)
def test_the_digest_sees_a_changed_engine(prelude: str, changed: set[str]) -> None:
    """The differential can fail: the pure build, changed in one place, digests otherwise."""
    small = ("--checked", "6", "--records", "2", "--bot-games", "0")
    _, plain = _digest("4p", pure=True, games=60, more=small)
    _, altered = _digest("4p", pure=True, games=60, more=small, prelude=prelude)
    assert {part for part in plain if plain[part] != altered[part]} == changed


# ------------------------------------------------------------------------------ the switch

PROBE = """
import json, sys
from sakura._build import HOT_MODULES, build_info
info = build_info()
files = {name: sys.modules[name].__file__ for name in HOT_MODULES if name in sys.modules}
print(json.dumps({"kind": info.kind, "forced": info.forced_pure, "stale": list(info.stale),
                  "describe": info.describe(), "files": files}))
"""


def _probe(*, pure: bool, src: Path = SRC) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(_run([sys.executable, "-c", PROBE], _env(pure=pure, src=src)))
    return result


def _version(*, pure: bool) -> str:
    script = "import sys; sys.argv[0] = 'sakura'; from sakura.cli.main import app; app()"
    return _run([sys.executable, "-c", script, "--version"], _env(pure=pure)).strip()


def test_sakura_pure_runs_the_py_source() -> None:
    info = _probe(pure=True)
    assert info["kind"] == "pure" and info["forced"] and info["stale"] == []
    assert {n for n in HOT_MODULES if n.startswith("sakura.engine.")} <= set(info["files"])
    assert all(Path(file) == _source(name) for name, file in info["files"].items()), info["files"]
    assert _version(pure=True) == f"sakura {__version__}: pure Python engine (SAKURA_PURE=1)"


def test_without_sakura_pure_the_compiled_build_runs() -> None:
    """Each hot module with a binary runs it; without any binary the build is pure, and says
    why (not ``SAKURA_PURE``)."""
    binaries = _binaries()
    info = _probe(pure=False)
    if not binaries:
        assert info["kind"] == "pure" and not info["forced"]
        assert _version(pure=False) == (
            f"sakura {__version__}: pure Python engine (no compiled modules: installed without a C compiler)"
        )
        return
    assert info["kind"] == "compiled" and not info["forced"] and info["stale"] == []
    for name, file in info["files"].items():
        expected = binaries.get(name, _source(name))
        assert Path(file) == expected, f"{name} runs from {file}, not {expected}"
    assert all(file.endswith(".so") for name, file in info["files"].items() if name in binaries)
    assert _version(pure=False).startswith(
        f"sakura {__version__}: compiled engine (Cython, {len(binaries)} of {len(HOT_MODULES)} hot modules)"
    )


# ------------------------------------------------------------------------------ setup.py


def test_setup_compiles_exactly_the_hot_modules(monkeypatch: pytest.MonkeyPatch) -> None:
    """``setup.py`` reads its list from ``_build.HOT_MODULES`` and hands Cython one extension a
    hot module, built from that module's own ``.py``, then one a kernel (``KERNELS``, from its
    ``.pyx``); every ``.pxd`` beside the source types a
    hot module (a ``.pxd`` of a module nobody compiles would be dead)."""
    import setuptools

    captured: dict[str, Any] = {}
    monkeypatch.setattr(setuptools, "setup", lambda **kwargs: captured.update(kwargs))
    monkeypatch.delenv("SAKURA_BUILD_PURE", raising=False)
    cython = pytest.importorskip("Cython.Build")
    monkeypatch.setattr(cython, "cythonize", lambda modules, **_: modules)  # names, not C
    monkeypatch.chdir(ROOT)
    setup = runpy.run_path(str(ROOT / "setup.py"))
    assert setup["hot_modules"]() == HOT_MODULES
    assert setup["kernels"]() == KERNELS
    assert len(set(HOT_MODULES + KERNELS)) == len(HOT_MODULES + KERNELS)
    for name in HOT_MODULES:
        assert _source(name).is_file(), name
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.name == name
    if not setup["compiler_found"]():
        pytest.skip("no C compiler here: setup.py makes no extensions (checked above: its list)")
    extensions = captured["ext_modules"]
    assert [ext.name for ext in extensions] == list(HOT_MODULES + KERNELS)
    for ext in extensions:
        source = _source(ext.name) if ext.name in HOT_MODULES else _source(ext.name).with_suffix(".pyx")
        assert [ROOT / s for s in ext.sources] == [source], ext.sources
        assert source.is_file(), source
    typed = {".".join(p.relative_to(SRC).with_suffix("").parts) for p in SRC.rglob("*.pxd")}
    assert typed and typed <= set(HOT_MODULES), typed - set(HOT_MODULES)


# ------------------------------------------------------------------------------ stale binaries


def test_a_binary_older_than_its_source_is_not_loaded(tmp_path: Path) -> None:
    """On a copy of the tree: a ``.so`` older than its ``.py`` (``rng``), or than its ``.pxd``
    (the protocol), runs from the ``.py``, and so does a module whose ``.pxd`` cimports a
    module that runs from source (both games' events); the others stay compiled; ``build_info``
    says so."""
    _needs_compiled()
    src = tmp_path / "src"
    shutil.copytree(SRC / "sakura", src / "sakura", ignore=shutil.ignore_patterns("__pycache__", "*.c"))
    binaries = _binaries(src)
    edited = ["sakura.engine.rng", "sakura.engine.protocol"]
    if not set(edited) <= set(binaries):
        pytest.skip(f"{edited} are not compiled in this checkout")
    before = _probe(pure=False, src=src)
    assert before["stale"] == [] and before["kind"] == "compiled"
    assert {Path(f) for f in before["files"].values()} >= {binaries[name] for name in edited}

    now = time.time()
    rng_py, protocol_pxd = _source(edited[0], src), _source(edited[1], src).with_suffix(".pxd")
    os.utime(binaries[edited[0]], (now - 100, now - 100))  # the .py edited after the build
    os.utime(rng_py, (now, now))
    protocol_py = _source(edited[1], src)  # the .py as built, the .pxd edited since
    os.utime(protocol_py, (now - 200, now - 200))
    os.utime(binaries[edited[1]], (now - 100, now - 100))
    os.utime(protocol_pxd, (now, now))

    after = _probe(pure=False, src=src)
    # The games' events.pxd cimport the protocol's Event: their binaries cannot run beside the
    # protocol's source, so they run from their own source too.
    dependent = ["sakura.engine.games.cards.events", "sakura.engine.games.sakura.events"]
    assert sorted(after["stale"]) == sorted(edited + dependent)
    assert after["kind"] == "compiled"
    assert "older than their source, so run from it" in after["describe"]
    for name, file in after["files"].items():
        from_source = name in edited or name in dependent
        expected = _source(name, src) if from_source else binaries.get(name, _source(name, src))
        assert Path(file) == expected, f"{name} runs from {file}, not {expected}"
    forced = _probe(pure=True, src=src)  # SAKURA_PURE: every module from source, none stale
    assert forced["kind"] == "pure" and forced["stale"] == []


# ------------------------------------------------------------------------------ installing


def _copy_project(into: Path) -> Path:
    """What an install needs of the checkout, without its build products."""
    project = into / "project"
    project.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, project / name)
    shutil.copytree(
        SRC,
        project / "src",
        ignore=shutil.ignore_patterns("__pycache__", "*.c", "*.so", "*.pyd", "*.egg-info"),
    )
    return project


@pytest.mark.slow
def test_a_machine_without_a_compiler_installs_the_pure_build(tmp_path: Path) -> None:
    """A fresh virtualenv, the compiler hidden (a PATH without it, no CC): ``pip install`` of
    the project goes on without compiling, and ``sakura --version`` there says pure. The venv
    sees this environment's packages (a ``.pth``), so the install's own requirements
    (setuptools, Cython) and the package's dependencies are there without a download: what is
    missing is only the compiler."""
    project = _copy_project(tmp_path)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    site = Path(
        _run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            {"PATH": os.defpath},
        ).strip()
    )
    here = dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
    (site / "zz_outer_environment.pth").write_text("".join(f"{path}\n" for path in here), "utf-8")

    env = {
        key: value
        for key, value in os.environ.items()
        if key
        not in {
            "PYTHONPATH",
            "SAKURA_PURE",
            "SAKURA_BUILD_PURE",
            "CC",
            "CXX",
            "LDSHARED",
            "CPP",
            "CFLAGS",
            "VIRTUAL_ENV",
        }
    }
    env.update(PATH=str(venv / "bin"), PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    assert shutil.which("gcc", path=env["PATH"]) is None and shutil.which("cc", path=env["PATH"]) is None
    _run([str(python), "-c", "import Cython, setuptools"], env)  # what is missing is the compiler
    log = _run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "-v",
            "--no-deps",
            "--no-build-isolation",
            "--ignore-installed",
            "--no-cache-dir",
            str(project),
        ],
        env,
        timeout=240,
        stderr=True,
    )
    assert "sakura: no C compiler found: installing the pure-Python engine" in log

    installed = Path(_run([str(python), "-c", "import sakura; print(sakura.__file__)"], env).strip())
    assert installed.is_relative_to(site), installed  # the venv's copy, not this checkout
    assert not [p for p in installed.parent.rglob("*") if p.suffix in {".so", ".pyd"}]
    version = _run([str(venv / "bin" / "sakura"), "--version"], env).strip()
    assert version == (
        f"sakura {__version__}: pure Python engine (no compiled modules: installed without a C compiler)"
    )
