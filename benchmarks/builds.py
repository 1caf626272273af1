"""Run a benchmark on both builds of the engine, side by side in one run, with the ratios.

A benchmark script calls :func:`compare_builds` first thing in ``main()``: run plainly, it
re-runs itself twice as child processes, once with ``SAKURA_PURE=1`` (the ``.py`` source) and
once compiled (the Cython build ``setup.py`` made), alternating ``--rounds`` times, and prints
each child's table, then a table of ratios (compiled ÷ pure) for every number, taking each
build's best round. ``--build pure|compiled`` runs one build only (that is what the children
get). Without a compiled build it says so and runs pure.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

NUMBER = re.compile(r"^-?[\d,]*\.?\d+(?: ?[a-zµ/%]+)?$")
CELL = re.compile(r"\S+(?: \S+)*")


def _numbers(line: str) -> list[tuple[str, float | None]]:
    cells = CELL.findall(line)
    out: list[tuple[str, float | None]] = []
    for i, cell in enumerate(cells):
        if i == 0:  # a row's label ("4p", "2p court") is never a figure
            out.append((cell, None))
            continue
        text = cell.replace(",", "")
        match = re.match(r"^-?\d*\.?\d+", text)
        out.append((cell, float(match.group()) if match and NUMBER.match(cell) else None))
    return out


def _compiled_available() -> bool:
    from sakura._build import build_info

    return build_info().kind == "compiled"


def compare_builds(script: str, *, higher_is_better: bool = True) -> bool:
    """True when this process should go on and measure (a child, or a single build);
    False when it was the parent and has printed the side-by-side comparison."""
    argv = sys.argv[1:]
    if "--build" in argv:
        i = argv.index("--build")
        wanted = argv[i + 1] if i + 1 < len(argv) else ""
        del sys.argv[i + 1 : i + 3]
        if wanted not in ("pure", "compiled"):
            raise SystemExit("--build is pure or compiled")
        from sakura._build import build_info

        info = build_info()
        if info.kind != wanted:
            raise SystemExit(f"asked for the {wanted} build, running: {info.describe()}")
        print(f"[{info.describe()}]")
        return True
    rounds = 1
    if "--rounds" in argv:
        i = argv.index("--rounds")
        rounds = int(argv[i + 1])
        del argv[i : i + 2]
    if not _compiled_available():
        print("only the pure build is installed (no C compiler at install): measuring it alone")
        return True
    outputs: dict[str, list[str]] = {"pure": [], "compiled": []}
    for _ in range(rounds):
        for build in ("pure", "compiled"):
            env = {**os.environ, "SAKURA_PURE": "1" if build == "pure" else "0"}
            done = subprocess.run(
                [sys.executable, str(Path(script).resolve()), *argv, "--build", build],
                env=env,
                capture_output=True,
                text=True,
                check=False,
            )
            if done.returncode != 0:
                raise SystemExit(f"the {build} run failed:\n{done.stdout}\n{done.stderr}")
            outputs[build].append(done.stdout)
    for build in ("pure", "compiled"):
        print(f"== {build} (best of {rounds})" if rounds > 1 else f"== {build}")
        print(_best(outputs[build], higher_is_better).rstrip())
        print()
    print("== ratio, compiled ÷ pure" + (" (higher is faster)" if higher_is_better else ""))
    print(
        _ratios(
            _best(outputs["pure"], higher_is_better), _best(outputs["compiled"], higher_is_better)
        ).rstrip()
    )
    return False


def _best(runs: list[str], higher_is_better: bool) -> str:
    """Cell by cell, the best of several runs of the same table (the least disturbed)."""
    if len(runs) == 1:
        return runs[0]
    lines = [run.splitlines() for run in runs]
    out = []
    for row in zip(*lines, strict=False):
        parsed = [_numbers(line) for line in row]
        if any(len(p) != len(parsed[0]) for p in parsed) or not any(v for _, v in parsed[0]):
            out.append(row[0])
            continue
        cells = []
        for column in zip(*parsed, strict=True):
            values = [v for _, v in column if v is not None]
            if len(values) != len(column):
                cells.append(column[0][0])
                continue
            pick = max(values) if higher_is_better else min(values)
            cells.append(next(text for text, v in column if v == pick))
        out.append(_row(cells))
    return "\n".join(out)


def _row(cells: list[str]) -> str:
    return "".join(f"{c:>14}" if i else f"{c:<14}" for i, c in enumerate(cells))


def _ratios(pure: str, compiled: str) -> str:
    out = []
    for a, b in zip(pure.splitlines(), compiled.splitlines(), strict=False):
        pa, pb = _numbers(a), _numbers(b)
        if len(pa) != len(pb) or not any(v is not None for _, v in pa):
            continue
        cells = []
        for (ta, va), (_, vb) in zip(pa, pb, strict=True):
            if va is None or vb is None:
                cells.append(ta)
            else:
                cells.append(f"{vb / va:.2f}×" if va else "-")
        out.append(_row(cells))
    return "\n".join(out)


@contextlib.contextmanager
def past_revision(rev: str) -> Iterator[Path]:
    """A checkout of ``rev`` of this repository (``git worktree``, in a temporary folder, removed
    after): run its source by putting its ``src`` first on ``PYTHONPATH``."""
    with tempfile.TemporaryDirectory(prefix="sakura-past-") as tmp:
        past = Path(tmp) / "past"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(past), rev], check=True
        )
        try:
            yield past
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(past)], check=False)
