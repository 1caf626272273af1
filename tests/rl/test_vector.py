"""Vector envs: Gymnasium's ``make_vec`` (sync and async) and the native ``SakuraVectorEnv`` under
both autoreset modes with the usual masked sampling loop, and the native env step for step
against ``SyncVectorEnv`` over single envs."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv

import sakura.rl  # registers SakuraSolo-v0
from sakura.rl import SakuraSoloEnv, SakuraVectorEnv

SHORT = {"game": "sakura", "config": {"players": 2}, "opponents": "random"}  # ~20 decisions a game


def masked_loop(envs: Any, steps: int, seed: int = 0) -> int:
    """The loop a researcher writes: sample every env's action from its mask, step. Returns the
    number of episode ends seen; with ``illegal="raise"`` (the default) any action outside the
    real legal set would raise."""
    rng = np.random.default_rng(seed)
    _, infos = envs.reset(seed=seed)
    ends = 0
    for _ in range(steps):
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in infos["action_mask"]])
        _, _, terminations, truncations, infos = envs.step(actions)
        ends += int(np.sum(terminations | truncations))
    return ends


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP], ids=["next", "same"])
@pytest.mark.parametrize("vectorization", ["sync", "async"])
def test_make_vec_runs_the_masked_loop_over_many_episode_ends(
    vectorization: str, mode: AutoresetMode
) -> None:
    envs = gymnasium.make_vec(
        "SakuraSolo-v0",
        num_envs=3,
        vectorization_mode=vectorization,
        # Spawned workers: a forked child of a process where JAX has started its threads (the
        # JAX path's tests may run first in the same worker) could deadlock.
        vector_kwargs={"autoreset_mode": mode} | ({"context": "spawn"} if vectorization == "async" else {}),
        **SHORT,
    )
    try:
        assert masked_loop(envs, 300) >= 25
    finally:
        envs.close()


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_the_native_vector_env_runs_the_masked_loop_over_many_episode_ends(mode: str) -> None:
    envs = SakuraVectorEnv(num_envs=4, autoreset_mode=mode, **SHORT)
    assert masked_loop(envs, 300) >= 40


def test_the_mask_of_a_finished_game_allows_every_id_and_a_step_after_it_is_refused() -> None:
    env = SakuraSoloEnv("sakura", {"players": 2}, opponents="random")
    _, info = env.reset(seed=3)
    done, rng = False, np.random.default_rng(3)
    while not done:
        assert 0 < info["action_mask"].sum() < env.action_space.n
        _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    assert info["action_mask"].all() and env.action_masks().all()
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


@pytest.mark.parametrize(
    ("mode", "single_mode"), [("next_step", AutoresetMode.NEXT_STEP), ("same_step", AutoresetMode.SAME_STEP)]
)
def test_the_native_vector_env_agrees_step_for_step_with_single_envs(
    mode: str, single_mode: AutoresetMode
) -> None:
    kwargs: dict[str, Any] = {"game": "sakura", "config": {"players": 4}, "opponents": "greedy"}
    native = SakuraVectorEnv(num_envs=5, autoreset_mode=mode, **kwargs)
    reference = SyncVectorEnv([lambda: SakuraSoloEnv(**kwargs) for _ in range(5)], autoreset_mode=single_mode)
    assert native.single_observation_space == reference.single_observation_space
    assert native.action_space == reference.action_space
    rng = np.random.default_rng(7)
    a, ia = native.reset(seed=11)
    b, ib = reference.reset(seed=11)
    ends = 0
    for _ in range(120):
        assert np.array_equal(a, b) and np.array_equal(ia["action_mask"], ib["action_mask"])
        assert np.array_equal(ia["seat"], ib["seat"])
        assert np.array_equal(native.action_masks(), ia["action_mask"].astype(bool))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in ia["action_mask"]])
        a, ra, ta, ua, ia = native.step(actions)
        b, rb, tb, ub, ib = reference.step(actions)
        assert np.array_equal(ra, rb) and np.array_equal(ta, tb) and np.array_equal(ua, ub)
        if "final_obs" in ib:
            assert np.array_equal(ia["_final_obs"], ib["_final_obs"])
            done = np.flatnonzero(ib["_final_obs"])
            assert all(np.array_equal(ia["final_obs"][i], ib["final_obs"][i]) for i in done)
            assert np.array_equal(ia["final_info"]["won"][done], ib["final_info"]["won"][done])
        ends += int(ta.sum())
    assert ends >= 5


def test_the_native_vector_env_reports_its_modes_and_refuses_bad_input() -> None:
    envs = SakuraVectorEnv(num_envs=2, autoreset_mode="same_step", **SHORT)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    assert envs.metadata["observation_layout_version"] == sakura.rl.LAYOUT_VERSION
    obs, _ = envs.reset(seed=[4, 9])
    assert np.array_equal(obs[1], SakuraSoloEnv(**SHORT).reset(seed=9)[0])
    with pytest.raises(ValueError, match="one action per game"):
        envs.step([0])
    with pytest.raises(ValueError, match="2 seeds needed"):
        envs.reset(seed=[1, 2, 3])
    with pytest.raises(ValueError, match="autoreset_mode"):
        SakuraVectorEnv(num_envs=2, autoreset_mode="never")
    with pytest.raises(ValueError, match="num_envs"):
        SakuraVectorEnv(num_envs=0)


def test_supersuit_vectorises_the_parallel_env_and_the_masked_loop_runs() -> None:
    ss = pytest.importorskip("supersuit", reason="SuperSuit is optional: pip install supersuit")
    from sakura.rl.pettingzoo_env import parallel_env

    markov = ss.pettingzoo_env_to_vec_env_v1(parallel_env(game="sakura", config={"players": 2}))
    envs = ss.concat_vec_envs_v1(markov, 2, num_cpus=0, base_class="gymnasium")
    rng = np.random.default_rng(0)
    obs, _ = envs.reset(seed=0)
    ends = 0
    for _ in range(200):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, _, terminations, _, _ = envs.step(actions)
        ends += int(terminations.sum())
    assert obs["observation"].shape == (4, 525) and ends >= 20


def test_an_illegal_action_in_one_game_raises_before_any_game_moves() -> None:
    envs = SakuraVectorEnv(num_envs=3, **SHORT)
    _, infos = envs.reset(seed=5)
    before = [env._state.to_json() for env in envs.envs]
    actions = [int(np.flatnonzero(m)[0]) for m in infos["action_mask"]]
    actions[2] = int(np.flatnonzero(infos["action_mask"][2] == 0)[0])
    with pytest.raises(ValueError, match=rf"game 2 \(seat \d\): action {actions[2]} .* is not legal now"):
        envs.step(actions)
    assert [env._state.to_json() for env in envs.envs] == before
