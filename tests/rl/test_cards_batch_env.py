"""The batched card game over many autoresets: masks never empty, exactly the player to move
acting, observations in range, the seeds each table plays, read-only buffers."""

from __future__ import annotations

import numpy as np
import pytest

from sakura.rl.batch import CardsBatchEnv


def test_masks_are_never_empty_and_observations_stay_in_range() -> None:
    env = CardsBatchEnv(128)
    obs, mask = env.reset(seed=3)
    rng = np.random.default_rng(3)
    ends = 0
    returns = np.zeros(2)
    terminated = np.zeros(128, dtype=bool)
    while ends < 500:
        assert (mask.sum(axis=2) >= 1).all(), "a seat with no legal action and no wait"
        acting = (mask[:, :, env.wait] == 0).sum(axis=1)
        assert (acting[~terminated] == 1).all(), "a game going on where not exactly one seat acts"
        assert np.isfinite(obs).all() and obs.min() >= 0.0 and obs.max() <= 1.0
        actions = np.argmax(np.where(mask == 1, rng.random(mask.shape), -1.0), axis=2)
        obs, mask, _, terminated = env.step(actions)
        ends += int(terminated.sum())
        returns += env.games.returns[terminated].sum(axis=0)
        assert (mask[terminated, :, env.wait] == 1).all() and (mask[terminated, :, : env.wait] == 0).all()
        assert np.isclose(env.games.returns[terminated].sum(axis=1), 1.0).all()
    assert (returns > 0).all()


def test_each_table_plays_its_seeds_one_after_another() -> None:
    env = CardsBatchEnv(3)
    env.reset(seed=50)
    assert env.seeds == [50, 51, 52]
    mask = env.mask
    played = {i: [50 + i] for i in range(3)}
    rng = np.random.default_rng(0)
    while min(len(s) for s in played.values()) < 3:
        actions = np.argmax(np.where(mask == 1, rng.random(mask.shape), -1.0), axis=2)
        _, mask, _, _ = env.step(actions)
        for i, seed in enumerate(env.seeds):
            if seed != played[i][-1]:
                played[i].append(seed)
    assert all(s[:3] == [50 + i, 53 + i, 56 + i] for i, s in played.items())


def test_the_arrays_handed_out_are_read_only_and_bad_arguments_refused() -> None:
    env = CardsBatchEnv(2)
    obs, mask = env.reset(seed=1)
    with pytest.raises(ValueError, match="read-only"):
        obs[0, 0, 0] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        mask[0, 0, 0] = 1
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros((2, 3), dtype=np.int64))
    with pytest.raises(ValueError, match="num_envs"):
        CardsBatchEnv(0)
    with pytest.raises(ValueError, match="2 seeds"):
        env.reset(seed=[1, 2, 3])
