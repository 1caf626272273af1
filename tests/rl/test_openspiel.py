"""OpenSpiel: ``python_sakura`` and ``python_sakura_cards`` pass ``pyspiel.random_sim_test``;
OpenSpiel's ``load_game_as_turn_based`` with outcome-sampling MCCFR, and its ISMCTS, run."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts, outcome_sampling_mccfr

import sakura.rl.openspiel_game  # noqa: F401  (registers the games)
from sakura.engine import make_game

GAMES = [
    ("python_sakura", {"players": 2, "variant": "court"}),
    ("python_sakura", {"players": 2, "variant": "tactical"}),
    ("python_sakura", {"players": 3}),
    ("python_sakura", {"players": 4}),
    ("python_sakura", {"players": 5}),
    ("python_sakura", {"players": 6}),
    ("python_sakura", {"players": 4, "turn_based": True}),
    ("python_sakura_cards", {}),
]
GAME_IDS = ["2-court", "2-tactical", "3", "4", "5", "6", "4-turns", "cards"]


@pytest.mark.parametrize(("name", "params"), GAMES, ids=GAME_IDS)
def test_random_sim_test_passes(name: str, params: dict[str, Any]) -> None:
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "params"), GAMES, ids=GAME_IDS)
def test_serialization_is_the_action_history_and_replays_the_same_game(
    name: str, params: dict[str, Any]
) -> None:
    """docs/rl.md: a state serializes as its game and history; deserializing replays them."""
    game = pyspiel.load_game(name, params)
    rng = random.Random(name + str(params))
    state = game.new_initial_state()
    for _ in range(60):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        elif state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, state)
    assert "\nhistory=-1:" in text
    _, again = pyspiel.deserialize_game_and_state(text)
    assert str(again) == str(state) and again.history() == state.history()
    for p in range(game.num_players()):
        assert again.information_state_string(p) == state.information_state_string(p)
        assert again.information_state_tensor(p) == state.information_state_tensor(p)
        assert again.observation_tensor(p) == state.observation_tensor(p)


CPP_ISMCTS = """
import pyspiel, sakura.rl.openspiel_game
from open_spiel.python.games import kuhn_poker
game = pyspiel.load_game({game!r})
evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
final = pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT
bot = pyspiel.ISMCTSBot(0, evaluator, 2.0, 20, 10, final, False, False)
state = game.new_initial_state()
while state.is_chance_node():
    state.apply_action(state.chance_outcomes()[0][0])
print(bot.step(state))
"""


@pytest.mark.parametrize("game", ["python_sakura(players=2,turn_based=true)", "python_kuhn_poker"])
def test_openspiels_cpp_ismcts_crashes_on_python_games_even_its_own(game: str) -> None:
    """docs/rl.md warns: the C++ ISMCTSBot dies (SIGSEGV) on Python games, OpenSpiel's own
    python_kuhn_poker too. If this starts passing, OpenSpiel fixed it: update the docs."""
    result = subprocess.run(
        [sys.executable, "-c", CPP_ISMCTS.format(game=game)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == -signal.SIGSEGV, result.stdout + result.stderr


def test_the_game_declares_what_it_is() -> None:
    game = pyspiel.load_game("python_sakura", {"players": 4})
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.num_players() == 4 and game.num_distinct_actions() == 62
    assert game.observation_tensor_shape() == [627] and game.information_state_tensor_shape() == [627 + 240]
    cards = pyspiel.load_game("python_sakura_cards")
    assert cards.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert pyspiel.load_game("python_sakura(players=3,turn_based=True)").get_type().dynamics == (
        pyspiel.GameType.Dynamics.SEQUENTIAL
    )


def test_the_deal_is_an_explicit_chance_node_and_deal_k_is_the_engines_game_k() -> None:
    game = pyspiel.load_game("python_sakura", {"players": 3, "deals": 16})
    state = game.new_initial_state()
    assert state.is_chance_node() and state.chance_outcomes() == [(k, 1 / 16) for k in range(16)]
    state.apply_action(11)
    assert state.engine.to_json() == make_game("sakura", {"players": 3}).new_initial_state(11).to_json()
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    salted = pyspiel.load_game("python_sakura", {"players": 3, "seed": 1}).new_initial_state()
    salted.apply_action(11)
    expected = make_game("sakura", {"players": 3}).new_initial_state(2**32 + 11).to_json()
    assert salted.engine.to_json() == expected


def test_a_clone_is_independent_and_returns_are_win_shares() -> None:
    game = pyspiel.load_game("python_sakura_cards")
    state = game.new_initial_state()
    state.apply_action(0)
    clone = state.clone()
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert not clone.is_terminal() and clone.engine.to_json() != state.engine.to_json()
    assert sum(state.returns()) == pytest.approx(1.0) and set(state.returns()) <= {0.0, 0.5, 1.0}
    assert clone.history() == [0]


def test_outcome_sampling_mccfr_runs_on_openspiels_turn_based_form() -> None:
    """External-sampling MCCFR would walk every branch of a tree this deep; outcome sampling
    follows one trajectory an iteration."""
    game = pyspiel.load_game_as_turn_based("python_sakura", {"players": 3, "deals": 8})
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(10):
        solver.iteration()
    state = game.new_initial_state()
    state.apply_action(0)
    policy = solver.average_policy().action_probabilities(state)
    assert set(policy) == set(state.legal_actions()) and sum(policy.values()) == pytest.approx(1.0)


SEQUENTIAL = [
    ("python_sakura", {"players": 3, "turn_based": True}),
    ("python_sakura", {"players": 2, "variant": "tactical", "turn_based": True}),
    ("python_sakura_cards", {}),
]


@pytest.mark.parametrize(("name", "params"), SEQUENTIAL, ids=["3-turns", "2-tactical-turns", "cards"])
def test_ismcts_plays_with_resampled_information_states(name: str, params: dict[str, Any]) -> None:
    game = pyspiel.load_game(name, params)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(
        game=game, evaluator=evaluator, uct_c=2.0, max_simulations=15, random_state=np.random.RandomState(1)
    )
    state = game.new_initial_state()
    state.apply_action(3)
    for _ in range(6):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_openspiels_turn_based_wrapper_cannot_resample_so_ismcts_uses_the_native_turns() -> None:
    """Why ISMCTS runs on ``turn_based=True`` rather than on ``load_game_as_turn_based``."""
    state = pyspiel.load_game_as_turn_based("python_sakura", {"players": 3}).new_initial_state()
    state.apply_action(0)
    with pytest.raises(pyspiel.SpielError, match="not implemented"):
        state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
