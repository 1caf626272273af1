"""The PettingZoo ParallelEnv of this checkout, both builds, beside a past revision's pure build.

Run: ``python benchmarks/rl_since.py REV [--players 4] [--games 100] [--rounds 6]``.

The compiled-engine issue's RL target is a ratio to the env of a fixed day ("today's steps a
second"), not to this checkout's own pure build, which has had its share of the work too; so
this script checks ``REV`` out (``git worktree``, in a temporary directory, removed after) and
plays the same random games in three child processes, in turn, ``--rounds`` times: ``REV``
pure, this checkout pure (``SAKURA_PURE=1``), this checkout compiled. Each keeps its best round
(the machine is shared: the best round is the least disturbed). Two figures a build:

* *steps/s*: the whole loop, the env and the random policy over each agent's action mask (the
  same numpy calls in every build, about 7 µs a four-player step on an idle core), as
  ``benchmarks/rl.py`` counts it;
* *env µs a step*: the clock around ``reset`` and ``step`` alone: the env's own cost.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def measure(players: int, games: int) -> dict[str, float]:
    """Play ``games`` random games (seeds 0..games-1); the whole loop and the env alone."""
    import random

    import numpy as np

    from sakura.rl.pettingzoo_env import SakuraParallelEnv

    env = SakuraParallelEnv("sakura", {"players": players})
    rng = random.Random(0)
    inside = 0.0
    steps = 0
    start = time.process_time()
    for seed in range(games):
        t = time.perf_counter()
        observations, _ = env.reset(seed=seed)
        inside += time.perf_counter() - t
        while env.agents:
            picks = {a: rng.choice(np.flatnonzero(o["action_mask"]).tolist())
                     for a, o in observations.items()}
            t = time.perf_counter()
            observations = env.step(picks)[0]
            inside += time.perf_counter() - t
            steps += 1
    total = time.process_time() - start
    return {"steps_per_s": steps / total, "env_us": inside / steps * 1e6, "steps": steps}


def child(source: Path | None, pure: bool, players: int, games: int) -> dict[str, float]:
    env = {**os.environ, "SAKURA_PURE": "1" if pure else "0"}
    if source is not None:  # the past revision's source first on the path, ahead of the install
        env["PYTHONPATH"] = os.pathsep.join([str(source / "src"), env.get("PYTHONPATH", "")])
    code = (f"import json, sys; sys.path.insert(0, {str(ROOT / 'benchmarks')!r}); import rl_since; "
            f"import sakura; assert sakura.__file__.startswith({str((source or ROOT) / 'src')!r}), "
            f"sakura.__file__; print(json.dumps(rl_since.measure({players}, {games})))")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=False, cwd=source or ROOT)
    if done.returncode != 0:
        raise SystemExit(f"a child failed:\n{done.stdout}\n{done.stderr}")
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev", help="the past revision whose pure build is the reference")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    from sakura._build import build_info

    if build_info().kind != "compiled":
        raise SystemExit("this checkout has no compiled build (python setup.py build_ext --inplace)")
    with tempfile.TemporaryDirectory(prefix="sakura-since-") as tmp:
        past = Path(tmp) / "past"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(past), args.rev],
                       check=True)
        try:
            runs = {f"{args.rev} pure": (past, True), "now pure": (None, True),
                    "now compiled": (None, False)}
            best: dict[str, dict[str, float]] = {}
            for _ in range(args.rounds):
                for name, (source, pure) in runs.items():
                    r = child(source, pure, args.players, args.games)
                    b = best.setdefault(name, r)
                    b["steps_per_s"] = max(b["steps_per_s"], r["steps_per_s"])
                    b["env_us"] = min(b["env_us"], r["env_us"])
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(past)], check=False)
    ref = best[f"{args.rev} pure"]
    print(f"{args.players}-player ParallelEnv, {args.games} random games, best of {args.rounds} "
          "interleaved rounds")
    print(f"{'build':<22}{'steps/s':>10}{'× ' + args.rev:>14}{'env µs a step':>15}{'× ' + args.rev:>14}")
    for name, r in best.items():
        print(f"{name:<22}{r['steps_per_s']:>10,.0f}{r['steps_per_s'] / ref['steps_per_s']:>13.2f}×"
              f"{r['env_us']:>15.1f}{ref['env_us'] / r['env_us']:>13.2f}×")


if __name__ == "__main__":
    main()
