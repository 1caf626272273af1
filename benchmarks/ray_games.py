"""What does Ray cost per game against the local process pool? The same tournament games on
``--jobs N`` processes and on a local Ray cluster of N CPUs (started here, stopped at the end).

Run: ``python benchmarks/ray_games.py [--games 400] [--cpus 2] [--bots greedy random]``. Prints
wall-clock seconds and milliseconds a game for each, and Ray's overhead per game (its wall time
less the pool's, over the games); Ray's start-up (``ray.init``) is timed on its own. Both give
the same results (tests/tournament/test_ray.py). On a shared machine, run it twice.
"""

from __future__ import annotations

import argparse
import platform
import time

from sakura.tournament.runner import RayTarget, run_games
from sakura.tournament.schedule import GAUNTLET, TournamentPlan


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--cpus", type=int, default=2)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", nargs="+", default=["greedy", "random"])
    args = parser.parse_args()
    import ray

    plan = TournamentPlan(
        "sakura", {"players": args.players}, tuple(args.bots), games=args.games, seed=1, mode=GAUNTLET
    )
    setups = plan.setups()
    print(
        f"{len(setups)} games, {args.players} players, {' vs '.join(args.bots)}; {args.cpus} CPUs; "
        f"{platform.processor() or platform.machine()}, Python {platform.python_version()}"
    )
    started = time.perf_counter()
    pool = run_games(setups, jobs=args.cpus)
    pool_s = time.perf_counter() - started
    print(f"process pool:  {pool_s:7.2f} s  {1000 * pool_s / len(setups):7.2f} ms a game")
    started = time.perf_counter()
    ray.init(num_cpus=args.cpus, include_dashboard=False, log_to_driver=False, configure_logging=False)
    init_s = time.perf_counter() - started
    try:
        started = time.perf_counter()
        on_ray = run_games(setups, ray=RayTarget())
        ray_s = time.perf_counter() - started
    finally:
        ray.shutdown()
    assert [r.scores for r in on_ray] == [r.scores for r in pool]
    print(
        f"ray (started): {ray_s:7.2f} s  {1000 * ray_s / len(setups):7.2f} ms a game "
        f"(+ {init_s:.1f} s to start the local cluster)"
    )
    print(f"ray overhead:  {1000 * (ray_s - pool_s) / len(setups):+7.2f} ms a game")


if __name__ == "__main__":
    main()
