"""The RL tests need the ``rl`` extra. Without it each test file is reported as one skipped
test saying what to install (its imports would fail before any test could skip itself)."""

from __future__ import annotations

import importlib.util
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

MISSING = [m for m in ("numpy", "gymnasium", "pettingzoo", "pyspiel") if importlib.util.find_spec(m) is None]
REASON = f"{', '.join(MISSING)} missing: install the rl extra (pip install -e '.[rl]')"


class _NeedsExtra(pytest.Item):
    def runtest(self) -> None:
        pytest.skip(REASON)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, self.name


class _SkippedFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        yield _NeedsExtra.from_parent(self, name="needs the rl extra")


def pytest_pycollect_makemodule(module_path: Path, parent: Any) -> pytest.File | None:
    if MISSING and module_path.name.startswith("test_"):
        return _SkippedFile.from_parent(parent, path=module_path)
    return None


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(file_path: Path, parent: Any) -> Generator[None, list[Any], list[Any]]:
    """Without the extra, keep only the skipping file (``--doctest-modules`` would import the
    test modules too)."""
    collected = yield
    if MISSING:
        return [c for c in collected if isinstance(c, _SkippedFile)]
    return collected
