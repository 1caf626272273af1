"""OpenSpiel's (Python) ISMCTS on ``python_sakura``, dealt card by card: its win share against
uniform random players and against the platform's ``greedy`` bots, with 95% Wilson intervals
(docs/rl.md shows them).

Run: ``python benchmarks/openspiel_ismcts.py [--players 2 4] [--games 40] [--simulations 16]
[--opponents random greedy]``.

Game ``g`` seats ISMCTS at seat ``g % players`` of the turn-based game (``turn_based=True``:
ISMCTS needs sequential moves), the opponents in the other seats; chance is drawn from
``random.Random(g)``. ISMCTS searches ``--simulations`` worlds a decision, each drawn by the
game's ``resample_from_infostate`` from its own view, with one random rollout as the value.
A shared win counts 1/k; the fair share is 1/players. The search runs in Python (OpenSpiel's
C++ ``ISMCTSBot`` cannot play a Python game: ``scripts/openspiel_cpp_ismcts.py``): at 16
simulations a game took 10 to 25 s of wall time on a loaded 2-core machine, so the game
counts are small.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import sakura.rl.openspiel_game  # noqa: F401  (registers the games)
from sakura.bots import make_bot
from sakura.tournament.ratings import wilson


def play(game: Any, seat: int, simulations: int, opponent: str, g: int) -> float:
    """One game; ISMCTS's share of the win."""
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(g))
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=evaluator,
        uct_c=2.0,
        max_simulations=simulations,
        random_state=np.random.RandomState(g + 1),
    )
    rng = random.Random(g)
    shared = game.shared
    greedy = {p: make_bot("greedy", shared.game, g * 10 + p) for p in range(shared.players)}
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        player = state.current_player()
        if player == seat:
            state.apply_action(bot.step(state))
        elif opponent == "random":
            state.apply_action(rng.choice(state.legal_actions()))
        else:  # the platform's greedy bot, from its own view
            action = greedy[player].act(state.engine.view(player))
            state.apply_action(shared.encoder.ids[str(action)])
    return float(state.returns()[seat])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--simulations", type=int, default=16)
    parser.add_argument("--opponents", nargs="+", default=["random", "greedy"], choices=["random", "greedy"])
    args = parser.parse_args()
    print(f"**OpenSpiel's ISMCTS ({args.simulations} simulations a decision) on python_sakura**\n")
    print("| table | opponents | games | ISMCTS's win share | 95% interval | fair | × fair | s a game |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for players in args.players:
        game = pyspiel.load_game("python_sakura", {"players": players, "turn_based": True})
        for opponent in args.opponents:
            start = time.perf_counter()
            won = sum(play(game, g % players, args.simulations, opponent, g) for g in range(args.games))
            took = (time.perf_counter() - start) / args.games
            low, high = wilson(won, args.games)
            fair = 1 / players
            print(
                f"| {players} players | {opponent} | {args.games} | {won / args.games:.1%} | "
                f"{low:.1%} – {high:.1%} | {fair:.1%} | {won / args.games / fair:.2f} | {took:.1f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
