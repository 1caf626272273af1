"""Random playouts: the simplest opponent, for simulations and tests.

A uniform choice among the legal actions of the first player who must act; the choice comes
from the caller's seeded ``random.Random``, so a playout is reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, TypeVar

from sakura.engine import Action, Game, State
from sakura.records.record import GameRecord, Recorder

A = TypeVar("A", bound=Action)


def random_action(state: State[A], player: int, rng: random.Random) -> A:
    actions = state.legal_actions(player)
    return actions[rng.randrange(len(actions))]


def random_playout(
    game: Game[Any], seed: int, *, players: Sequence[str] | None = None, date: str | None = None
) -> GameRecord:
    """Play one game of uniformly random actions (deal from ``seed``, choices from a
    ``random.Random(seed)``) and return its record."""
    rng = random.Random(seed)
    recorder = Recorder(game, seed, players, date=date)
    state = recorder.state
    while not state.is_terminal():
        player = state.current_players()[0]
        recorder.apply(player, random_action(state, player, rng))
    return recorder.finish()
