"""Train a masked PPO policy for one seat of Sakura against random bots, and plot its win rate.

Needs the ``train`` extra (``pip install -e '.[rl,train]'``: sb3-contrib's ``MaskablePPO``,
PyTorch on the CPU). The learner plays a seat drawn at each game of ``SakuraSolo-v0``; the
other seats are ``--opponents`` bots. Every ``--eval-every`` steps the policy (its most likely
legal action) plays ``--eval-games`` games on fixed deals and seats, and its win rate is
recorded (shared wins count 1/k); training stops after ``--minutes`` or ``--timesteps``.
Writes a PNG plot and a JSON file of the figures.

    python examples/train_ppo.py --players 4 --minutes 5 --out docs/img/rl-ppo-winrate.png
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv

from sakura.rl import SakuraSoloEnv

EVAL_SEED = 10_000  # evaluation deals are never trained on with the default training seed


def make_env(args: argparse.Namespace, seed: int) -> SakuraSoloEnv:
    config: dict[str, Any] = {} if args.game == "sakura-cards" else {"players": args.players}
    env = SakuraSoloEnv(args.game, config, opponents=args.opponents)
    env.reset(seed=seed)
    return env


def win_rate(model: MaskablePPO | None, args: argparse.Namespace, games: int) -> float:
    """The policy's (or, with ``model=None``, a uniformly random player's) share of wins over
    ``games`` fixed deals: deal ``i`` is ``reset(seed=EVAL_SEED + i)``."""
    env = make_env(args, EVAL_SEED)
    rng = np.random.default_rng(0)
    won = 0.0
    for i in range(games):
        obs, info = env.reset(seed=EVAL_SEED + i)
        done = False
        while not done:
            mask = info["action_mask"].astype(bool)
            if model is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action, _ = model.predict(obs, action_masks=mask, deterministic=True)
            obs, _, done, _, info = env.step(int(action))
        won += 1.0 / len(info["winners"]) if info["won"] else 0.0
    return won / games


class Evaluate(BaseCallback):
    """Measure the win rate every ``every`` steps; stop once the time budget is spent."""

    def __init__(self, args: argparse.Namespace, start: float) -> None:
        super().__init__()
        self.args, self.start = args, start
        self.points: list[dict[str, float]] = []
        self.next = 0

    def measure(self) -> None:
        rate = win_rate(self.model, self.args, self.args.eval_games)  # type: ignore[arg-type]
        minutes = (time.perf_counter() - self.start) / 60
        self.points.append({"steps": self.num_timesteps, "minutes": round(minutes, 2), "win_rate": rate})
        print(f"{self.num_timesteps:>9,} steps  {minutes:5.1f} min  win rate {rate:.3f}", flush=True)
        self.next = self.num_timesteps + self.args.eval_every

    def _on_training_start(self) -> None:
        self.measure()

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next:
            self.measure()
        return time.perf_counter() - self.start < self.args.minutes * 60


def plot(points: list[dict[str, float]], baseline: float, args: argparse.Namespace, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot([p["steps"] for p in points], [p["win_rate"] for p in points], marker="o", label="MaskablePPO")
    ax.axhline(baseline, color="grey", linestyle="--", label=f"random player ({baseline:.2f})")
    table = args.game if args.game == "sakura-cards" else f"{args.game}, {args.players} players"
    ax.set(xlabel="training steps (learner decisions)", ylabel=f"win rate over {args.eval_games} games",
           title=f"{table}: one seat against {args.opponents} bots")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="sakura", choices=["sakura", "sakura-cards"])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--opponents", default="random", help="bot spec for the other seats")
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--timesteps", type=int, default=10_000_000, help="upper bound on training steps")
    parser.add_argument("--envs", type=int, default=4, help="environments stepped together")
    parser.add_argument("--eval-every", type=int, default=20_000)
    parser.add_argument("--eval-games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("ppo-winrate.png"))
    args = parser.parse_args()

    torch.set_num_threads(1)
    start = time.perf_counter()
    venv = DummyVecEnv([lambda i=i: Monitor(make_env(args, args.seed * 1000 + i)) for i in range(args.envs)])
    model = MaskablePPO("MlpPolicy", venv, n_steps=512, batch_size=256, learning_rate=3e-4, gamma=0.99,
                        ent_coef=0.01, policy_kwargs={"net_arch": [256, 256]}, seed=args.seed, verbose=0)
    baseline = win_rate(None, args, args.eval_games)
    print(f"random player's win rate {baseline:.3f}", flush=True)
    callback = Evaluate(args, start)
    model.learn(total_timesteps=args.timesteps, callback=callback)
    if callback.points[-1]["steps"] != callback.num_timesteps:
        callback.measure()
    figures = {"game": args.game, "players": args.players, "opponents": args.opponents,
               "eval_games": args.eval_games, "random_player_win_rate": baseline, "points": callback.points}
    args.out.with_suffix(".json").write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    plot(callback.points, baseline, args, args.out)
    first, last = callback.points[0], callback.points[-1]
    print(f"win rate {first['win_rate']:.3f} -> {last['win_rate']:.3f} after {last['steps']:,} steps "
          f"({last['minutes']:.1f} min); plot {args.out}")


if __name__ == "__main__":
    main()
