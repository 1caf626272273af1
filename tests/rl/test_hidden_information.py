"""Observations encode nothing a player may not see.

The proof is by determinization: at states all through random games, for each player, other
full states are drawn that agree with that player's view (``Game.sample_state``: other hands,
secret cards, deck order and generator differ). The player's observation, action mask and,
for OpenSpiel, observation and information-state tensors and strings must not change. The
tests also check that the samples really differ in the hidden part, and that observations do
change with what the player does see (so the invariance is not that of a constant).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from tests.rl.helpers import IDS, PARAMS, game_of, random_states, spiel_deal, spiel_step

import sakura.rl.openspiel_game  # noqa: F401  (registers the games)
from sakura.rl.encoding import encoder_for
from sakura.rl.pettingzoo_env import SakuraParallelEnv

SAMPLES = 4


def _hidden(state: Any) -> Any:
    """Everything of a state, hidden parts included (to tell samples apart)."""
    return state.to_json()


@pytest.mark.parametrize(("name", "config"), PARAMS, ids=IDS)
def test_an_observation_and_its_mask_are_the_same_in_every_state_the_player_cannot_tell_apart(
    name: str, config: dict[str, Any]
) -> None:
    game = game_of(name, config)
    enc = encoder_for(game)
    rng = random.Random(name + str(config))
    checked = differed = 0
    for seed in range(4):
        for state in random_states(game, seed, every=2):
            if state.is_terminal():
                continue
            for seat in range(game.num_players):
                view = state.view(seat)
                obs, mask = enc.encode(view), enc.mask(view)
                for _ in range(SAMPLES):
                    sample = game.sample_state(view, rng.randrange(2**32))
                    other = sample.view(seat)
                    assert np.array_equal(enc.encode(other), obs), f"seed {seed}, seat {seat}: observation"
                    assert np.array_equal(enc.mask(other), mask), f"seed {seed}, seat {seat}: mask"
                    checked += 1
                    differed += _hidden(sample) != _hidden(state)
    assert checked > 200
    assert differed > checked * 0.9, "the samples should differ from the true state in what is hidden"


@pytest.mark.parametrize(("name", "config"), PARAMS, ids=IDS)
def test_observations_change_with_what_the_player_sees(name: str, config: dict[str, Any]) -> None:
    """Not a constant: two seats see different hands, and the game moving on changes the view."""
    game = game_of(name, config)
    enc = encoder_for(game)
    states = list(_snapshots(game, seed=3))
    firsts = [enc.encode(states[0].view(seat)) for seat in range(game.num_players)]
    assert not np.array_equal(firsts[0], firsts[1])
    later = [enc.encode(s.view(0)) for s in states[1:]]
    assert all(not np.array_equal(firsts[0], obs) for obs in later)


def _snapshots(game: Any, seed: int) -> list[Any]:
    return [s.clone() for i, s in enumerate(random_states(game, seed)) if i in (0, 4, 9)]


@pytest.mark.parametrize(("name", "config"), PARAMS, ids=IDS)
def test_the_parallel_env_observes_each_agent_from_its_own_view_only(
    name: str, config: dict[str, Any]
) -> None:
    """Swap the env's game for a determinization of one agent's view: that agent's
    observation (tensor and mask) stays the same, whether asked alone (``observe``) or made
    with every other seat's as a step makes them."""
    env = SakuraParallelEnv(name, config)
    observations, _ = env.reset(seed=21)
    rng = np.random.default_rng(0)
    for _ in range(12):
        actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in observations.items()}
        observations, *_ = env.step(actions)
        if not env.agents:
            break
        true_state, legal = env._state, env._legal
        for seat, agent in enumerate(env.possible_agents):
            env._state = env.game.sample_state(true_state.view(seat), int(rng.integers(2**32)))
            again = env.observe(agent)
            batch = env._observe()[0][agent]  # the step's own path: every seat's views at once
            env._state, env._legal = true_state, legal
            for seen in (again, batch):
                assert np.array_equal(seen["observation"], observations[agent]["observation"])
                assert np.array_equal(seen["action_mask"], observations[agent]["action_mask"])


OPENSPIEL = [
    ("python_sakura", {"players": 2, "variant": "court"}),
    ("python_sakura", {"players": 2, "variant": "tactical"}),
    ("python_sakura", {"players": 4}),
    ("python_sakura", {"players": 6, "turn_based": True}),
    ("python_sakura_cards", {}),
]
OPENSPIEL_IDS = ["2-court", "2-tactical", "4", "6-turns", "cards"]


@pytest.mark.parametrize(("name", "params"), OPENSPIEL, ids=OPENSPIEL_IDS)
def test_openspiel_tensors_and_strings_are_the_same_in_a_resampled_state(
    name: str, params: dict[str, Any]
) -> None:
    """``resample_from_infostate`` draws another world from the player's view; what OpenSpiel
    shows the player there (observation and information state, tensor and string, legal
    actions) is what it shows in the true state."""
    game = pyspiel.load_game(name, params)
    rng = random.Random(1)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = game.new_initial_state()
    steps = differed = 0
    while not state.is_terminal() and steps < 40:
        spiel_deal(state, rng)  # the draws a move waits for: ISMCTS resamples where players act
        if state.is_terminal():
            break
        for p in range(game.num_players()):
            other = state.resample_from_infostate(p, sampler)
            differed += other.engine.to_json() != state.engine.to_json()
            for what in ("observation_tensor", "information_state_tensor"):
                assert np.array_equal(getattr(other, what)(p), getattr(state, what)(p)), what
            for what in ("observation_string", "information_state_string", "legal_actions"):
                assert getattr(other, what)(p) == getattr(state, what)(p), what
        spiel_step(state, rng)
        steps += 1
    assert differed > steps * game.num_players() * 0.9


def test_the_information_state_remembers_what_the_view_forgets() -> None:
    """Sakura's view forgets who played which card in earlier rounds (only the discard pile
    stays); the information-state tensor keeps it, and only from the player's own views."""
    game = pyspiel.load_game("python_sakura", {"players": 3})
    state = game.new_initial_state()
    rng = random.Random(2)
    spiel_deal(state, rng)
    enc = state._shared.encoder
    first_round: set[tuple[int, int]] = set()
    while state.engine.round == 1:
        first_round.update(state.engine.view(0).revealed)
        spiel_step(state, rng)
    first_round.update(state.engine.view(0).revealed)
    played = np.asarray(state.information_state_tensor(0))[enc.size :].reshape(enc.painters, enc.cards)
    for seat, card in first_round:
        assert played[seat, game.shared.encoder.card[card]] == 1.0  # seat 0's own rotation is the identity
    assert played.sum() == len(first_round)
