"""The batched card game held to the reference: the same seeded games, step for step.

``sakura.rl.batch.CardsBatchEnv`` is a second implementation of the card game's rules (numpy
arrays over N games). Here both play the same games (each table's seed, the same seeded random
legal actions) and must agree at every step on the whole state (round, who started, whose turn
and what to do, hands, every area card by card, gifts, discards, the cards set aside, finished
rounds' scores, the generator's state), on both seats' observations and masks (the encoder's,
from the reference's views), on every reward (``relative_rewards``) and on every outcome. Games
end and the tables autoreset into their next seeds, so each table plays several games. More
games: ``--soak`` (``test_soak``). Every game is played with both backends of
``CardsBatchEnv``: ``numpy`` (``cards_rules.py``) and ``compiled`` (``cards_kernel.pyx``,
skipped with the reason where it is not built).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest
from tests.rl.test_batch_differential import play_against_reference

from sakura.engine.games.cards import CardsGame
from sakura.rl.batch import CardsBatchEnv, backends
from sakura.rl.batch.cards_rules import GIVE, PLACE, CardTables


def counted(names: tuple[str, ...], counts: np.ndarray) -> Counter[str]:
    return Counter({names[k]: int(c) for k, c in enumerate(counts) if c})


def check_state(env: CardsBatchEnv, i: int, state: Any) -> None:
    """Table ``i`` of the batch is ``state``, hidden parts included."""
    g, names = env.games, env.tables.names
    where = f"table {i} (seed {env.seeds[i]}), reference {state.text()}"
    assert int(g.round[i]) == state.round, where
    assert int(g.first[i]) == state.first, where
    assert bool(g.terminal[i]) == state.terminal, where
    assert int(g.turn[i]) == state.turn, where
    assert int(g.phase[i]) == (GIVE if state.phase == "give" else PLACE), where
    for seat in (0, 1):
        assert counted(names, g.hand[i, seat]) == Counter(state.hands[seat]), where
        assert counted(names, g.given[i, seat]) == Counter(state.given[seat]), where
        assert counted(names, g.received[i, seat]) == Counter(state.received[seat]), where
        assert counted(names, g.discards[i, seat]) == Counter(state.discards[seat]), where
        for a in range(3):
            placed = [names[k] for k in g.seq[i, seat, a, : g.length[i, seat, a]]]
            assert placed == state.areas[seat][a], where
        assert g.scores[i, seat, : len(state.scores[seat])].tolist() == state.scores[seat], where
    assert counted(names, g.aside[i]) == Counter(state.aside), where
    assert int(g.rng[i]) == state.rng.state, where


BACKENDS = [
    "numpy",
    pytest.param(
        "compiled",
        marks=pytest.mark.skipif(
            backends.kernel("sakura-cards") is None, reason=backends.unavailable("sakura-cards")
        ),
    ),
]


def play_both(tables: int, steps: int, seed: int, backend: str = "numpy") -> int:
    """Play ``tables`` tables for ``steps`` steps through both engines; return the number of
    games begun (every one checked at every step)."""
    env = CardsBatchEnv(tables, backend=backend)
    assert env.backend == backend
    return play_against_reference(env, check_state, lambda state: state.totals(), steps, seed)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_batched_card_game_plays_the_reference_games(backend: str) -> None:
    # A game is about 120 decisions: 600 steps is five games a table (about 480 games, with
    # hundreds of discards and a few drawn games among them).
    assert play_both(tables=96, steps=600, seed=11, backend=backend) > 4 * 96


@pytest.mark.soak
@pytest.mark.parametrize("backend", BACKENDS)
def test_soak(backend: str) -> None:
    """Thousands of games (about 2,300; a few minutes on one core)."""
    assert play_both(tables=384, steps=720, seed=23, backend=backend) > 2000


def test_area_scores_are_the_engines() -> None:
    """Every area of every size a round can make (random multisets of the deck's cards) scores
    as ``CardsGame.score_area`` says."""
    game = CardsGame()
    tables = CardTables(game)
    rng = np.random.default_rng(5)
    cards = list(game.cards)
    areas = [list(rng.choice(cards, size=int(rng.integers(0, 12)), replace=False)) for _ in range(4000)]
    counts = np.zeros((len(areas), tables.k), dtype=np.int64)
    for row, area in enumerate(areas):
        for name in area:
            counts[row, game.rank[name]] += 1
    expected = [game.score_area(area) for area in areas]
    assert tables.area_scores(counts).tolist() == expected
    assert max(expected) >= 20  # the sample reaches the best scores
    if backends.kernel("sakura-cards") is not None:  # the compiled kernel's scoring too
        assert CardsBatchEnv(1, backend="compiled")._kernel.area_scores(counts) == expected


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_illegal_action_raises_before_any_table_moves(backend: str) -> None:
    env = CardsBatchEnv(4, backend=backend)
    obs, mask = env.reset(seed=5)
    before = obs.copy()
    actions = mask.argmax(axis=2)
    seat = int(env.games.turn[2])
    actions[2, seat] = int(np.flatnonzero(mask[2, seat] == 0)[0])
    with pytest.raises(ValueError, match=f"table 2, seat {seat}"):
        env.step(actions)
    assert (env.observe()[0] == before).all()


def test_the_batch_refuses_another_deck() -> None:
    from sakura.engine.games.cards.deck import default_cards, parse_cards

    big = CardsGame(parse_cards(default_cards().text().replace("copies: 2", "copies: 3")))
    with pytest.raises(ValueError, match="published deck"):
        CardsBatchEnv(2, game=big)
