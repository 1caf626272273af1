"""``examples/train_ppo.py`` runs end to end on a tiny budget (the real run is in docs/rl.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib", reason="the example needs the train extra: pip install -e '.[train]'")

ROOT = Path(__file__).resolve().parents[2]


def test_the_training_example_trains_evaluates_and_plots(tmp_path: Path) -> None:
    out = tmp_path / "winrate.png"
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_ppo.py"), "--players", "3", "--timesteps", "600",
         "--envs", "1", "--eval-every", "512", "--eval-games", "3", "--out", str(out)],
        capture_output=True, text=True, check=False, timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    figures = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    steps = [p["steps"] for p in figures["points"]]
    assert steps[0] == 0 and steps[-1] >= 600 and steps == sorted(steps)
    assert all(0.0 <= p["win_rate"] <= 1.0 for p in figures["points"])
    assert out.stat().st_size > 10_000 and "win rate" in result.stdout
