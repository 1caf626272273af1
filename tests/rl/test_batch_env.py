"""The batched env over many autoresets: masks never empty, observations in range, the seeds
each table plays, and the buffers it hands out (read-only, overwritten by the next step)."""

from __future__ import annotations

import numpy as np
import pytest
from tests.rl.helpers import BATCH_BACKENDS

from sakura.rl.batch import SakuraBatchEnv

TABLES = [(2, "court"), (2, "tactical"), (3, None), (4, None), (5, None), (6, None)]
IDS = ["2-court", "2-tactical", "3", "4", "5", "6"]


@pytest.mark.parametrize("backend", BATCH_BACKENDS)
@pytest.mark.parametrize(("players", "variant"), TABLES, ids=IDS)
def test_masks_are_never_empty_and_observations_stay_in_range(
    players: int, variant: str | None, backend: str
) -> None:
    env = SakuraBatchEnv(128, players, variant, backend=backend)
    obs, mask = env.reset(seed=players)
    rng = np.random.default_rng(players)
    ends = 0
    returns = np.zeros(players)
    terminated = np.zeros(128, dtype=bool)
    while ends < 500:
        assert (mask.sum(axis=2) >= 1).all(), "a seat with no legal action and no wait"
        acting = mask[:, :, env.wait] == 0
        assert (acting.any(axis=1) | terminated).all(), "a game going on where nobody acts"
        assert np.isfinite(obs).all() and obs.min() >= 0.0 and obs.max() <= 1.0
        actions = np.argmax(np.where(mask == 1, rng.random(mask.shape), -1.0), axis=2)
        obs, mask, _, terminated = env.step(actions)
        ends += int(terminated.sum())
        returns += env.games.returns[terminated].sum(axis=0)
        # A finished game shows ``wait`` alone to every seat until its table restarts.
        assert (mask[terminated, :, env.wait] == 1).all() and (mask[terminated, :, : env.wait] == 0).all()
        assert np.isclose(env.games.returns[terminated].sum(axis=1), 1.0).all()  # the win is shared out
    assert (returns > 0).all()  # every seat won some games: no seat is favoured to never win


@pytest.mark.parametrize("backend", BATCH_BACKENDS)
def test_each_table_plays_its_seeds_one_after_another(backend: str) -> None:
    env = SakuraBatchEnv(4, 3, backend=backend)
    env.reset(seed=100)
    assert env.seeds == [100, 101, 102, 103]
    mask = env.mask
    played = {i: [100 + i] for i in range(4)}
    rng = np.random.default_rng(0)
    while min(len(s) for s in played.values()) < 3:
        actions = np.argmax(np.where(mask == 1, rng.random(mask.shape), -1.0), axis=2)
        _, mask, _, _ = env.step(actions)
        for i, seed in enumerate(env.seeds):
            if seed != played[i][-1]:
                played[i].append(seed)
    assert all(s[:3] == [100 + i, 104 + i, 108 + i] for i, s in played.items())


@pytest.mark.parametrize("backend", BATCH_BACKENDS)
def test_the_arrays_handed_out_are_read_only(backend: str) -> None:
    env = SakuraBatchEnv(2, 4, backend=backend)
    obs, mask = env.reset(seed=1)
    with pytest.raises(ValueError, match="read-only"):
        obs[0, 0, 0] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        mask[0, 0, 0] = 1


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="num_envs"):
        SakuraBatchEnv(0)
    with pytest.raises(ValueError, match="illegal"):
        SakuraBatchEnv(1, illegal="ignore")
    env = SakuraBatchEnv(2, 4)
    env.reset()
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros((2, 3), dtype=np.int64))
    with pytest.raises(ValueError, match="2 seeds"):
        env.reset(seed=[1, 2, 3])
