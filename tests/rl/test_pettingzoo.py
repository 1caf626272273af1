"""The PettingZoo ParallelEnv: PettingZoo's own API and seed tests (and ``api_test`` on its AEC
conversion) at every table, the ignored-actions rule, illegal actions, seeds and rewards."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test
from tests.rl.helpers import IDS, PARAMS

from sakura.engine import make_game
from sakura.rl.pettingzoo_env import SakuraParallelEnv, env, parallel_env

# A dict observation ({"observation", "action_mask"}), as PettingZoo's own board games have,
# draws these two notes from api_test; any other warning fails the test.
EXPECTED_NOTES = ("Observation space for each agent probably should be", "Observation is not a NumPy array")


def _unexpected(caught: list[warnings.WarningMessage]) -> list[str]:
    return [str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_NOTES)]


@pytest.mark.parametrize(("name", "config"), PARAMS, ids=IDS)
def test_pettingzoo_parallel_api_seed_and_aec_api_tests_pass(name: str, config: dict[str, Any]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            parallel_api_test(SakuraParallelEnv(name, config), num_cycles=1000)
        # parallel_seed_test samples actions without the masks: it needs illegal="replace"
        parallel_seed_test(lambda: SakuraParallelEnv(name, config, illegal="replace"))
        api_test(env(game=name, config=config), num_cycles=1000)
    assert not _unexpected(caught)


def _play(env_: SakuraParallelEnv, seed: int, policy_seed: int = 0) -> list[Any]:
    """A whole game with a seeded random masked policy; returns every step's output."""
    rng = np.random.default_rng(policy_seed)
    observations, _ = env_.reset(seed=seed)
    trace = []
    while env_.agents:
        actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in observations.items()}
        out = env_.step(actions)
        observations = out[0]
        trace.append(out)
    return trace


def test_reset_with_a_seed_plays_the_engines_game_of_that_seed() -> None:
    env_ = SakuraParallelEnv("sakura", {"players": 4})
    env_.reset(seed=2030)
    assert env_._state.to_json() == make_game("sakura", {"players": 4}).new_initial_state(2030).to_json()
    first = _play(env_, 5)
    second = _play(SakuraParallelEnv("sakura", {"players": 4}), 5)
    assert len(first) == len(second)
    for a, b in zip(first, second, strict=True):
        assert all(np.array_equal(a[0][k]["observation"], b[0][k]["observation"]) for k in a[0])
        assert a[1:] == b[1:]
    env_.reset(seed=1)
    unseeded = [env_.reset()[0]["player_0"]["observation"] for _ in range(2)]
    env_.reset(seed=1)
    again = [env_.reset()[0]["player_0"]["observation"] for _ in range(2)]
    assert all(np.array_equal(x, y) for x, y in zip(unseeded, again, strict=True))


def test_at_a_choice_only_the_deciding_agent_acts_and_the_others_are_ignored() -> None:
    env_ = SakuraParallelEnv("sakura", {"players": 4})
    rng = np.random.default_rng(3)
    observations, _ = env_.reset(seed=8)
    choices = 0
    while env_.agents and choices < 5:
        current = env_._state.current_players()
        actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in observations.items()}
        if len(current) == 1:  # a mid-resolution choice
            decider = env_.possible_agents[current[0]]
            for agent, o in observations.items():
                legal = np.flatnonzero(o["action_mask"]).tolist()
                assert legal == [env_.wait] if agent != decider else env_.wait not in legal
            twin = SakuraParallelEnv("sakura", {"players": 4})
            twin._state, twin.agents = env_._state.clone(), env_.agents[:]
            twin._legal, twin._scores, twin._apply = env_._legal[:], env_._scores, twin._state.apply_fast
            garbage = {a: (act if a == decider else 0) for a, act in actions.items()}
            out_twin = twin.step(garbage)
            out = env_.step(actions)
            assert out[0].keys() == out_twin[0].keys() and out[1:] == out_twin[1:]
            for a in out[0]:
                assert np.array_equal(out[0][a]["observation"], out_twin[0][a]["observation"])
            assert not any("illegal_action" in out[4][a] for a in out[4])  # ignored, not replaced
            choices += 1
            observations = out[0]
        else:
            observations = env_.step(actions)[0]
    assert choices == 5


def test_an_illegal_action_raises_by_default_or_is_replaced_by_the_lowest_legal_one() -> None:
    env_ = SakuraParallelEnv("sakura", {"players": 3}, illegal="replace")
    observations, _ = env_.reset(seed=4)
    legal0 = np.flatnonzero(observations["player_0"]["action_mask"])
    illegal = int(next(i for i in range(env_.wait) if i not in legal0))
    twin = SakuraParallelEnv("sakura", {"players": 3})
    twin.reset(seed=4)
    actions = {a: int(np.flatnonzero(o["action_mask"])[-1]) for a, o in observations.items()}
    out = env_.step({**actions, "player_0": illegal})
    expected = twin.step({**actions, "player_0": int(legal0[0])})
    assert out[4]["player_0"] == {"illegal_action": illegal} and out[1] == expected[1]
    penalized = SakuraParallelEnv("sakura", {"players": 3}, illegal="penalize")
    penalized.reset(seed=4)
    out = penalized.step({**actions, "player_0": illegal})
    assert out[1]["player_0"] == expected[1]["player_0"] - 1.0
    assert out[1]["player_1"] == expected[1]["player_1"]
    strict = SakuraParallelEnv("sakura", {"players": 3})
    strict.reset(seed=4)
    before = strict._state.to_json()
    with pytest.raises(ValueError, match="not legal now; legal: "):
        strict.step({**actions, "player_0": illegal})
    with pytest.raises(ValueError, match="player_1 must act now"):
        strict.step({"player_0": int(legal0[0])})
    assert strict._state.to_json() == before  # errors are raised before anything is applied
    with pytest.raises(ValueError, match="illegal= must be"):
        SakuraParallelEnv("sakura", {"players": 3}, illegal="ignore")


@pytest.mark.parametrize(
    ("name", "config"), [("sakura", {"players": 4}), ("sakura-cards", {})], ids=["4", "cards"]
)
def test_rewards_add_up_to_the_relative_final_score_and_the_win(name: str, config: dict[str, Any]) -> None:
    env_ = SakuraParallelEnv(name, config)
    scale = env_.encoder.score_scale
    for seed in range(5):
        trace = _play(env_, seed, policy_seed=seed)
        totals = {a: sum(out[1][a] for out in trace) for a in env_.possible_agents}
        outcome = env_._state.outcome()
        start = env_.encoder.scores(make_game(name, config).new_initial_state(seed).view(0))
        final = outcome.scores
        n = len(final)
        for seat, agent in enumerate(env_.possible_agents):
            gain = [f - s for f, s in zip(final, start, strict=True)]
            relative = (gain[seat] - (sum(gain) - gain[seat]) / (n - 1)) / scale
            assert totals[agent] == pytest.approx(relative + outcome.returns()[seat])
        assert all(out[2] == dict.fromkeys(out[2], False) for out in trace[:-1])
        assert all(trace[-1][2].values()) and not env_.agents
        with pytest.raises(RuntimeError, match="reset"):
            env_.step({})


def test_render_ansi_shows_the_public_board_only() -> None:
    env_ = parallel_env(game="sakura", config={"players": 3}, render_mode="ansi")
    env_.reset(seed=2030)
    text = env_.render()
    assert text is not None and text.startswith("round 1  Emperor at 4")
    true_state = env_._state
    env_._state = env_.game.sample_state(true_state.view(0), 99)  # other hands, another deck order
    assert env_.render() == text  # nothing hidden is drawn
    env_._state = true_state
    assert SakuraParallelEnv("sakura", {"players": 3}).render() is None
    with pytest.raises(ValueError, match="render_mode"):
        SakuraParallelEnv("sakura", {"players": 3}, render_mode="human")
