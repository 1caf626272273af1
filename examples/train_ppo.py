"""Train a masked PPO policy for one seat of Sakura against bots; checkpoint, plot and export it.

Needs the ``train`` extra (``pip install -e '.[dev,train]'``, after PyTorch's CPU build from
its own index as docs/rl.md shows: sb3-contrib's ``MaskablePPO``, PyTorch on the CPU). The
learner plays a seat drawn at each game of ``SakuraSolo-v0``; the other seats are
``--opponents`` bots (greedy by default).

* ``--imitate N`` first warm-starts the network on ``N`` games of a greedy player at the
  learner's seat (cross-entropy on its choices, the value head on its discounted returns), so
  PPO starts from a sensible player instead of a random one.
* Every ``--eval-every`` steps the policy (its most likely legal action) plays ``--eval-games``
  games on fixed deals and seats; its win share is recorded (shared wins count 1/k), and the
  model is checkpointed to ``--checkpoint`` (``model.zip`` and ``curve.json``).
* ``--resume`` continues from the checkpoint (its step count and curve carry on).
* Training stops after ``--minutes`` of wall time or ``--timesteps`` steps (give only
  ``--timesteps`` for a run that reproduces exactly from ``--seed``).
* ``--export FILE.npz`` writes the policy's network for numpy (``sakura.rl.policy``), the file
  the ``policy`` bot plays: the checkpoint with the best evaluation win share (``best.zip``;
  its strength is then measured again on other deals, ``benchmarks/rl_baselines.py``).
  ``--out`` writes a PNG of the curve and a JSON file of its figures.

    python examples/train_ppo.py --players 4 --minutes 9 --imitate 400 \\
        --checkpoint runs/4p --export src/sakura/rl/policies/sakura-4p.npz --out docs/img/rl-ppo-4p.png
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

from sakura.bots import GreedyBot
from sakura.rl import SakuraSoloEnv
from sakura.rl.encoding import LAYOUT_VERSION
from sakura.rl.policy import PolicyNet, table_key

EVAL_SEED = 10_000  # evaluation deals are never trained on with the default training seeds
IMITATE_SEED = 20_000


def make_env(args: argparse.Namespace, seed: int) -> SakuraSoloEnv:
    env = SakuraSoloEnv(args.game, config_of(args), opponents=args.opponents, illegal="raise")
    env.reset(seed=seed)
    return env


def config_of(args: argparse.Namespace) -> dict[str, Any]:
    if args.game == "sakura-cards":
        return {}
    return {"players": args.players, **({"variant": args.variant} if args.variant else {})}


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


def imitate(model: MaskablePPO, args: argparse.Namespace) -> None:
    """Warm-start: fit the policy to a greedy player's choices at the learner's seat, and the
    value head to the discounted returns those games gave it."""
    env = make_env(args, IMITATE_SEED)
    obs_rows, masks, actions, returns = [], [], [], []
    for g in range(args.imitate):
        obs, info = env.reset(seed=IMITATE_SEED + g)
        teacher = GreedyBot(env.game, seed=g)
        rewards, done = [], False
        while not done:
            obs_rows.append(obs)
            masks.append(info["action_mask"].astype(bool))
            act = env.encoder.action_id(str(teacher.act(env._state.view(env.seat))))
            actions.append(act)
            obs, reward, done, _, info = env.step(act)
            rewards.append(reward)
        ret, game_returns = 0.0, []
        for r in reversed(rewards):
            ret = r + model.gamma * ret
            game_returns.append(ret)
        returns += reversed(game_returns)
    policy = model.policy
    x = torch.as_tensor(np.array(obs_rows))
    m = np.array(masks)
    a = torch.as_tensor(np.array(actions))
    v = torch.as_tensor(np.array(returns, dtype=np.float32))
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
    rng = np.random.default_rng(args.seed)
    for epoch in range(args.imitate_epochs):
        order = rng.permutation(len(a))
        total = 0.0
        for start in range(0, len(order), 256):
            batch = order[start : start + 256]
            values, log_prob, _ = policy.evaluate_actions(x[batch], a[batch], action_masks=m[batch])
            loss = -log_prob.mean() + 0.5 * torch.nn.functional.mse_loss(values.flatten(), v[batch])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * len(batch)
        print(
            f"imitation epoch {epoch + 1}: loss {total / len(order):.3f} ({len(order)} decisions)", flush=True
        )


class Evaluate(BaseCallback):
    """Measure the win rate and checkpoint every ``every`` steps; stop once the time is spent."""

    def __init__(self, args: argparse.Namespace, start: float, points: list[dict[str, float]]) -> None:
        super().__init__()
        self.args, self.start = args, start
        self.points = points
        self.minutes_before = points[-1]["minutes"] if points else 0.0
        self.next = 0

    def measure(self) -> None:
        rate = win_rate(self.model, self.args, self.args.eval_games)  # type: ignore[arg-type]
        minutes = self.minutes_before + (time.perf_counter() - self.start) / 60
        self.points.append({"steps": self.num_timesteps, "minutes": round(minutes, 2), "win_rate": rate})
        print(f"{self.num_timesteps:>9,} steps  {minutes:5.1f} min  win rate {rate:.3f}", flush=True)
        self.next = self.num_timesteps + self.args.eval_every
        if self.args.checkpoint:
            save_checkpoint(self.model, self.points, self.args.checkpoint, self.args)  # type: ignore[arg-type]
            if rate >= max(p["win_rate"] for p in self.points):
                self.model.save(self.args.checkpoint / "best.zip")  # type: ignore[union-attr]

    def _on_training_start(self) -> None:
        if not self.points or self.points[-1]["steps"] != self.num_timesteps:
            self.measure()
        else:
            self.next = self.num_timesteps + self.args.eval_every

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next:
            self.measure()
        return time.perf_counter() - self.start < self.args.minutes * 60


def save_checkpoint(
    model: MaskablePPO, points: list[dict[str, float]], folder: Path, args: argparse.Namespace
) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    model.save(folder / "model.zip")
    (folder / "curve.json").write_text(json.dumps(points, indent=1) + "\n", encoding="utf-8")
    run = folder / "run.json"  # how the network began (a resumed run keeps the first run's record)
    if not run.is_file():
        record = {"imitate_games": args.imitate, "seed": args.seed}
        run.write_text(json.dumps(record) + "\n", encoding="utf-8")


def export(
    model: MaskablePPO,
    args: argparse.Namespace,
    env: SakuraSoloEnv,
    path: Path,
    points: list[dict[str, float]],
) -> None:
    """The actor's layers as numpy arrays (``sakura.rl.policy.PolicyNet``)."""
    policy = model.policy
    linears = [m for m in policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    linears.append(policy.action_net)
    if not all(
        isinstance(m, torch.nn.Tanh)
        for m in policy.mlp_extractor.policy_net
        if not isinstance(m, torch.nn.Linear)
    ):
        raise SystemExit("export expects tanh hidden layers (the MlpPolicy default)")
    weights = tuple(lin.weight.detach().numpy().T.copy() for lin in linears)
    biases = tuple(lin.bias.detach().numpy().copy() for lin in linears)
    meta = {
        "table": table_key(env.game),
        "game": args.game,
        "config": config_of(args),
        "layout_version": LAYOUT_VERSION,
        "obs_size": env.encoder.size,
        "num_actions": env.encoder.num_actions,
        "hidden": args.hidden,
        "trained": {
            "method": "MaskablePPO (sb3-contrib)",
            "opponents": args.opponents,
            "imitate_games": args.imitate,
            "seed": args.seed,
            "steps": model.num_timesteps,
            "minutes": points[-1]["minutes"] if points else 0.0,
            "final_eval_win_rate": points[-1]["win_rate"] if points else None,
        },
    }
    PolicyNet(weights, biases, meta).save(path)
    print(f"exported {path} ({path.stat().st_size:,} bytes)")


def plot(points: list[dict[str, float]], baseline: float, args: argparse.Namespace, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot([p["steps"] for p in points], [p["win_rate"] for p in points], marker="o", label="MaskablePPO")
    ax.axhline(baseline, color="grey", linestyle="--", label=f"random player ({baseline:.2f})")
    players = 2 if args.game == "sakura-cards" else args.players
    ax.axhline(
        1 / players,
        color="green",
        linestyle=":",
        label=f"fair share, as strong as the opponents ({1 / players:.2f})",
    )
    table = args.game if args.game == "sakura-cards" else f"{args.game}, {args.players} players"
    ax.set(
        xlabel="training steps (learner decisions)",
        ylabel=f"win share over {args.eval_games} games",
        title=f"{table}: one seat against {args.opponents} bots",
    )
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="sakura", choices=["sakura", "sakura-cards"])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--variant", default="", help="court or tactical (two players)")
    parser.add_argument("--opponents", default="greedy", help="bot spec for the other seats")
    parser.add_argument("--minutes", type=float, default=5.0, help="wall-time budget of this run")
    parser.add_argument("--timesteps", type=int, default=10_000_000, help="upper bound on training steps")
    parser.add_argument("--envs", type=int, default=4, help="environments stepped together")
    parser.add_argument("--hidden", type=int, nargs="+", default=[128, 128], help="hidden layer sizes")
    parser.add_argument("--imitate", type=int, default=0, help="games of greedy play to warm-start on")
    parser.add_argument("--imitate-epochs", type=int, default=4)
    parser.add_argument("--eval-every", type=int, default=20_000)
    parser.add_argument("--eval-games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--checkpoint", type=Path, help="folder for model.zip and curve.json")
    parser.add_argument("--resume", action="store_true", help="continue from --checkpoint")
    parser.add_argument("--export", type=Path, help="write the numpy policy file (.npz)")
    parser.add_argument("--out", type=Path, default=Path("ppo-winrate.png"))
    args = parser.parse_args()

    torch.set_num_threads(1)
    start = time.perf_counter()
    venv = DummyVecEnv([lambda i=i: Monitor(make_env(args, args.seed * 1000 + i)) for i in range(args.envs)])
    points: list[dict[str, float]] = []
    if args.resume:
        if not args.checkpoint or not (args.checkpoint / "model.zip").is_file():
            raise SystemExit("--resume needs a --checkpoint folder holding model.zip")
        model = MaskablePPO.load(args.checkpoint / "model.zip", env=venv)
        points = json.loads((args.checkpoint / "curve.json").read_text(encoding="utf-8"))
        run = args.checkpoint / "run.json"
        if run.is_file():
            args.imitate = json.loads(run.read_text(encoding="utf-8"))["imitate_games"]
        print(f"resumed at {model.num_timesteps:,} steps", flush=True)
    else:
        model = MaskablePPO(
            "MlpPolicy",
            venv,
            n_steps=512,
            batch_size=256,
            learning_rate=3e-4,
            gamma=0.99,
            ent_coef=0.01,
            policy_kwargs={"net_arch": list(args.hidden)},
            seed=args.seed,
            verbose=0,
        )
        if args.imitate:
            imitate(model, args)
    baseline = win_rate(None, args, args.eval_games)
    print(f"random player's win rate {baseline:.3f}", flush=True)
    callback = Evaluate(args, start, points)
    model.learn(total_timesteps=args.timesteps, callback=callback, reset_num_timesteps=not args.resume)
    if callback.points[-1]["steps"] != model.num_timesteps:
        callback.measure()
    figures = {
        "game": args.game,
        "players": args.players,
        "variant": args.variant,
        "opponents": args.opponents,
        "imitate_games": args.imitate,
        "seed": args.seed,
        "eval_games": args.eval_games,
        "random_player_win_rate": baseline,
        "points": callback.points,
    }
    args.out.with_suffix(".json").write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    plot(callback.points, baseline, args, args.out)
    if args.export:
        chosen, chosen_points = model, callback.points
        best = max(callback.points, key=lambda p: p["win_rate"])
        if args.checkpoint and best["win_rate"] > callback.points[-1]["win_rate"]:
            chosen = MaskablePPO.load(args.checkpoint / "best.zip", env=venv)
            chosen_points = callback.points[: callback.points.index(best) + 1]
            print(f"exporting the best checkpoint ({best['steps']:,} steps, win rate {best['win_rate']:.3f})")
        export(chosen, args, venv.envs[0].unwrapped, args.export, chosen_points)  # type: ignore[attr-defined]
    first, last = callback.points[0], callback.points[-1]
    print(
        f"win rate {first['win_rate']:.3f} -> {last['win_rate']:.3f} after {last['steps']:,} steps "
        f"({last['minutes']:.1f} min); plot {args.out}"
    )


if __name__ == "__main__":
    main()
