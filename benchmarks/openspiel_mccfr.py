"""OpenSpiel's C++ external-sampling MCCFR on the short garden (``python_sakura`` with
``garden=GTS``, turn-based): its average policy's win share against uniform random players
after a number of iterations, with 95% Wilson intervals (docs/rl.md shows them).

Run: ``python benchmarks/openspiel_mccfr.py [--players 2 3] [--iterations 0 100 1000]
[--games 2000]``.

The solver trains for each count of iterations in turn (one solver, its iterations added
up); after each, game ``g`` seats the average policy at seat ``g % players`` and uniform
random players elsewhere, chance drawn from ``random.Random(g)``. A shared win counts 1/k;
the fair share is 1/players. ``GTS`` is the torii, then one sakura: the game ends when the
Emperor first steps forward (about 2.5 moves), which is what makes external sampling
affordable (docs/rl.md says why). Times are CPU seconds (the machine is shared).
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import pyspiel

import sakura.rl.openspiel_game  # noqa: F401  (registers the games)
from sakura.tournament.ratings import wilson


def play(game: Any, policy: Any, seat: int, g: int) -> float:
    """One game; the policy's share of the win (``policy`` None: uniform random).
    (``pyspiel.UniformRandomPolicy`` tabulates every information state of the game first:
    on Sakura it never finishes.)"""
    rng = random.Random(g)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        elif state.current_player() == seat and policy is not None:
            actions, probs = zip(*policy.get_state_policy(state), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return float(state.returns()[seat])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3])
    parser.add_argument("--iterations", type=int, nargs="+", default=[0, 100, 1000])
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()
    print("**OpenSpiel's C++ external-sampling MCCFR on `python_sakura(garden=GTS,turn_based=true)`**\n")
    print("| table | iterations | CPU s | games | win share vs random | 95% interval | fair | × fair |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for players in args.players:
        game = pyspiel.load_game("python_sakura", {"players": players, "garden": "GTS", "turn_based": True})
        solver = pyspiel.ExternalSamplingMCCFRSolver(game, 7, pyspiel.MCCFRAverageType.SIMPLE)
        done, cpu = 0, 0.0
        for target in sorted(args.iterations):
            start = time.process_time()
            for _ in range(target - done):
                solver.run_iteration()
            cpu += time.process_time() - start
            done = target
            policy = solver.average_policy() if done else None  # None: uniform, before any iteration
            won = sum(play(game, policy, g % players, g) for g in range(args.games))
            low, high = wilson(won, args.games)
            fair = 1 / players
            share = won / args.games
            print(
                f"| {players} players | {done} | {cpu:.1f} | {args.games} | {share:.1%} | "
                f"{low:.1%} – {high:.1%} | {fair:.1%} | {share / fair:.2f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
