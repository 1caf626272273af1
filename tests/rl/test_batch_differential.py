"""The batched engine held to the reference: the same seeded games, step for step.

``sakura.rl.batch`` is a second implementation of Sakura's rules (numpy arrays over N games).
Here both play the same games (each table's seeds, the same seeded random legal actions) and
must agree at every step on the whole state (Emperor, painters, tokens, supply, sakuras scored,
round, hands, deck order, discard pile, the generator's state), on every seat's observation
and mask (``encoder_for(game)``'s, from the reference's views), on every reward
(``relative_rewards``) and on every outcome. Games end and the tables autoreset into their next
seeds, so each table plays several games. More games: ``--soak`` (``test_soak``).

Every test runs against both backends of ``SakuraBatchEnv``: ``numpy`` (``rules.py``,
``moves.py``, ``observe.py``) and ``compiled`` (the C kernel, ``kernel.pyx``; skipped, with the
reason, where it is not built), two implementations each held to the engine on its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from tests.rl.helpers import BATCH_BACKENDS

from sakura.engine.games.sakura import SakuraGame
from sakura.engine.rng import SplitMix64
from sakura.rl.batch import SakuraBatchEnv, backends
from sakura.rl.batch import rng as batch_rng
from sakura.rl.encoding import relative_rewards

# (players, variant): every table of Sakura.
TABLES = [(2, "court"), (2, "tactical"), (3, None), (4, None), (5, None), (6, None)]
IDS = ["2-court", "2-tactical", "3", "4", "5", "6"]
BACKENDS = BATCH_BACKENDS


def reference_masks(env: Any, views: Any) -> np.ndarray:
    """The ParallelEnv's masks: the seat's legal ids, or ``wait`` alone."""
    out = np.zeros((env.players, env.num_actions), dtype=np.int8)
    for seat, view in enumerate(views):
        out[seat, env.encoder.legal_ids(view) or [env.wait]] = 1
    return out


def check_state(env: SakuraBatchEnv, i: int, state: Any) -> None:
    """Table ``i`` of the batch is ``state``, hidden parts included."""
    g, numbers = env.games, env.game.numbers
    p = state.position()
    where = f"table {i} (seed {env.seeds[i]}), reference {p.text()}"
    assert int(g.emperor[i]) == p.emperor, where
    assert tuple(g.pos[i].tolist()) == p.painters, where
    assert tuple(g.tokens[i].tolist()) == p.tokens, where
    assert int(g.supply[i]) == p.supply, where
    assert int(g.scored[i]) == p.scored, where
    assert int(g.round[i]) == p.round, where
    hands = tuple(tuple(numbers[k] for k in np.flatnonzero(h)) for h in g.hand[i])
    assert hands == p.hands, where
    deck = tuple(numbers[k] for k in g.deck[i, : g.deck_len[i]][::-1])
    assert deck == p.deck, where
    assert tuple(numbers[k] for k in g.discard[i, : g.disc_len[i]]) == p.discard, where
    assert int(g.rng[i]) == state.rng.state, where
    assert bool(g.terminal[i]) == state.is_terminal(), where


def play_both(
    players: int, variant: str | None, tables: int, steps: int, seed: int, *, backend: str = "numpy"
) -> int:
    """Play ``tables`` tables for ``steps`` steps through both engines; return the number of
    games begun (every one checked at every step)."""
    env = SakuraBatchEnv(tables, players, variant, backend=backend)
    assert env.backend == backend
    return play_against_reference(env, check_state, lambda state: state.tokens[:players], steps, seed)


def play_against_reference(
    env: Any, check: Callable[[Any, int, Any], None], score: Callable[[Any], Any], steps: int, seed: int
) -> int:
    """Play every table of the batched ``env`` for ``steps`` steps beside the reference engine's
    game of the same seed: observations, masks and ``check`` (the whole state) at every step,
    rewards from ``score`` (a state's points), ends and returns; the number of games begun."""
    tables, players = env.num_envs, env.players
    game, encoder = env.game, env.encoder
    obs, mask = env.reset(seed=seed)
    states = [game.new_initial_state(s, events=False) for s in env.seeds]
    rng = np.random.default_rng(seed)
    ended = np.zeros(tables, dtype=bool)
    games = tables
    for _ in range(steps):
        for i, state in enumerate(states):
            views = encoder.views(state)
            np.testing.assert_array_equal(obs[i], encoder.encode_all(views), err_msg=f"table {i} obs")
            np.testing.assert_array_equal(mask[i], reference_masks(env, views), err_msg=f"table {i} mask")
            check(env, i, state)
        # Seeded random legal actions (``wait`` for the seats that do not act).
        actions = np.argmax(np.where(mask == 1, rng.random(mask.shape), -1.0), axis=2)
        before = [score(state) for state in states]
        obs, mask, rewards, terminated = env.step(actions)
        for i in range(tables):
            if ended[i]:  # autoreset: the table's next game, its actions ignored
                states[i] = game.new_initial_state(env.seeds[i], events=False)
                games += 1
                assert rewards[i].tolist() == [0.0] * players
                assert not terminated[i]
                continue
            state = states[i]
            for seat in state.current_players():
                state.apply_action(seat, encoder.actions[actions[i, seat]])
            outcome = state.outcome()
            expected = relative_rewards(before[i], score(state), outcome, encoder.score_scale, 1.0)
            assert rewards[i].tolist() == expected, f"table {i} rewards"
            assert bool(terminated[i]) == (outcome is not None)
            if outcome is not None:
                assert env.games.returns[i].tolist() == list(outcome.returns())
        ended = terminated.copy()
    return games


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("players", "variant"), TABLES, ids=IDS)
def test_the_batched_engine_plays_the_reference_games(
    players: int, variant: str | None, backend: str
) -> None:
    seed = 1000 * players + len(variant or "")
    games = play_both(players, variant, tables=64, steps=120, seed=seed, backend=backend)
    assert games > 2 * 64  # the tables went through several autoresets


@pytest.mark.soak
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("players", "variant"), TABLES, ids=IDS)
def test_soak(players: int, variant: str | None, backend: str) -> None:
    """Thousands of games a table (about 2,500-3,200; a minute or two each on one core)."""
    assert play_both(players, variant, tables=384, steps=240, seed=7 + players, backend=backend) > 2000


def test_a_rejected_draw_is_redone_by_the_engines_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lemire's method redraws when a product's low half is under the bound (p < 2**-16): the
    numpy shuffle then does that game's shuffle again with the engine's generator. Flag every
    draw as rejected: the deals must still be the engine's. (The compiled kernel redraws as
    the engine does: ``test_the_kernels_generator_is_the_engines``.)"""
    below = batch_rng.below

    def always_rejected(state: np.ndarray, bound: int) -> tuple[np.ndarray, np.ndarray]:
        values, _ = below(state, bound)
        return values, np.ones(len(values), dtype=bool)

    monkeypatch.setattr(batch_rng, "below", always_rejected)
    assert play_both(4, None, tables=8, steps=60, seed=3) >= 8


@pytest.mark.skipif(backends.kernel() is None, reason=backends.unavailable())
def test_the_kernels_generator_is_the_engines() -> None:
    """The kernel's ``below`` and ``shuffle`` against ``SplitMix64``'s: bounds near 2**64
    reject about half their draws, so the redraw path runs hundreds of times; and shuffles of
    every length a deck or a discard pile can have."""
    kernel = backends.kernel()
    assert kernel is not None
    redrawn = 0
    for seed in range(400):
        for bound in (2**63 + 1, 3 * 2**62 + 5, 2**64 - 3, 10, 2**48 - 1):
            rng = SplitMix64(seed * 7919)
            value, state = kernel.splitmix_below(rng.state, bound)
            before = rng.state
            assert (value, state) == (rng.below(bound), rng.state), (seed, bound)
            redrawn += (state - before) % 2**64 != 0x9E3779B97F4A7C15
    assert redrawn > 100
    for length in range(70):
        for seed in range(20):
            rng = SplitMix64(seed + 1000 * length)
            items = list(range(length))
            got = kernel.splitmix_shuffle(rng.state, items)
            rng.shuffle(items)
            assert got == (items, rng.state), (length, seed)


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_illegal_action_raises_before_any_table_moves(backend: str) -> None:
    env = SakuraBatchEnv(4, 3, backend=backend)
    obs, mask = env.reset(seed=5)
    before = obs.copy()
    actions = mask.argmax(axis=2)
    actions[2, 1] = int(np.flatnonzero(mask[2, 1] == 0)[0])
    with pytest.raises(ValueError, match="table 2, seat 1"):
        env.step(actions)
    assert (env.observe()[0] == before).all()


@pytest.mark.parametrize("backend", BACKENDS)
def test_replace_plays_the_lowest_legal_id(backend: str) -> None:
    a = SakuraBatchEnv(2, 4, illegal="replace", backend=backend)
    b = SakuraBatchEnv(2, 4, backend=backend)
    mask = a.reset(seed=9)[1].copy()  # the env's buffer: the next step overwrites it
    b.reset(seed=9)
    illegal = np.where(mask == 1, -1, np.arange(mask.shape[2])).max(axis=2)
    a.step(illegal)
    b.step(mask.argmax(axis=2))
    np.testing.assert_array_equal(a.observe()[0], b.observe()[0])


def test_the_batch_plays_the_game_object_it_is_given() -> None:
    game = SakuraGame(5)
    env = SakuraBatchEnv(2, game=game)
    assert env.game is game and env.reset(seed=1)[0].shape == (2, 5, env.encoder.size)


def test_the_backend_is_chosen_and_refused_with_a_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    """``auto`` is the kernel where it runs, else numpy; ``compiled`` where it cannot run is
    refused with the reason; an unknown name is refused."""
    expected = "numpy" if backends.kernel() is None else "compiled"
    assert SakuraBatchEnv(1, 4).backend == expected
    assert SakuraBatchEnv(1, 4, backend="numpy").backend == "numpy"
    with pytest.raises(ValueError, match="backend= must be one of"):
        SakuraBatchEnv(1, 4, backend="c")
    monkeypatch.setenv("SAKURA_PURE", "1")
    backends._load.cache_clear()
    try:
        assert SakuraBatchEnv(1, 4).backend == "numpy"
        with pytest.raises(ValueError, match="SAKURA_PURE=1"):
            SakuraBatchEnv(1, 4, backend="compiled")
    finally:
        monkeypatch.delenv("SAKURA_PURE")
        backends._load.cache_clear()
