"""``examples/train_ppo.py`` runs end to end on a tiny budget (the real runs are in docs/rl.md):
warm start, training, checkpoint, resume, export to the numpy policy file, plot."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib", reason="the example needs the train extra: pip install -e '.[train]'")

ROOT = Path(__file__).resolve().parents[2]


def _train(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            str(ROOT / "examples" / "train_ppo.py"),
            "--players",
            "3",
            "--envs",
            "1",
            "--eval-every",
            "512",
            "--eval-games",
            "3",
            "--hidden",
            "16",
            *args,
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


def test_the_training_example_trains_checkpoints_resumes_exports_and_plots(tmp_path: Path) -> None:
    out, checkpoint, policy = tmp_path / "winrate.png", tmp_path / "run", tmp_path / "sakura-3p.npz"
    first = _train("--timesteps", "600", "--imitate", "3", "--checkpoint", str(checkpoint), "--out", str(out))
    assert first.returncode == 0, first.stdout + first.stderr
    assert "imitation epoch 4" in first.stdout and (checkpoint / "model.zip").is_file()
    steps = [p["steps"] for p in json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))["points"]]
    assert steps[0] == 0 and steps[-1] >= 600 and steps == sorted(steps)
    assert out.stat().st_size > 10_000 and "win rate" in first.stdout

    again = _train(
        "--timesteps",
        "600",
        "--checkpoint",
        str(checkpoint),
        "--resume",
        "--export",
        str(policy),
        "--out",
        str(out),
    )
    assert again.returncode == 0, again.stdout + again.stderr
    assert f"resumed at {steps[-1]:,} steps" in again.stdout
    points = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))["points"]
    assert points[: len(steps)] == json.loads((checkpoint / "curve.json").read_text())[: len(steps)]
    assert points[-1]["steps"] >= steps[-1] + 600 and all(0 <= p["win_rate"] <= 1 for p in points)

    from sakura.engine import make_game
    from sakura.rl.policy import PolicyNet

    net = PolicyNet.load(policy)
    assert net.meta["table"] == "sakura-3p" and [w.shape for w in net.weights] == [(527, 16), (16, 62)]
    game = make_game("sakura", {"players": 3})
    view = game.new_initial_state(1).view(0)
    from sakura.rl.encoding import encoder_for

    enc = encoder_for(game)
    assert enc.action_text(int(net.best(enc.encode(view), enc.mask(view)))) in view.legal_actions
