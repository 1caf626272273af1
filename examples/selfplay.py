"""Self-play at scale: train a masked policy/value network by PPO on the batched engine against
a league of its past versions and the bots; checkpoint, resume, curves, numpy export.

Needs PyTorch (the ``train`` extra; the CPU build, docs/rl.md). The loop lives in
``sakura.rl.selfplay`` (see its modules); this is its command line:

    nice -n 15 python examples/selfplay.py --players 4 --seed 1 --minutes 60 --imitate 2000 \\
        --folder runs/selfplay-4p-s1 --export runs/selfplay-4p-s1/sakura-4p.npz

* ``--folder`` holds ``checkpoint.pt`` (model, optimizer, league, the tables mid-game, RNG),
  ``curve.csv`` (one row an evaluation: the win share against ``--eval-bot`` and, every
  ``--expert-every`` evaluations, against ``--expert``) and ``best.npz`` (the evaluation's
  best); ``--resume`` continues from it exactly (the same next update as without a stop).
* ``--updates`` bounds the run (exactly reproducible from ``--seed``); ``--minutes`` bounds
  this call's wall time instead.
* ``--ray N`` plays the rollouts on N Ray actors, ``--tables`` tables each (the ``cluster``
  extra; ``sakura.rl.selfplay.distributed``); without Ray the option says so and stops.
* ``examples/plot_selfplay.py`` draws the curves of several seeds with their interval.
"""

from __future__ import annotations

import os

# One BLAS thread: the past versions' numpy forward passes are small, and a thread pool's
# spinning costs 4-5x their time on a busy machine (measured: 49 ms against 11 ms a product).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
from pathlib import Path  # noqa: E402

from sakura.rl.selfplay.ppo import PPOSettings  # noqa: E402
from sakura.rl.selfplay.trainer import Config, Trainer  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="sakura", choices=["sakura", "sakura-cards"])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--variant", default=None, help="court or tactical (two players; court is the default)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tables", type=int, default=128, help="tables of the batched env")
    parser.add_argument("--steps", type=int, default=32, help="steps of every table per update")
    parser.add_argument("--hidden", type=int, nargs="+", default=[256, 256])
    parser.add_argument("--updates", type=int, default=10**9)
    parser.add_argument("--minutes", type=float, default=None, help="wall-time budget of this call")
    parser.add_argument("--snapshot-every", type=int, default=10)
    parser.add_argument("--league-size", type=int, default=20)
    parser.add_argument("--bots", default="greedy", help="bot specs of the league, comma-separated")
    parser.add_argument("--bot-share", type=float, default=0.25, help="share of games against bots")
    parser.add_argument("--past-share", type=float, default=0.5, help="share against past versions")
    parser.add_argument("--imitate", type=int, default=0, help="games of the first bot to warm-start on")
    parser.add_argument(
        "--init", type=Path, help="start the actor and critic from a policy file of the table (.npz)"
    )
    parser.add_argument("--eval-every", type=int, default=10)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--eval-bot", default="greedy")
    parser.add_argument("--expert", default="mcts:200")
    parser.add_argument("--expert-every", type=int, default=0, help="every how many evaluations (0: never)")
    parser.add_argument("--expert-games", type=int, default=12)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--ent-coef", type=float, default=0.01)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--minibatch", type=int, default=2048)
    parser.add_argument("--folder", type=Path, help="checkpoint, curve.csv and best.npz")
    parser.add_argument("--resume", action="store_true", help="continue from --folder's checkpoint")
    parser.add_argument("--export", type=Path, help="write the final policy (.npz, value head included)")
    parser.add_argument("--export-best", type=Path, help="copy the best evaluated policy here")
    parser.add_argument("--ray", type=int, default=0, help="rollout actors on Ray (needs the cluster extra)")
    args = parser.parse_args()

    if args.ray:
        from sakura.rl.selfplay.distributed import ParallelTables, parallel_tables, require_ray

        require_ray()
    if args.resume:
        if not args.folder or not (args.folder / "checkpoint.pt").is_file():
            raise SystemExit("--resume needs a --folder holding checkpoint.pt")
        trainer = Trainer.load(args.folder / "checkpoint.pt", args.folder)
        print(f"resumed at update {trainer.update} ({trainer.decisions:,} decisions)", flush=True)
    else:
        config = Config(
            game=args.game,
            players=2 if args.game == "sakura-cards" else args.players,
            variant=args.variant,
            seed=args.seed,
            tables=args.tables,
            steps=args.steps,
            hidden=tuple(args.hidden),
            snapshot_every=args.snapshot_every,
            league_size=args.league_size,
            bots=tuple(b.strip() for b in args.bots.split(",") if b.strip()),
            bot_share=args.bot_share,
            past_share=args.past_share,
            imitate=args.imitate,
            init=str(args.init) if args.init else None,
            eval_every=args.eval_every,
            eval_games=args.eval_games,
            eval_bot=args.eval_bot,
            expert=args.expert,
            expert_every=args.expert_every,
            expert_games=args.expert_games,
            ppo=PPOSettings(lr=args.lr, ent_coef=args.ent_coef, epochs=args.epochs, minibatch=args.minibatch),
        )
        trainer = Trainer(config, args.folder)
    if args.ray:
        if isinstance(trainer.tables, ParallelTables):  # a resumed --ray run: its workers' tables
            trainer.tables.to_ray()
        else:
            trainer.tables = parallel_tables(trainer, args.ray, ray=True)  # type: ignore[assignment]
    trainer.run(args.updates, args.minutes, log=lambda line: print(line, flush=True))
    if args.export:
        trainer.export(args.export)
        print(f"exported {args.export}")
    if args.export_best and args.folder and (args.folder / "best.npz").is_file():
        args.export_best.write_bytes((args.folder / "best.npz").read_bytes())
        ratio, at = trainer.best
        print(f"best (update {at}, {ratio:.2f}× vs {trainer.config.eval_bot}) -> {args.export_best}")


if __name__ == "__main__":
    main()
