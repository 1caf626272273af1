"""How fast do the bots decide? Decisions per second for each bot, and MCTS iterations per second.

Run: ``python benchmarks/bots.py [--views 60] [--iterations 100] [--budget 0.25]``. One process,
one core. The views are real decision points (selection and forward/back choices, each with
at least two legal actions) from games played by greedy bots, so the positions are the ones a
bot meets. "Fits in" is the MCTS iteration count whose mean decision time over those views is
the budget: what ``mcts:N`` to use for "at most 0.25 s a decision" on this machine.
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from typing import Any

from builds import compare_builds
from sakura.bots import MctsBot, make_bot
from sakura.engine.games.sakura import SakuraGame


def decision_views(game: SakuraGame, count: int, seed: int) -> list[Any]:
    """``count`` views of players who must decide between two or more actions."""
    rng = random.Random(seed)
    views: list[Any] = []
    game_seed = seed
    while len(views) < count:
        state = game.new_initial_state(game_seed)
        bots = [make_bot("greedy", game, game_seed * 10 + p) for p in range(game.players)]
        game_seed += 1
        while not state.is_terminal():
            acting = state.current_players()
            chosen = [(p, bots[p].act(state.view(p))) for p in acting]
            for p, _ in chosen:
                view = state.view(p)
                if len(view.legal_actions) > 1 and rng.random() < 0.3:
                    views.append(view)
            for p, action in chosen:
                state.apply_action(p, action)
    return views[:count]


def per_second(game: SakuraGame, spec: str, views: list[Any]) -> tuple[float, float]:
    """(decisions a second, MCTS iterations a second or 0)."""
    bot = make_bot(spec, game, seed=1)
    iterations = 0
    start = time.process_time()
    for view in views:
        bot.act(view)
        if isinstance(bot, MctsBot):
            iterations += bot.last_iterations
    elapsed = time.process_time() - start
    return len(views) / elapsed, iterations / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--views", type=int, default=60, help="decision points per table")
    parser.add_argument("--iterations", type=int, default=100, help="MCTS iterations a decision")
    parser.add_argument("--budget", type=float, default=0.25, help="seconds a decision, for 'fits in'")
    if not compare_builds(__file__):
        return
    args = parser.parse_args()
    print(
        f"Python {platform.python_version()} on {platform.machine()}, one core, "
        f"{args.views} decision points per table"
    )
    mcts = f"mcts:{args.iterations}"
    print(
        f"{'table':<14}{'random/s':>10}{'greedy/s':>10}{mcts + '/s':>13}{'iterations/s':>14}"
        f"{f'fits in {args.budget:g} s':>16}"
    )
    tables = ((2, "court"), (2, "tactical"), (3, "standard"), (4, "standard"), (5, "standard"))
    for players, variant in tables:
        game = SakuraGame(players, variant)
        views = decision_views(game, args.views, seed=players)
        rand, _ = per_second(game, "random", views)
        greedy, _ = per_second(game, "greedy", views)
        search, its = per_second(game, mcts, views)
        print(
            f"{f'{players}p {variant}':<14}{rand:>10,.0f}{greedy:>10,.0f}{search:>13,.1f}{its:>14,.0f}"
            f"{f'mcts:{int(its * args.budget)}':>16}"
        )


if __name__ == "__main__":
    main()
