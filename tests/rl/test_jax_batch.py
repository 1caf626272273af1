"""The JAX path (``sakura.rl.batch.jax_env.SakuraJax``) held to the numpy batch and the
reference engine: the same seeded games, step for step.

Both batches play the same seeds with the same random legal actions and must agree at every
step on the state (Emperor, painters, tokens, supply, sakuras scored, round, hands, deck and
discard pile, the round's queue, the generator), every seat's observation and mask, every
reward and every end (autoresets included); the first tables are also replayed by the
reference engine, whose encoder's observations they must equal. Skipped, with the reason,
where JAX is not installed (the ``jax`` extra). More tables and steps: ``--soak``.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax", reason="JAX is not installed: pip install -e '.[jax]' (the JAX path's extra)")

from sakura.rl.batch import SakuraBatchEnv
from sakura.rl.batch.jax_env import SakuraJax

FIELDS = (
    "emperor",
    "pos",
    "tokens",
    "supply",
    "scored",
    "round",
    "hand",
    "hand_size",
    "deck_len",
    "disc_len",
    "discarded",
    "qlen",
    "qi",
    "stage",
    "double",
    "terminal",
    "rng",
    "seed",
)


def play_three(
    players: int, variant: str | None, tables: int, steps: int, seed: int, *, replayed: int = 6
) -> int:
    """Play ``tables`` tables through JAX, numpy and (the first ``replayed``) the reference;
    return the number of games ended."""
    a = SakuraBatchEnv(tables, players, variant)
    j = SakuraJax(tables, players, variant)
    obs, mask = a.reset(seed=seed)
    state = j.init(np.arange(seed, seed + tables))
    game, encoder = a.game, a.encoder
    reference = [game.new_initial_state(s, events=False) for s in a.seeds[:replayed]]
    rng = np.random.default_rng(seed)
    ended = np.zeros(tables, dtype=bool)
    ends = 0
    for step in range(steps):
        for name in FIELDS:
            np.testing.assert_array_equal(
                np.asarray(getattr(state.game, name)), getattr(a.games, name), err_msg=f"step {step}: {name}"
            )
        np.testing.assert_array_equal(np.asarray(state.observation), obs, err_msg=f"step {step}: obs")
        np.testing.assert_array_equal(
            np.asarray(state.legal_action_mask).astype(np.int8), mask, err_msg=f"step {step}: masks"
        )
        for i, ref in enumerate(reference):
            np.testing.assert_array_equal(
                np.asarray(state.observation[i]), encoder.encode_all(encoder.views(ref)), err_msg=f"table {i}"
            )
        actions = np.argmax(np.where(mask == 1, rng.random(mask.shape), -1.0), axis=2)
        obs, mask, rewards, terminated = a.step(actions)
        state = j.step(state, actions)
        assert np.asarray(state.rewards).tolist() == rewards.tolist(), f"step {step}: rewards"
        assert np.asarray(state.terminated).tolist() == terminated.tolist(), f"step {step}: ends"
        for i in range(len(reference)):
            if ended[i]:
                reference[i] = game.new_initial_state(a.seeds[i], events=False)
            else:
                for seat in reference[i].current_players():
                    reference[i].apply_action(seat, encoder.actions[actions[i, seat]])
        ended = terminated.copy()
        ends += int(terminated.sum())
    return ends


@pytest.mark.parametrize(("players", "variant"), [(4, None), (2, "tactical")], ids=["4", "2-tactical"])
def test_the_jax_path_plays_the_numpy_and_reference_games(players: int, variant: str | None) -> None:
    assert play_three(players, variant, tables=32, steps=150, seed=40 + players) > 32


@pytest.mark.soak
@pytest.mark.parametrize(
    ("players", "variant"),
    [(2, "court"), (2, "tactical"), (3, None), (4, None), (5, None), (6, None)],
    ids=["2-court", "2-tactical", "3", "4", "5", "6"],
)
def test_soak(players: int, variant: str | None) -> None:
    assert play_three(players, variant, tables=128, steps=240, seed=7 * players) > 200


def test_an_illegal_action_plays_the_lowest_legal_id() -> None:
    """No error can be raised inside ``jit``: a seat that must act and sends an id its mask
    does not allow plays the lowest legal id (``illegal="replace"`` of the numpy env)."""
    j = SakuraJax(2, 4)
    a = SakuraBatchEnv(2, 4, illegal="replace")
    state = j.init(np.array([9, 10]))
    mask = a.reset(seed=9)[1].copy()
    illegal = np.where(mask == 1, -1, np.arange(mask.shape[2])).max(axis=2)
    state = j.step(state, illegal)
    obs = a.step(illegal)[0]
    np.testing.assert_array_equal(np.asarray(state.observation), obs)
