"""Invariants of Sakura over thousands of random games, at every table.

Hypothesis draws the seeds (of the deal and of the players' random choices); each example plays
several games. Every step of every game is checked: painters never share a space but the gate,
nobody stands on or beyond the Emperor, the Emperor stays on the board and never passes the
next unscored sakura, the 54 tokens and the 60 cards are all accounted for, someone can always
act until the end, each sakura scores once and in order, and every game ends.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sakura.engine.games.sakura import SakuraGame, SakuraState
from sakura.engine.games.sakura import events as ev
from sakura.engine.protocol import Event

TABLES = [(2, "court"), (2, "tactical"), (3, "standard"), (4, "standard"), (5, "standard"), (6, "standard")]
TABLE_IDS = [f"{p}-{v}" for p, v in TABLES]
GAMES = {(p, v): SakuraGame(p, v) for p, v in TABLES}
MAX_ACTIONS = 2_000  # random games take 45 to 90 actions; a game that goes on this long is stuck

# Games per table: INVARIANT_EXAMPLES * GAMES_PER_EXAMPLE with every check at every step, and
# REPLAY_EXAMPLES * GAMES_PER_EXAMPLE for each of the three replay properties: over the six
# tables, 6,000 fully checked games (1,000 per table) and 2,160 replayed ones.
GAMES_PER_EXAMPLE = 10
INVARIANT_EXAMPLES = 100
REPLAY_EXAMPLES = 12

seeds = st.integers(min_value=0, max_value=2**64 - 1)
BASE = settings(deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])

Step = tuple[int, Any]


def random_game(
    game: SakuraGame, seed: int, chooser: random.Random, check: bool = False
) -> tuple[SakuraState, list[Step], list[Event]]:
    """Play a game to its end with random legal choices; return it, its actions and events."""
    state = game.new_initial_state(seed)
    steps: list[Step] = []
    events: list[Event] = []
    while not state.is_terminal():
        assert len(steps) < MAX_ACTIONS, f"seed {seed}: no end after {MAX_ACTIONS} actions"
        if check:
            check_invariants(state)
        current = state.current_players()
        player = current[chooser.randrange(len(current))]
        actions = state.legal_actions(player)
        action = actions[chooser.randrange(len(actions))]
        events += state.apply_action(player, action)
        steps.append((player, action))
    if check:
        check_invariants(state)
    return state, steps, events


def check_invariants(state: SakuraState) -> None:
    game = state.game
    pos, emperor = state.pos, state.emperor
    # Painters: only the gate may be shared; nobody on or beyond the Emperor.
    garden = [p for p in pos if p > 0]
    assert len(garden) == len(set(garden)), f"two painters share a space: {state.text()}"
    assert all(0 <= p < emperor for p in pos), f"a painter on or beyond the Emperor: {state.text()}"
    # The Emperor: never below space 1, never past the next unscored sakura. He stands on it only
    # while the card that brought him there waits for its owner's painter choice.
    assert 1 <= emperor <= game.garden.last_space, state.text()
    if state.scored < len(game.sakuras):
        nxt = game.sakuras[state.scored]
        assert emperor < nxt or (emperor == nxt and state.scoring), (
            f"the Emperor passed {nxt}: {state.text()}"
        )
    else:
        assert state.terminal
    # Tokens are conserved.
    assert min(state.tokens) >= 0 and state.supply >= 0, state.text()
    assert sum(state.tokens) + state.supply == game.deck.total_tokens, f"tokens not conserved: {state.text()}"
    # Every card is in exactly one place.
    places = [c for h in state.hands for c in h]
    places += [c for pick in state.picks if pick is not None for c in pick]
    places += [c for c, _ in state.queue[state.qi :]]
    places += state.deck + state.discard
    assert sorted(places) == list(game.deck.numbers), f"cards lost or doubled: {state.text()}"
    # Someone must act until the end, and each of them can.
    current = state.current_players()
    if state.terminal:
        assert current == () and state.outcome() is not None
        return
    assert current, f"nobody may act: {state.text()}"
    for p in current:
        assert state.legal_actions(p), f"player {p} must act but cannot: {state.text()}"
    if state.in_selection:
        for seat, hand in enumerate(state.hands):
            pick = state.picks[seat]
            assert len(hand) + (len(pick) if pick else 0) == 5, (
                f"player {seat} has a short hand: {state.text()}"
            )
    else:
        assert state.pending_choice() is not None and len(current) == 1


def check_events(events: list[Event], game: SakuraGame) -> None:
    """Each sakura scores once, in order; the game ends once, last."""
    scored = [e for e in events if isinstance(e, ev.SakuraScored)]
    assert [e.sakura for e in scored] == list(range(len(game.sakuras)))
    assert [e.space for e in scored] == list(game.sakuras)
    for e in scored:
        ranks = [rank for _, rank, _ in e.awards]
        assert ranks == list(range(1, len(ranks) + 1))
        assert len(ranks) <= len(game.garden.awards)
    ended = [i for i, e in enumerate(events) if isinstance(e, ev.GameEnded)]
    assert ended == [len(events) - 1]


@pytest.mark.parametrize(("players", "variant"), TABLES, ids=TABLE_IDS)
@settings(BASE, max_examples=INVARIANT_EXAMPLES)
@given(seed=seeds, choices=seeds)
def test_invariants_hold_at_every_step(players: int, variant: str, seed: int, choices: int) -> None:
    game = GAMES[players, variant]
    chooser = random.Random(choices)
    for i in range(GAMES_PER_EXAMPLE):
        state, _, events = random_game(game, (seed + i) % 2**64, chooser, check=True)
        check_events(events, game)
        outcome = state.outcome()
        assert outcome is not None and state.scored == len(game.sakuras)
        assert outcome.scores == tuple(state.tokens[: game.players])


@pytest.mark.parametrize(("players", "variant"), TABLES, ids=TABLE_IDS)
@settings(BASE, max_examples=REPLAY_EXAMPLES)
@given(seed=seeds, choices=seeds)
def test_same_seed_and_actions_give_the_same_game(
    players: int, variant: str, seed: int, choices: int
) -> None:
    game = GAMES[players, variant]
    chooser = random.Random(choices)
    for i in range(GAMES_PER_EXAMPLE):
        state, steps, events = random_game(game, (seed + i) % 2**64, chooser)
        again = game.new_initial_state((seed + i) % 2**64)
        replayed = [e for p, a in steps for e in again.apply_action(p, a)]
        assert [e.to_dict() for e in replayed] == [e.to_dict() for e in events]
        assert again.text() == state.text() and again.to_json() == state.to_json()


@pytest.mark.parametrize(("players", "variant"), TABLES, ids=TABLE_IDS)
@settings(BASE, max_examples=REPLAY_EXAMPLES)
@given(seed=seeds, choices=seeds)
def test_apply_fast_reaches_the_same_position(players: int, variant: str, seed: int, choices: int) -> None:
    game = GAMES[players, variant]
    chooser = random.Random(choices)
    for i in range(GAMES_PER_EXAMPLE):
        state, steps, _ = random_game(game, (seed + i) % 2**64, chooser)
        fast = game.new_initial_state((seed + i) % 2**64, events=False)
        for p, a in steps:
            fast.apply_fast(p, a)
        assert fast.position() == state.position()
        assert fast.rng.state == state.rng.state and fast.outcome() == state.outcome()


@pytest.mark.parametrize(("players", "variant"), TABLES, ids=TABLE_IDS)
@settings(BASE, max_examples=REPLAY_EXAMPLES)
@given(seed=seeds, choices=seeds, at=st.floats(min_value=0.0, max_value=1.0))
def test_a_clone_is_independent_and_plays_on_identically(
    players: int, variant: str, seed: int, choices: int, at: float
) -> None:
    game = GAMES[players, variant]
    chooser = random.Random(choices)
    for i in range(GAMES_PER_EXAMPLE):
        state, steps, _ = random_game(game, (seed + i) % 2**64, chooser)
        k = int(at * len(steps))
        original = game.new_initial_state((seed + i) % 2**64)
        for p, a in steps[:k]:
            original.apply_action(p, a)
        clone = original.clone()
        saved = clone.to_json()
        tail = [e.to_dict() for p, a in steps[k:] for e in original.apply_action(p, a)]
        assert clone.to_json() == saved, "playing the original changed its clone"
        assert [e.to_dict() for p, a in steps[k:] for e in clone.apply_action(p, a)] == tail
        assert clone.to_json() == original.to_json() == state.to_json()


def test_the_properties_cover_every_kind_of_situation() -> None:
    """The random games above do reach the situations the invariants are about."""
    seen: Counter[str] = Counter()
    for players, variant in TABLES:
        game = GAMES[players, variant]
        chooser = random.Random(players)
        for seed in range(30):
            _, _, events = random_game(game, seed, chooser)
            seen.update(e.kind for e in events)
            seen.update(f"bumped by {e.by}" for e in events if isinstance(e, ev.Bumped))
            seen.update(
                "court draws" for e in events if isinstance(e, ev.CardsRevealed) and e.court_from_deck
            )
    for kind in (
        "deck_reshuffled",
        "cards_discarded",
        "choice_asked",
        "painter_stayed",
        "bumped by painter",
        "bumped by emperor",
        "court draws",
    ):
        assert seen[kind] > 0, f"no random game had a {kind!r}"
