"""Gymnasium's ``SakuraSolo-v0``: one seat against bots, the mask in ``info``; ``check_env``."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from tests.rl.helpers import IDS, PARAMS

import sakura.rl  # noqa: F401  (registers SakuraSolo-v0)
from sakura.bots import BotError
from sakura.rl import ENV_ID, SakuraSoloEnv


@pytest.mark.parametrize(("name", "config"), PARAMS, ids=IDS)
def test_gymnasium_check_env_passes(name: str, config: dict[str, Any]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # check_env samples actions without the mask: it needs illegal="replace" (docs/rl.md)
        env = gymnasium.make(
            ENV_ID, game=name, config=config, opponents="greedy", render_mode="ansi", illegal="replace"
        )
        check_env(env.unwrapped, skip_render_check=False)
    assert not [str(w.message) for w in caught]


def test_gymnasium_make_builds_it_by_id() -> None:
    env = gymnasium.make(
        "SakuraSolo-v0", config={"players": 5}, opponents=["random", "greedy", "random", "mcts:5"]
    )
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs) and info["action_mask"].sum() == 5


def _episode(env: SakuraSoloEnv, seed: int) -> tuple[list[Any], float, dict[str, Any]]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace, total = [obs], 0.0
    done = False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
        assert [env.encoder.action_text(i) for i in legal] == sorted(
            env._state.view(env.seat).legal_actions, key=env.encoder.action_id
        )
        obs, reward, done, truncated, info = env.step(int(rng.choice(legal)))
        assert not truncated
        trace.append(obs)
        total += reward
    return trace, total, info


def test_the_learner_acts_only_at_its_own_decisions_and_episodes_reproduce() -> None:
    env = SakuraSoloEnv("sakura", {"players": 4}, opponents="greedy")
    for seed in range(6):
        trace, total, info = _episode(env, seed)
        again, total_again, _ = _episode(SakuraSoloEnv("sakura", {"players": 4}, opponents="greedy"), seed)
        assert total == total_again and all(np.array_equal(a, b) for a, b in zip(trace, again, strict=True))
        outcome = env._state.outcome()
        assert info["won"] == (env.seat in outcome.winners) and info["winners"] == outcome.winners
        gains = [s - 5 for s in outcome.scores]
        me = env.seat
        relative = (gains[me] - (sum(gains) - gains[me]) / 3) / env.encoder.score_scale
        assert total == pytest.approx(relative + outcome.returns()[me])
    seats = {SakuraSoloEnv("sakura", {"players": 4}).reset(seed=s)[1]["seat"] for s in range(20)}
    assert seats == {0, 1, 2, 3}
    fixed = SakuraSoloEnv("sakura", {"players": 4}, seat=2)
    assert {fixed.reset(seed=s)[1]["seat"] for s in range(5)} == {2}


def test_illegal_actions_are_refused_by_default_or_replaced_or_penalized() -> None:
    strict = SakuraSoloEnv("sakura-cards", seat=0)
    _, info = strict.reset(seed=1)
    legal = np.flatnonzero(info["action_mask"])
    illegal = int(next(i for i in range(strict.action_space.n) if i not in legal))
    before = strict._state.to_json()
    with pytest.raises(
        ValueError,
        match=rf"seat 0: action {illegal} \(.+\) is not legal now; legal: "
        rf"{legal[0]} \(",
    ):
        strict.step(illegal)
    with pytest.raises(ValueError, match="no such id"):
        strict.step(strict.action_space.n)
    assert strict._state.to_json() == before  # refused: nothing changed
    _, reward, _, _, _ = strict.step(int(legal[0]))  # and the env plays on
    outcomes = {}
    for mode in ("replace", "penalize"):
        env = SakuraSoloEnv("sakura-cards", seat=0, illegal=mode)
        env.reset(seed=1)
        _, outcomes[mode], _, _, info = env.step(illegal)
        assert info["illegal_action"] == illegal
        assert env._state.to_json() == strict._state.to_json()  # the lowest legal id was played
    assert outcomes["replace"] == reward and outcomes["penalize"] == reward - 1.0


def test_bad_setups_fail_early() -> None:
    with pytest.raises(ValueError, match="illegal= must be"):
        SakuraSoloEnv("sakura-cards", illegal="ignore")
    with pytest.raises(ValueError, match="3 opponents needed"):
        SakuraSoloEnv("sakura", {"players": 4}, opponents=["random"])
    with pytest.raises(BotError):
        SakuraSoloEnv("sakura", {"players": 4}, opponents="genius")
    with pytest.raises(ValueError, match="seat 4 does not exist"):
        SakuraSoloEnv("sakura", {"players": 4}, seat=4)
