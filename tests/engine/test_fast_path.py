"""The fast path is a declared capability of the game protocol (``FastGame``), not something
callers probe for: both of the platform's games declare it, a game that does not is played
on the checked path by the same calls, and the fast path plays the same game."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.bots.toy_game import PrizeBidsGame
from tests.conformance import Playout, check_fast_path, play_checked

from sakura.engine import FastGame, Game, fast_path, make_game
from sakura.engine.games.cards import CardsGame, CardsState
from sakura.engine.games.sakura import SakuraState

GAMES = [
    ("sakura", {"players": 2, "variant": "court"}),
    ("sakura", {"players": 2, "variant": "tactical"}),
    ("sakura", {"players": 5}),
    ("sakura-cards", {}),
]
IDS = ["sakura-2-court", "sakura-2-tactical", "sakura-5", "cards"]


@pytest.mark.parametrize(("name", "config"), GAMES, ids=IDS)
def test_both_games_declare_the_fast_path(name: str, config: dict[str, Any]) -> None:
    game = make_game(name, config)
    assert isinstance(game, FastGame)
    path = fast_path(game)
    assert path.fast
    state = path.new_state(3)
    assert isinstance(state, SakuraState | CardsState)
    assert state._log is None  # no event values are built on the fast path
    step = path.stepper(state)
    assert step == state.apply_fast  # the bound method, no wrapper in the hot loop
    player = state.current_players()[0]
    assert step(player, state.legal_actions(player)[0]) is None
    sample = game.sample_state(game.new_initial_state(3).view(0), 9)
    assert sample._log is None and path.stepper(sample) == sample.apply_fast


def test_a_game_without_the_fast_path_is_played_on_the_checked_path() -> None:
    """The toy game of the bots' tests implements only :class:`Game`: the same calls give a
    checked state and ``apply_action``, so callers need no second code path."""
    game: Game[Any] = PrizeBidsGame()
    assert not isinstance(game, FastGame)
    path = fast_path(game)
    assert not path.fast
    state = path.new_state(5)
    assert path.stepper(state) == state.apply_action
    player = state.current_players()[0]
    events = path.stepper(state)(player, state.legal_actions(player)[0])
    assert isinstance(events, list)
    assert check_fast_path(game, Playout(5)) is False


@pytest.mark.parametrize(("name", "config"), GAMES, ids=IDS)
def test_the_fast_path_plays_the_same_random_games(name: str, config: dict[str, Any]) -> None:
    """The conformance check of the fast path, on its own, over more random games."""
    game = make_game(name, config)
    for seed in random.Random(name + str(config)).sample(range(10**6), 15):
        assert check_fast_path(game, play_checked(game, seed))


def test_the_fast_path_check_catches_a_fast_path_that_differs() -> None:
    """The check can fail: a game whose fast states start from another deal is caught."""

    class Broken(CardsGame):
        def new_fast_state(self, seed: int | str = 0) -> CardsState:
            return super().new_fast_state(f"{seed} and then some")

    game = Broken()
    with pytest.raises(AssertionError):
        check_fast_path(game, play_checked(game, 1))
