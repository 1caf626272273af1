"""Invariants over random games: the forty cards are conserved, every area only goes up, and
every round's scores equal a brute-force recount written independently of the engine."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from sakura.engine.games.cards import AREAS, DECK, CardsGame, CardsState, Place

GAME = CardsGame()


def recount(area: list[str]) -> int:
    """The scoring rules, re-implemented from the card texts alone."""
    if sum(card.endswith("*") for card in area) > 1:
        return 0
    best = 0
    for trio in combinations(area, 3):
        colours = {card[0] for card in trio}
        numbers = sorted(int(card[1]) for card in trio)
        points = {3: 10, 1: 15}.get(len(colours), 0)
        if numbers == list(range(numbers[0], numbers[0] + 3)):
            points += 5
        best = max(best, points)
    return best + 3 * sum(card.endswith("*") for card in area)


def check_invariants(state: CardsState) -> None:
    everything = [c for h in state.hands for c in h] + [c for s in state.areas for a in s for c in a]
    everything += [c for d in state.discards for c in d] + state.aside
    assert Counter(everything) == Counter(DECK), "cards are conserved"
    for seat in state.areas:
        for area in seat:
            numbers = [int(c[1]) for c in area]
            assert numbers == sorted(numbers), f"an area went down: {area}"
    assert len(state.aside) == 20
    assert state.given[0] == state.received[1] and state.given[1] == state.received[0]


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**63))
def test_random_games_keep_the_invariants(seed: int) -> None:
    state = GAME.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        check_invariants(state)
        player = state.current_players()[0]
        legal = state.legal_actions(player)
        assert legal
        if state.phase == "place" and all(str(a).startswith("discard") for a in legal):
            assert not any(state.fits(player, c) for c in state.hands[player]), "a needless discard"
        action = rng.choice(legal)
        before = [[a[:] for a in seat] for seat in state.areas]
        if isinstance(action, Place):  # the round may end with this card in its area
            before[player][AREAS.index(action.area)].append(action.card)
        events = state.apply_action(player, action)
        scored = [e for e in events if e.kind == "round_scored"]
        if scored:
            assert scored[0].to_dict()["areas"] == [[recount(a) for a in seat] for seat in before]
        else:
            check_invariants(state)
    outcome = state.outcome()
    assert outcome is not None and len(state.scores[0]) == 3
    assert outcome.scores == (sum(state.scores[0]), sum(state.scores[1]))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(sorted(set(DECK))), max_size=8))
def test_the_area_score_equals_a_brute_force_recount(area: list[str]) -> None:
    from sakura.engine.games.cards import score_area

    assert score_area(area) == recount(area)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(sorted(set(DECK))), max_size=8))
def test_the_explained_score_is_the_score_and_its_three_cards_make_it(area: list[str]) -> None:
    """What the apps show ("b1 g2 r3: three colours in a row, 15") is the engine's score, and
    the three cards named are in the area and score that much by the recount."""
    from sakura.engine.games.cards import explain_area, score_area

    shown = explain_area(area)
    assert shown.points == score_area(area) == recount(area)
    blossoms = sum(card.endswith("*") for card in area)
    assert shown.blossoms == blossoms
    if len(shown.best) == 3:
        assert not Counter(shown.best) - Counter(area)
        assert recount([c.rstrip("*") for c in shown.best]) == max(
            recount([c.rstrip("*") for c in trio]) for trio in combinations(area, 3)
        )
        colours = len({card[0] for card in shown.best})
        assert shown.combination == {3: "colours", 1: "one_colour"}.get(colours, "none")
    else:
        assert shown.best == () and shown.combination == "none" and not shown.run
        assert all(recount([c.rstrip("*") for c in trio]) == 0 for trio in combinations(area, 3))


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=2**63), st.integers(min_value=0, max_value=100))
def test_fast_play_matches_checked_play(seed: int, cut: int) -> None:
    """``apply_fast`` and ``clone`` (for search) give the same game as ``apply_action``."""
    checked = GAME.new_initial_state(seed)
    fast = GAME.new_initial_state(seed, events=False)
    rng = random.Random(seed)
    step = 0
    while not checked.is_terminal():
        if step == cut:
            fast = fast.clone()
        player = checked.current_players()[0]
        action = rng.choice(checked.legal_actions(player))
        checked.apply_action(player, action)
        fast.apply_fast(player, action)
        step += 1
    assert fast.to_json() == checked.to_json() and fast.outcome() == checked.outcome()
