"""How fast is the rules engine? Random full games, engine steps and state clones per second.

Run: ``python benchmarks/engine.py [--seconds 3]``. One process, one core. "Fast" plays with
``events=False`` and ``apply_fast`` (what simulations and tree search use); "checked" plays
through the public ``apply_action`` with every check and every event, as a server would.
A step is one action (a card chosen, or a choice answered); cards resolve inside steps.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from builds import compare_builds
from sakura.engine.games.sakura import SakuraGame, SakuraState


def play_fast(game: SakuraGame, seed: int, rng: random.Random) -> int:
    state = game.new_initial_state(seed, events=False)
    steps = 0
    rand = rng.random
    while not state.terminal:
        player = state.current_players()[0]
        actions = state.legal_actions(player)
        state.apply_fast(player, actions[int(rand() * len(actions))])
        steps += 1
    return steps


def play_checked(game: SakuraGame, seed: int, rng: random.Random) -> int:
    state = game.new_initial_state(seed)
    steps = 0
    while not state.is_terminal():
        player = state.current_players()[0]
        actions = state.legal_actions(player)
        state.apply_action(player, actions[rng.randrange(len(actions))])
        steps += 1
    return steps


def measure(game: SakuraGame, seconds: float, play: object) -> tuple[float, float]:
    assert callable(play)
    rng = random.Random(0)
    games = steps = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        steps += play(game, games, rng)
        games += 1
    return games / elapsed, steps / elapsed


def clones_per_second(game: SakuraGame, seconds: float) -> float:
    # A mid-game state: play a few rounds first.
    state: SakuraState = game.new_initial_state(1, events=False)
    rng = random.Random(1)
    for _ in range(20):
        player = state.current_players()[0]
        state.apply_fast(player, rng.choice(state.legal_actions(player)))
    n = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        for _ in range(1000):
            state.clone()
        n += 1000
    return n / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    if not compare_builds(__file__):
        return
    args = parser.parse_args()
    print(
        f"Python {platform.python_version()} on {platform.machine()}, one core, {args.seconds:g} s per figure"
    )
    print(
        f"{'table':<14}{'games/s fast':>14}{'steps/s fast':>14}"
        f"{'games/s checked':>17}{'steps/s checked':>17}{'clones/s':>12}"
    )
    for players, variant in ((2, "court"), (2, "tactical"), (4, "standard"), (6, "standard")):
        game = SakuraGame(players, variant)
        fast_games, fast_steps = measure(game, args.seconds, play_fast)
        checked_games, checked_steps = measure(game, args.seconds, play_checked)
        clones = clones_per_second(game, args.seconds / 2)
        print(
            f"{f'{players}p {variant}':<14}{fast_games:>14,.0f}{fast_steps:>14,.0f}"
            f"{checked_games:>17,.0f}{checked_steps:>17,.0f}{clones:>12,.0f}"
        )


if __name__ == "__main__":
    main()
