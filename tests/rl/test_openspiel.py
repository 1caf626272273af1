"""OpenSpiel: ``python_sakura`` (dealt card by card) and ``python_sakura_cards`` pass
``pyspiel.random_sim_test``; OpenSpiel's ISMCTS plays whole games, external-sampling MCCFR
(C++ and Python) and outcome-sampling MCCFR run; OpenSpiel's C++ ISMCTS fails as
``scripts/openspiel_cpp_ismcts.py`` shows (its faults, not the game's)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import external_sampling_mccfr, ismcts, mcts, outcome_sampling_mccfr
from tests.rl.helpers import spiel_deal, spiel_step

import sakura.rl.openspiel_game  # noqa: F401  (registers the games)

GAMES = [
    ("python_sakura", {"players": 2, "variant": "court"}),
    ("python_sakura", {"players": 2, "garden": "G..BT.S", "turn_based": True}),
    ("python_sakura", {"players": 2, "variant": "tactical"}),
    ("python_sakura", {"players": 3}),
    ("python_sakura", {"players": 4}),
    ("python_sakura", {"players": 5}),
    ("python_sakura", {"players": 6}),
    ("python_sakura", {"players": 4, "turn_based": True}),
    ("python_sakura_cards", {}),
]
GAME_IDS = ["2-court", "2-short-turns", "2-tactical", "3", "4", "5", "6", "4-turns", "cards"]
SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "openspiel_cpp_ismcts.py"


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
    for _ in range(120):
        if state.is_terminal():
            break
        spiel_step(state, rng)
    text = pyspiel.serialize_game_and_state(game, state)
    assert "\nhistory=-1:" in text
    _, again = pyspiel.deserialize_game_and_state(text)
    assert str(again) == str(state) and again.history() == state.history()
    for p in range(game.num_players()):
        assert again.information_state_string(p) == state.information_state_string(p)
        assert again.information_state_tensor(p) == state.information_state_tensor(p)
        assert again.observation_tensor(p) == state.observation_tensor(p)


def _script(how: str, game: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), how, game],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )


CPP_GAMES = ["python_kuhn_poker", "python_sakura(players=3,turn_based=true)"]


@pytest.mark.parametrize("game", CPP_GAMES)
def test_openspiels_cpp_ismcts_step_crashes_on_python_games_even_its_own(game: str) -> None:
    """docs/rl.md: ``pyspiel.ISMCTSBot.step`` releases the GIL and then calls the Python game:
    SIGSEGV, on OpenSpiel's own python_kuhn_poker too. If this starts passing, OpenSpiel
    fixed it: update the docs and the script."""
    result = _script("step", game)
    assert result.returncode == -signal.SIGSEGV, result.stdout + result.stderr


@pytest.mark.parametrize("game", CPP_GAMES)
def test_openspiels_cpp_ismcts_cannot_resample_a_python_state(game: str) -> None:
    """With the GIL held (``step_with_policy``) nothing crashes, but the C++ search asks the
    C++ ``ResampleFromInfostate``, which pyspiel does not forward to a Python state."""
    result = _script("step_with_policy", game)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "ResampleFromInfostate() not implemented" in result.stderr


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


def test_the_deal_is_card_by_card_and_the_engine_holds_the_cards_chance_chose() -> None:
    """Each card dealt is a chance node over the cards left: five rounds round the table."""
    game = pyspiel.load_game("python_sakura", {"players": 3})
    assert game.max_chance_outcomes() == 60
    state = game.new_initial_state()
    order = [59, 3, 17, 44, 0, 8, 30, 31, 32, 1, 2, 4, 5, 6, 7]  # outcome ids: card less one
    for k, card in enumerate(order):
        outcomes = state.chance_outcomes()
        assert state.is_chance_node() and len(outcomes) == 60 - k
        assert {a for a, _ in outcomes} == set(range(60)) - set(order[:k])
        assert all(p == pytest.approx(1 / (60 - k)) for _, p in outcomes)
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, card) == f"deal {card + 1}"
        state.apply_action(card)
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    for seat in range(3):
        assert state.engine.hand(seat) == sorted(c + 1 for c in order[seat::3])
    assert len(state.engine.deck) == 45 and state.engine.rng.state == 0  # no shuffle: chance deals


def test_every_later_draw_is_a_chance_node_over_the_deck_and_after_it_the_discard_pile() -> None:
    """The court painter's card and every refill wait for chance, one card a node, drawn
    from the cards the deck holds (the discard pile once it ran out): never more than 60."""
    rng = random.Random(3)
    largest = reshuffles = draws = 0
    for players in (2, 6, 6):  # the court painter's cards; six hands run the deck out
        state = pyspiel.load_game("python_sakura", {"players": players}).new_initial_state()
        spiel_deal(state, rng)
        while not state.is_terminal():
            engine = state.engine
            deck, discard = sorted(engine.deck), sorted(engine.discard)
            spiel_step(state, rng)
            left = set(deck)  # what the deck holds as the move's draws go on
            while state.is_chance_node():  # the move waits for its cards
                offered = {a + 1 for a, _ in state.chance_outcomes()}
                assert state.engine is engine  # not applied yet
                if left:
                    assert offered == left
                else:  # the deck ran out: the discard pile (this round's cards too) is the deck
                    assert offered >= set(discard) and not offered & set(engine.hand(0))
                    reshuffles += 1
                largest = max(largest, len(offered))
                draws += 1
                spiel_step(state, rng)
                left = offered - {state.history()[-1] + 1} if state.is_chance_node() else set()
    assert draws > 100 and reshuffles > 0 and largest <= 60


def test_one_players_information_state_is_blind_to_another_players_cards() -> None:
    """Two deals that differ only in player 1's cards: player 0 sees no difference, in any
    observation or information state, until player 1's card is revealed; player 1 does."""
    game = pyspiel.load_game("python_sakura", {"players": 2, "turn_based": True})
    mine = [0, 10, 20, 30, 40]  # outcome ids: cards 1, 11, 21, 31, 41
    a, b = game.new_initial_state(), game.new_initial_state()
    for state, theirs in ((a, [2, 3, 4, 5, 6]), (b, [50, 51, 52, 53, 54])):
        for k in range(5):
            state.apply_action(mine[k])
            state.apply_action(theirs[k])
    with pytest.raises(ValueError, match="not at a chance node"):
        game.new_initial_state().resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    for step in range(2):
        assert a.current_player() == b.current_player() == step  # player 0 picks, then player 1
        for p, same in ((0, True), (1, False)):
            for what in ("observation_tensor", "information_state_tensor", "observation_string"):
                assert (getattr(a, what)(p) == getattr(b, what)(p)) == same, (p, what)
            assert (a.information_state_string(p) == b.information_state_string(p)) == same
        assert a.legal_actions(0) == b.legal_actions(0)
        a.apply_action(a.legal_actions()[0])
        b.apply_action(b.legal_actions()[0])


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
    """Outcome sampling follows one trajectory an iteration: the whole game is no obstacle."""
    game = pyspiel.load_game_as_turn_based("python_sakura", {"players": 3})
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(10):
        solver.iteration()
    state = game.new_initial_state()
    spiel_deal(state, random.Random(0))
    policy = solver.average_policy().action_probabilities(state)
    assert set(policy) == set(state.legal_actions()) and sum(policy.values()) == pytest.approx(1.0)


# External sampling walks every action of the player it updates at each of that player's
# nodes, so an iteration costs the branching factor to the power of the player's moves: the
# published garden (about 25 moves a player) is out of reach. ``garden=GTS`` (the torii, then
# one sakura) ends at the Emperor's first step forward: two or three moves a game.
SHORT = {"players": 2, "garden": "GTS", "turn_based": True}
CPP_MCCFR = """
import sys, pyspiel, sakura.rl.openspiel_game
game = pyspiel.load_game("python_sakura", {params!r})
solver = pyspiel.ExternalSamplingMCCFRSolver(game, 7, pyspiel.MCCFRAverageType.SIMPLE)
for _ in range({iterations}):
    solver.run_iteration()
policy = solver.average_policy()
state = game.new_initial_state()
while state.is_chance_node():
    state.apply_action(state.chance_outcomes()[0][0])
probs = dict(policy.get_state_policy(state))
assert set(probs) == set(state.legal_actions()) and abs(sum(probs.values()) - 1) < 1e-9, probs
print("ok", len(probs))
"""


def _cpp_mccfr(params: dict[str, Any], iterations: int) -> None:
    """OpenSpiel's C++ external-sampling MCCFR in a subprocess: a crash would be caught."""
    code = CPP_MCCFR.format(params=params, iterations=iterations)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=900, env=env
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("ok"), result.stdout


def test_cpp_external_sampling_mccfr_runs_hundreds_of_iterations_on_the_short_garden() -> None:
    _cpp_mccfr(SHORT, 300)


def _python_mccfr(params: dict[str, Any], iterations: int) -> None:
    game = pyspiel.load_game("python_sakura", params)
    solver = external_sampling_mccfr.ExternalSamplingSolver(game, external_sampling_mccfr.AverageType.SIMPLE)
    for _ in range(iterations):
        solver.iteration()
    state = game.new_initial_state()
    spiel_deal(state, random.Random(1))
    probs = solver.average_policy().action_probabilities(state)
    assert set(probs) == set(state.legal_actions()) and sum(probs.values()) == pytest.approx(1.0)
    assert len(solver._infostates) > 100  # it met many information states, not one


def test_python_external_sampling_mccfr_runs_on_the_short_garden() -> None:
    _python_mccfr(SHORT, 200)


@pytest.mark.soak
@pytest.mark.parametrize("players", [2, 3])
def test_external_sampling_mccfr_runs_a_thousand_iterations(players: int) -> None:
    params = {**SHORT, "players": players}
    _cpp_mccfr(params, 1000)
    _python_mccfr(params, 300)


def _ismcts_game(game: Any, seat: int, simulations: int, seed: int) -> list[float]:
    """One whole game: OpenSpiel's (Python) ISMCTS in ``seat``, uniform random elsewhere."""
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=evaluator,
        uct_c=2.0,
        max_simulations=simulations,
        random_state=np.random.RandomState(seed + 1),
    )
    rng = random.Random(seed)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.current_player() == seat:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
        else:
            spiel_step(state, rng)
    assert decisions > 0
    returns = state.returns()
    assert sum(returns) == pytest.approx(1.0)
    return list(returns)


WHOLE = [
    ("python_sakura", {"players": 2, "turn_based": True}),
    ("python_sakura", {"players": 3, "turn_based": True}),
    ("python_sakura", {"players": 4, "turn_based": True}),
    ("python_sakura", {"players": 2, "variant": "tactical", "turn_based": True}),
    ("python_sakura_cards", {}),
]


@pytest.mark.parametrize(
    ("name", "params"), WHOLE, ids=["2-turns", "3-turns", "4-turns", "2-tactical-turns", "cards"]
)
def test_ismcts_plays_whole_games_with_resampled_information_states(
    name: str, params: dict[str, Any]
) -> None:
    game = pyspiel.load_game(name, params)
    _ismcts_game(game, seat=params.get("players", 2) - 1, simulations=4, seed=3)


@pytest.mark.soak
@pytest.mark.parametrize("players", [2, 3, 4])
def test_ismcts_plays_many_whole_games(players: int) -> None:
    game = pyspiel.load_game("python_sakura", {"players": players, "turn_based": True})
    for seed in range(10):
        _ismcts_game(game, seat=seed % players, simulations=20, seed=seed)


def test_openspiels_turn_based_wrapper_cannot_resample_so_ismcts_uses_the_native_turns() -> None:
    """Why ISMCTS runs on ``turn_based=True`` rather than on ``load_game_as_turn_based``."""
    state = pyspiel.load_game_as_turn_based("python_sakura", {"players": 3}).new_initial_state()
    spiel_deal(state, random.Random(0))
    with pytest.raises(pyspiel.SpielError, match="not implemented"):
        state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
