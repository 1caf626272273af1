"""A round: simultaneous selection, resolution in order, choices, discarding and refilling."""

from __future__ import annotations

import pytest
from tests.engine.scenarios import (
    CardChosen,
    CardResolving,
    CardsRevealed,
    ChoiceAsked,
    DeckReshuffled,
    EmperorMoved,
    HandsRefilled,
    PainterMoved,
    choose,
    find,
    of_card,
    play,
    setup,
)

from sakura.engine.errors import NotYourTurnError
from sakura.engine.games.sakura import BACK, FORWARD, Play


def test_cards_are_chosen_secretly_and_revealed_together() -> None:
    """Rulebook: "In each round, players secretly choose a card from their hand and reveal it
    simultaneously." """
    state = setup("3 e5 s0 p0,0,0", hands=(6, 26, 29))
    first = play(state, 6, 26)
    assert first == [CardChosen(0, (6,)), CardChosen(1, (26,))]
    assert [e.seen_by(2) for e in first] == [CardChosen(0, None), CardChosen(1, None)]
    assert state.current_players() == (2,)
    assert (state.emperor, state.pos) == (5, [0, 0, 0])  # nothing resolves before the last choice
    last = play(state, None, None, 29)
    assert find(last, CardsRevealed) == [CardsRevealed(((0, 6), (1, 26), (2, 29)), False)]
    assert (state.emperor, state.pos) == (8, [1, 2, 3])


def test_the_order_of_submission_changes_nothing() -> None:
    """Rulebook: "In each round, players secretly choose a card from their hand and reveal it
    simultaneously." """
    texts = []
    for order in ((0, 1, 2), (2, 0, 1), (1, 2, 0)):
        state = setup("3 e14 s1 p12,13,11", hands=(8, 49, 18))
        for seat in order:
            state.apply_action(seat, Play((8, 49, 18)[seat]))
        texts.append(state.text())
    assert texts[0] == texts[1] == texts[2]


def test_cards_resolve_lowest_order_number_first() -> None:
    """Rulebook: "The cards are resolved following the order of their numbering, from smallest
    to largest, until all cards are resolved." """
    state = setup("3 e8 s0 p0,0,0", hands=(49, 8, 18))
    events = play(state, 49, 8, 18)
    assert find(events, CardsRevealed)[0].plays == ((1, 8), (2, 18), (0, 49))
    assert [(e.seat, e.card) for e in find(events, CardResolving)] == [(1, 8), (2, 18), (0, 49)]


def test_garden_action_first_then_painter_action() -> None:
    """Rulebook: "Each card played has two actions that are always performed in the following
    order: first the garden action, then the painter action." """
    # Card 49 is E+2 P+2. Painter first, blue (seat 0) would walk into the Emperor on 14.
    state = setup("3 e14 s1 p13,0,0", hands=(49, 50, 57))
    events = of_card(play(state, 49, 50, 57), 49)
    assert events[1:] == [EmperorMoved(49, 14, 16), PainterMoved(0, 13, 15, "painter", 49)]


def test_a_choice_is_asked_when_its_card_resolves_and_of_its_owner_only() -> None:
    """Rulebook: "Choose whether the Emperor moves 1 space forward or backward."
    Ruling 18: "The choice is asked when its card resolves, after the earlier cards of the round
    have resolved; only its owner acts then." """
    # Seat 0 plays 8 (C-2 P+1), seat 1 plays 9 (E±1 COUNT), seat 2 plays 50 (E+1 P+3).
    state = setup("3 e14 s1 p13,0,0", hands=(8, 9, 50))
    events = play(state, 8, 9, 50)
    assert events[-1] == ChoiceAsked(1, 9, "garden")
    assert state.pending_choice() == (1, 9, "garden")
    assert state.current_players() == (1,)
    assert state.legal_actions(1) == [FORWARD, BACK]
    assert state.legal_actions(0) == state.legal_actions(2) == []
    assert state.pos == [12, 0, 0]  # card 8 has resolved: back two to 11, forward one
    assert state.emperor == 14  # card 50 has not
    with pytest.raises(NotYourTurnError):
        state.apply_action(0, BACK)
    choose(state, BACK)
    assert state.emperor == 14  # back to 13, then card 50 forward to 14
    assert state.pos == [12, 1, 4]


def test_a_choice_always_offers_both_directions() -> None:
    """Rulebook: "Choose whether your painter moves 1, 2, or 3 spaces forward or backward."
    Ruling 19: "A choice card always offers both directions, even when one of them has no
    effect (for example backward from the gate)." """
    # Seat 0 plays 11 (E-1 P±3) from the gate.
    state = setup("3 e8 s0 p0,0,0", hands=(11, 50, 57))
    play(state, 11, 50, 57)
    assert state.pending_choice() == (0, 11, "painter")
    assert state.legal_actions(0) == [FORWARD, BACK]
    events = choose(state, BACK)
    assert find(events, PainterMoved, seat=0, card=11) == [PainterMoved(0, 0, 0, "painter", 11)]
    assert (state.emperor, state.pos) == (9, [0, 3, 2])


def test_hands_refill_to_five_at_the_end_of_the_round_in_seat_order() -> None:
    """Rulebook: "After each card is resolved, it is discarded into a discard pile, and each
    player draws a new card from the pile."
    Ruling 20: "Hands refill to five at the end of each round, in seat order." """
    state = setup("3 e5 s0 p0,0,0 d60.59.58.57", hands=(6, 26, 29))
    events = play(state, 6, 26, 29)
    assert state.discard[-3:] == [6, 26, 29]
    assert find(events, HandsRefilled) == [HandsRefilled((1, 1, 1), ((60,), (59,), (58,)))]
    assert [len(h) for h in state.hands] == [5, 5, 5]
    assert 60 in state.hands[0] and 59 in state.hands[1] and 58 in state.hands[2]
    assert state.deck == [57]
    assert state.current_players() == (0, 1, 2) and state.round == 2


def _reshuffle_round(seed: int) -> tuple[list[int], list[list[int]], list[DeckReshuffled]]:
    state = setup("3 e5 s0 p0,0,0 d60", hands=(6, 26, 29), seed=seed)
    old_discard = set(state.discard) | {6, 26, 29}  # with this round's cards
    events = play(state, 6, 26, 29)
    refill = find(events, HandsRefilled)[0]
    assert refill.draws[0] == (60,)  # the last card of the old deck
    drawn = {c for d in refill.draws[1:] for c in d or ()}
    assert set(state.deck) | drawn == old_discard and state.discard == []
    return state.deck, state.hands, find(events, DeckReshuffled)


def test_the_discard_pile_is_reshuffled_when_the_deck_runs_out() -> None:
    """Rulebook: "If the card pile runs out, the discard pile is shuffled to form a new pile."
    Ruling 13: "The discard pile is reshuffled (seeded) into a new deck when the deck runs
    out." """
    deck, hands, reshuffles = _reshuffle_round(seed=1)
    assert len(reshuffles) == 1 and reshuffles[0].size == 44 + 3  # the old pile and this round's cards
    assert len(deck) == reshuffles[0].size - 2  # seats 1 and 2 drew from the new deck
    assert _reshuffle_round(seed=1)[:2] == (deck, hands)  # the same seed, the same order
    assert _reshuffle_round(seed=2)[0] != deck
