"""What each player may know: their hand, the cards they gave and received, their own discards,
the public areas and scores; never the opponent's hand or discards, the set-aside cards or the
generator. Events are redacted the same way."""

from __future__ import annotations

import json
import random

from tests.cards.scenarios import GAME, situation

from sakura.engine.games.cards import CardsState


def _random_states(seed: int) -> list[CardsState]:
    state = GAME.new_initial_state(seed)
    rng = random.Random(seed)
    out = [state.clone()]
    while not state.is_terminal():
        p = state.turn
        state.apply_action(p, rng.choice(state.legal_actions(p)))
        out.append(state.clone())
    return out


def _hidden_twin(state: CardsState, viewer: int | None, rng: random.Random) -> CardsState:
    """The same state with everything ``viewer`` may not see changed (opponent's hand and
    discards swapped with set-aside cards, the generator reseeded)."""
    twin = state.clone()
    twin.rng.state = rng.getrandbits(64)
    for seat in (0, 1):
        if seat == viewer:
            continue
        for stash in (twin.hands[seat], twin.discards[seat]):
            for i in range(len(stash)):
                j = rng.randrange(len(twin.aside))
                stash[i], twin.aside[j] = twin.aside[j], stash[i]
    return twin


def test_views_do_not_change_with_what_the_viewer_cannot_see() -> None:
    rng = random.Random(3)
    for seed in range(4):
        for state in _random_states(seed)[::7]:
            for viewer in (None, 0, 1):
                twin = _hidden_twin(state, viewer, rng)
                if viewer is not None:  # gifts the viewer gave are known: keep only twins that agree
                    twin.given, twin.received = state.given, state.received
                view, other = state.view(viewer).to_json(), twin.view(viewer).to_json()
                view.pop("legal_actions"), other.pop("legal_actions")
                assert view == other


def test_a_view_holds_no_other_hand_nor_the_set_aside_cards() -> None:
    state = GAME.new_initial_state(seed=12)
    text = json.dumps(state.view(0).to_json())
    assert all(f'"{c}"' in text for c in state.hands[0])
    view = state.view(1)
    assert view.hand == tuple(state.hands[1]) and view.aside == 20 and view.hand_sizes == (10, 10)
    spectator = state.view(None)
    assert spectator.hand is None and spectator.given is None and spectator.legal_actions == ()


def test_a_gift_is_seen_by_giver_and_receiver_only() -> None:
    """«یک کارت از دست خود را به حریف میدهید (بهصورت رو به پایین)» (you give a card face down)."""
    state = situation((["r2", "b4"], ["y1"]))
    state.apply_action(0, GAME.parse_action("place r2 garden"))
    gift = state.apply_action(0, GAME.parse_action("give b4"))[0]
    assert gift.seen_by(0) == gift and gift.seen_by(1) == gift
    assert gift.seen_by(None).to_dict()["card"] is None
    assert state.view(0).given == ("b4",) and state.view(1).received == ("b4",)
    assert state.view(None).given is None


def test_a_discard_and_a_deal_are_seen_by_their_owner_only() -> None:
    state = situation((["r1", "b2"], ["y1"]), ([["r5"], ["b5"], ["g4"]], [[], [], []]))
    discard = state.apply_action(0, GAME.parse_action("discard r1"))[0]
    assert discard.seen_by(0) == discard and discard.seen_by(1).to_dict()["card"] is None
    assert state.view(0).discarded == ("r1",) and state.view(1).discard_counts == (1, 0)
    state = situation(([], ["g5"]), turn=1)
    dealt = state.apply_action(1, GAME.parse_action("place g5 temple"))[-1]
    assert dealt.kind == "cards_dealt"
    hands = dealt.seen_by(1).to_dict()["hands"]
    assert hands[0] is None and hands[1] == state.hands[1]
    assert dealt.seen_by(None).to_dict()["hands"] == [None, None]


def test_a_sample_keeps_the_cards_i_gave_in_the_opponents_hand() -> None:
    """Determinization: what I gave and the opponent has not placed is still in their hand."""
    state = situation((["r2", "b4", "y5*"], ["y1", "g1"]))
    state.apply_action(0, GAME.parse_action("place r2 garden"))
    state.apply_action(0, GAME.parse_action("give y5*"))
    view = state.view(0)
    for seed in range(10):
        sample = GAME.sample_state(view, seed)
        assert "y5*" in sample.hands[1] and sample.view(0) == view
