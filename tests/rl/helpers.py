"""Tables and random positions shared by the RL tests."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from sakura.engine import Game, State, make_game
from sakura.rl.batch import backends

# The backends of SakuraBatchEnv: numpy everywhere, the compiled kernel where it is built
# (skipped with the reason elsewhere).
BATCH_BACKENDS = [
    "numpy",
    pytest.param(
        "compiled", marks=pytest.mark.skipif(backends.kernel() is None, reason=backends.unavailable())
    ),
]

# (game name, config, test id): every table of the platform.
TABLES: list[tuple[str, dict[str, Any], str]] = [
    ("sakura", {"players": 2, "variant": "court"}, "2-court"),
    ("sakura", {"players": 2, "variant": "tactical"}, "2-tactical"),
    ("sakura", {"players": 3}, "3"),
    ("sakura", {"players": 4}, "4"),
    ("sakura", {"players": 5}, "5"),
    ("sakura", {"players": 6}, "6"),
    ("sakura-cards", {}, "cards"),
]
IDS = [t[2] for t in TABLES]
PARAMS = [(t[0], t[1]) for t in TABLES]


def game_of(name: str, config: dict[str, Any]) -> Game[Any]:
    return make_game(name, config)


def random_states(game: Game[Any], seed: int, every: int = 1) -> Iterator[State[Any]]:
    """Every ``every``-th state of one random game (a seeded player picks a current player and
    one of its legal actions), the final state included."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    step = 0
    while True:
        if step % every == 0 or state.is_terminal():
            yield state
        if state.is_terminal():
            return
        player = rng.choice(state.current_players())
        state.apply_action(player, rng.choice(list(state.legal_actions(player))))
        step += 1


def spiel_step(state: Any, rng: Any) -> None:
    """One random step of an OpenSpiel state, whatever its node: a chance outcome (by its
    probability), every player's action at a simultaneous node, or the player's action.
    ``rng`` is a ``random.Random``."""
    import pyspiel  # the rl extra: only the OpenSpiel tests call this

    if state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(outcomes, probs)[0])
    elif state.current_player() == pyspiel.PlayerId.SIMULTANEOUS:
        state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(state.num_players())])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def spiel_deal(state: Any, rng: Any) -> None:
    """Play the chance nodes until a player acts."""
    while state.is_chance_node():
        spiel_step(state, rng)
