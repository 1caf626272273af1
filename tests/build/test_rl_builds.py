"""The RL observations are the same, byte for byte, in the compiled build and the pure one.

Seeded random games of every table through the PettingZoo ParallelEnv (the path the compiled
encoders, views and env take: every seat's views at once, the typed memoryview writes), and
single views through ``encoder.encode`` (the path of Gymnasium and OpenSpiel), run in two
child processes, one with ``SAKURA_PURE=1``; each prints a digest of every observation, mask,
reward and termination, and the digests must be equal. Skipped where the RL modules are not
compiled (no C compiler at install, or a checkout edited since it was built).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

RL_MODULES = (
    "sakura.rl.core",
    "sakura.rl.encoding",
    "sakura.rl.sakura_encoding",
    "sakura.rl.cards_encoding",
    "sakura.rl.pettingzoo_env",
    "sakura.engine.games.sakura.view",
)
GAMES = 40  # a table

CHILD = r"""
import hashlib, json, random, sys
import numpy as np
from sakura._build import build_info
from sakura.rl.pettingzoo_env import SakuraParallelEnv

TABLES = [("sakura", {"players": 2, "variant": "court"}), ("sakura", {"players": 2, "variant": "tactical"}),
          ("sakura", {"players": 3}), ("sakura", {"players": 4}), ("sakura", {"players": 5}),
          ("sakura", {"players": 6}), ("sakura-cards", {})]
digest = hashlib.blake2b(digest_size=16)
steps = 0
for name, config in TABLES:
    env = SakuraParallelEnv(name, config)
    rng = random.Random(name + json.dumps(config))
    for seed in range(int(sys.argv[1])):
        observations, _ = env.reset(seed=seed)
        while True:
            for agent in env.possible_agents:
                if agent in observations:
                    digest.update(observations[agent]["observation"].tobytes())
                    digest.update(observations[agent]["action_mask"].tobytes())
                    digest.update(env.observe(agent)["observation"].tobytes())  # one view alone
            if not env.agents:
                break
            picks = {a: rng.choice(np.flatnonzero(o["action_mask"]).tolist())
                     for a, o in observations.items()}
            observations, rewards, terminations, _, _ = env.step(picks)
            digest.update(repr(sorted(rewards.items())).encode())
            digest.update(repr(sorted(terminations.items())).encode())
            steps += 1
info = build_info()
print(json.dumps({"kind": info.kind, "modules": info.modules, "digest": digest.hexdigest(), "steps": steps}))
"""


def _run(pure: bool) -> dict[str, object]:
    import json

    env = {**os.environ, "SAKURA_PURE": "1" if pure else "0"}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(GAMES)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.mark.skipif(
    any(importlib.util.find_spec(m) is None for m in ("numpy", "pettingzoo", "gymnasium")),
    reason="needs the rl extra (pip install -e '.[rl]')",
)
def test_parallel_env_observations_are_byte_identical_in_both_builds() -> None:
    # Which modules run compiled is asked of the child (this process may hold a module
    # imported from its .py, as collecting the doctests does).
    compiled = _run(pure=False)
    missing = [m for m in RL_MODULES if m not in compiled["modules"]]  # type: ignore[operator]
    if compiled["kind"] != "compiled" or missing:
        pytest.skip(
            f"the RL modules are not all compiled ({', '.join(missing) or 'pure build'}): "
            "pip install -e . compiles them"
        )
    pure = _run(pure=True)
    assert pure["kind"] == "pure"
    assert compiled["steps"] == pure["steps"] and int(pure["steps"]) > 1000  # type: ignore[call-overload]
    assert compiled["digest"] == pure["digest"]
