"""Pilot tests of the terminal app: headless, driven by key presses; screenshots in out/tui/."""

from __future__ import annotations

from pathlib import Path

import pytest

OUT = Path(__file__).resolve().parents[2] / "out" / "tui"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def shots() -> Path:
    OUT.mkdir(parents=True, exist_ok=True)
    return OUT
