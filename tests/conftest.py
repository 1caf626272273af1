"""Fixtures shared by every test folder: a live server on loopback (``server``), the one
fixture of its kind (browser tests, terminal-app tests and the live limits' tests all use it).

A folder or module that needs the server configured otherwise overrides ``server_options``
(the keyword arguments of :func:`tests.live_server.running_server`: ``limits`` and uvicorn's
own options), never ``server`` itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.live_server import running_server


@pytest.fixture
def server_options() -> dict[str, Any]:
    """How the live server is configured: as ``sakura serve`` does by default."""
    return {}


@pytest.fixture
def server(tmp_path: Path, server_options: dict[str, Any]) -> Iterator[str]:
    """A live uvicorn server on loopback, in a thread, on its own SQLite file; its URL."""
    with running_server(tmp_path / "sakura.db", **server_options) as url:
        yield url
