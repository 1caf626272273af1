"""The kill -9 loop of ``benchmarks/kill_loop.py``, with a small count: under load, the server
killed at random moments and started again, no action any client was told of is missing from
the database or stored differently (SQLite, and PostgreSQL where one is reachable)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "kill_loop.py"


@pytest.mark.soak
def test_no_acknowledged_action_is_lost_across_kills(database_url: str) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--tables",
            "4",
            "--kills",
            "4",
            "--interval",
            "0.8",
            "--seconds",
            "60",
            "--database-url",
            database_url,
        ],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    summary = done.stdout.strip().splitlines()[-1]
    assert "lost 0, different 0" in summary and "actions told to clients 0 " not in summary
    assert "kill 4/4" in done.stdout
