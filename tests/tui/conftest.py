"""Pilot tests of the terminal app: headless, driven by key presses; screenshots in a temporary
folder of the run (``shots``)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go: a temporary folder of the run, never the repository."""
    return tmp_path_factory.mktemp("tui")
