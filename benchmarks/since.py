"""This checkout, both builds, beside a past revision's pure build: the RL env or the engine.

Run: ``python benchmarks/since.py REV rl|engine [--players 4] [--games 300] [--rounds 6]``.

The compiled-engine issue's targets are ratios to a fixed day ("today's steps a second", "at
today's speed"), not to this checkout's own pure build, which has had its share of the work
too; so this script checks ``REV`` out (``git worktree``, in a temporary directory, removed
after) and plays the same random games in three child processes, in turn, ``--rounds``
times: ``REV`` pure, this checkout pure (``SAKURA_PURE=1``), this checkout compiled. Each
keeps its best round (the machine is shared: the best round is the least disturbed).

``rl``, the PettingZoo ParallelEnv, two figures a build:

* *steps/s*: the whole loop, the env and the random policy over each agent's action mask (the
  same numpy calls in every build, about 7 µs a four-player step on an idle core), as
  ``benchmarks/rl.py`` counts it;
* *env µs a step*: the clock around ``reset`` and ``step`` alone: the env's own cost.

``engine``, Sakura's engine as ``benchmarks/engine.py`` drives it (a uniformly drawn legal
action a step): *fast* games a second (a state without events, ``apply_fast``) and *checked*
games a second (``apply_action``, every event built).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from builds import past_revision

ROOT = Path(__file__).resolve().parent.parent


def measure(what: str, players: int, games: int) -> dict[str, float]:
    return measure_rl(players, games) if what == "rl" else measure_engine(players, games)


def measure_engine(players: int, games: int) -> dict[str, float]:
    """Play ``games`` random games on the fast path and as many checked, with the engine
    benchmark's own loops; games a second."""
    import random

    from engine import play_checked, play_fast  # benchmarks/engine.py (on the path: see child)
    from sakura.engine.games.sakura import SakuraGame

    game = SakuraGame(players)
    rng = random.Random(0)
    out = {}
    for name, play in (("fast", play_fast), ("checked", play_checked)):
        start = time.process_time()
        for seed in range(games):
            play(game, seed, rng)
        out[name] = games / (time.process_time() - start)
    return out


def measure_rl(players: int, games: int) -> dict[str, float]:
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
            picks = {
                a: rng.choice(np.flatnonzero(o["action_mask"]).tolist()) for a, o in observations.items()
            }
            t = time.perf_counter()
            observations = env.step(picks)[0]
            inside += time.perf_counter() - t
            steps += 1
    total = time.process_time() - start
    return {"steps_per_s": steps / total, "env_us": inside / steps * 1e6, "steps": steps}


def child(what: str, source: Path | None, pure: bool, players: int, games: int) -> dict[str, float]:
    env = {**os.environ, "SAKURA_PURE": "1" if pure else "0"}
    if source is not None:  # the past revision's source first on the path, ahead of the install
        env["PYTHONPATH"] = os.pathsep.join([str(source / "src"), env.get("PYTHONPATH", "")])
    code = (
        f"import json, sys; sys.path.insert(0, {str(ROOT / 'benchmarks')!r}); import since; "
        f"import sakura; assert sakura.__file__.startswith({str((source or ROOT) / 'src')!r}), "
        f"sakura.__file__; print(json.dumps(since.measure({what!r}, {players}, {games})))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False, cwd=source or ROOT
    )
    if done.returncode != 0:
        raise SystemExit(f"a child failed:\n{done.stdout}\n{done.stderr}")
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev", help="the past revision whose pure build is the reference")
    parser.add_argument("what", choices=["rl", "engine"])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    from sakura._build import build_info

    if build_info().kind != "compiled":
        raise SystemExit("this checkout has no compiled build (python setup.py build_ext --inplace)")
    # (figure, higher is better) in the order printed
    figures = (
        [("steps_per_s", True), ("env_us", False)]
        if args.what == "rl"
        else [("fast", True), ("checked", True)]
    )
    with past_revision(args.rev) as past:
        runs = {f"{args.rev} pure": (past, True), "now pure": (None, True), "now compiled": (None, False)}
        best: dict[str, dict[str, float]] = {}
        for _ in range(args.rounds):
            for name, (source, pure) in runs.items():
                r = child(args.what, source, pure, args.players, args.games)
                b = best.setdefault(name, r)
                for key, higher in figures:
                    b[key] = max(b[key], r[key]) if higher else min(b[key], r[key])
    ref = best[f"{args.rev} pure"]
    subject = "ParallelEnv" if args.what == "rl" else "engine"
    print(
        f"{args.players}-player {subject}, {args.games} random games, best of {args.rounds} "
        "interleaved rounds"
    )
    names = {
        "steps_per_s": "steps/s",
        "env_us": "env µs a step",
        "fast": "fast games/s",
        "checked": "checked games/s",
    }
    print(f"{'build':<22}" + "".join(f"{names[k]:>16}{'× ' + args.rev:>14}" for k, _ in figures))
    for name, r in best.items():
        cells = []
        for key, higher in figures:
            ratio = r[key] / ref[key] if higher else ref[key] / r[key]
            cells.append(f"{r[key]:>16,.1f}{ratio:>13.2f}×")
        print(f"{name:<22}" + "".join(cells))


if __name__ == "__main__":
    main()
