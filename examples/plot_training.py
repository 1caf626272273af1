"""Draw the training curves of the shipped policies side by side, from the figures
``examples/train_ppo.py`` wrote (``docs/img/rl-ppo-2p.json``...).

    python examples/plot_training.py docs/img/rl-ppo-2p.json docs/img/rl-ppo-4p.json \\
        docs/img/rl-ppo-6p.json --out docs/img/rl-ppo-curves.png
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("figures", type=Path, nargs="+")
    parser.add_argument("--out", type=Path, default=Path("rl-ppo-curves.png"))
    args = parser.parse_args()
    runs = [json.loads(path.read_text(encoding="utf-8")) for path in args.figures]
    fig, axes = plt.subplots(1, len(runs), figsize=(4.2 * len(runs), 3.8), squeeze=False)
    for ax, run in zip(axes[0], runs, strict=True):
        points = run["points"]
        fair = 1 / run["players"]
        ax.plot(
            [p["steps"] / 1000 for p in points],
            [p["win_rate"] for p in points],
            marker="o",
            label="MaskablePPO (greedy play)",
        )
        ax.axhline(fair, color="green", linestyle=":", label=f"fair share ({fair:.2f}), greedy's level")
        ax.axhline(
            run["random_player_win_rate"],
            color="grey",
            linestyle="--",
            label=f"random player ({run['random_player_win_rate']:.2f})",
        )
        minutes = points[-1]["minutes"]
        ax.set(
            title=f"{run['players']} players against {run['opponents']} bots ({minutes:.0f} min)",
            xlabel="training steps (thousands)",
            ylim=(0, max(0.6, fair * 1.6)),
        )
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="upper left")
    axes[0][0].set_ylabel(f"win share over {runs[0]['eval_games']} evaluation games")
    fig.suptitle("Imitation warm start (steps 0), then masked PPO; one core, shared")
    fig.tight_layout()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=100)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
