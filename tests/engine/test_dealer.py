"""A dealer names each card drawn (``new_initial_state(dealer=...)``, ``set_dealer``): how a
caller that models chance itself (OpenSpiel, card by card) drives the engine. Naming the
cards a seeded game drew replays that game; without a dealer nothing changes."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest

from sakura.engine import make_game
from sakura.engine.errors import InvalidStateError
from sakura.engine.games.sakura import events as ev
from sakura.engine.games.sakura.game import SakuraGame
from sakura.engine.games.sakura.state import SakuraState

TABLES = [(2, "court"), (2, "tactical"), (3, None), (4, None), (6, None)]


def _play(state: SakuraState, rng: random.Random) -> list[tuple[int, str]]:
    """Play ``state`` to the end with random legal actions; return them as (seat, text)."""
    moves = []
    while not state.is_terminal():
        seat = rng.choice(state.current_players())
        action = rng.choice(state.legal_actions(seat))
        moves.append((seat, str(action)))
        state.apply_action(seat, action)
    return moves


def _draws(game: SakuraGame, first: SakuraState, events: list[ev.Event]) -> list[int]:
    """Every card the game drew, in the order drawn: the deal round the table, then the
    court painter's cards and the refills as the events tell them."""
    hands = [first.hand(p) for p in range(game.players)]
    out = [hands[p][k] for k in range(5) for p in range(game.players)]
    for event in events:
        if isinstance(event, ev.CardsRevealed) and event.court_from_deck:
            out.extend(card for seat, card in event.plays if seat == game.court)
        elif isinstance(event, ev.HandsRefilled):
            out.extend(card for drawn in event.draws for card in drawn or ())
    return out


class _Replay:
    """A dealer naming recorded cards in order, and what it was offered each time."""

    def __init__(self, cards: list[int]) -> None:
        self.cards = cards[::-1]
        self.offered: list[tuple[int, ...]] = []

    def __call__(self, deck: Sequence[int]) -> int:
        self.offered.append(tuple(deck))
        return self.cards.pop()


@pytest.mark.parametrize(("players", "variant"), TABLES)
def test_naming_the_cards_a_seeded_game_drew_replays_it(players: int, variant: str | None) -> None:
    game = SakuraGame(players, variant)
    for seed in range(12):
        seeded = game.new_initial_state(seed)
        first = seeded.clone()
        log: list[ev.Event] = []
        rng = random.Random(seed)
        moves = []
        while not seeded.is_terminal():
            seat = rng.choice(seeded.current_players())
            action = rng.choice(seeded.legal_actions(seat))
            moves.append((seat, action))
            log.extend(seeded.apply_action(seat, action))
        dealer = _Replay(_draws(game, first, log))
        dealt = game.new_initial_state(seed + 1000, dealer=dealer)  # another seed: the dealer decides
        assert [dealt.view(p) for p in range(players)] == [first.view(p) for p in range(players)]
        for seat, action in moves:
            dealt.apply_action(seat, action)
        assert dealer.cards == []
        assert [dealt.view(p) for p in range(players)] == [seeded.view(p) for p in range(players)]
        assert dealt.outcome() == seeded.outcome()


def test_the_dealer_is_offered_the_deck_and_after_it_ran_out_the_discard_pile() -> None:
    """Each draw is offered exactly the cards a shuffled deck would have held; the discard
    pile becomes the deck unshuffled (the dealer decides), its order not told to anyone."""
    game = SakuraGame(6)  # six hands drain the deck fastest
    rng, dealer_rng = random.Random(4), random.Random(5)
    offered: list[tuple[int, ...]] = []
    piles: list[tuple[int, ...]] = []  # the discard pile when each card was offered
    holder: list[SakuraState] = []

    def dealer(deck: Sequence[int]) -> int:
        offered.append(tuple(deck))
        piles.append(tuple(holder[0].discard) if holder else ())
        return dealer_rng.choice(list(deck))

    state = game.new_initial_state(0, dealer=dealer)
    holder.append(state)
    assert len(offered) == 30 and offered[0] == tuple(game.numbers)
    assert all(len(a) == len(b) + 1 and set(b) < set(a) for a, b in itertools.pairwise(offered))
    reshuffled = []
    while not state.is_terminal():
        seat = rng.choice(state.current_players())
        events = state.apply_action(seat, rng.choice(state.legal_actions(seat)))
        reshuffled.extend(e for e in events if isinstance(e, ev.DeckReshuffled))
    assert reshuffled, "this game ran the deck out"
    assert all(e.order is None and e.seen_by(0) == e for e in reshuffled)
    # Where an offer is not the last one less its card, the pile had become the deck: it was
    # offered whole (the discard is empty then) and sized as the event says.
    after = [i for i, (a, b) in enumerate(itertools.pairwise(offered), 1) if not set(b) < set(a)]
    assert len(after) == len(reshuffled)
    assert all(piles[i] == () for i in after)
    assert [len(offered[i]) for i in after] == [e.size for e in reshuffled]


def test_a_dealer_naming_a_card_outside_the_deck_is_refused() -> None:
    game = SakuraGame(3)
    with pytest.raises(InvalidStateError, match="not in the deck"):
        game.new_initial_state(0, dealer=lambda deck: 999)
    state = game.new_initial_state(0)
    state.set_dealer(lambda deck: state.hand(0)[0])  # a card in a hand, not in the deck
    with pytest.raises(InvalidStateError, match="not in the deck"):
        _play(state, random.Random(0))  # the first refill asks the dealer
    assert state.round == 1


def test_without_a_dealer_the_seed_decides_and_a_clone_draws_from_its_deck() -> None:
    game = make_game("sakura", {"players": 4})
    a, b = game.new_initial_state(7), game.new_initial_state(7)
    b.set_dealer(lambda deck: deck[-1])  # naming the top card is the seeded game itself
    b.set_dealer(None)
    assert _play(a, random.Random(1)) == _play(b, random.Random(1))
    assert a.to_json() == b.to_json()
    dealt = SakuraGame(4).new_initial_state(7, dealer=lambda deck: deck[0])
    clone = dealt.clone()
    assert clone._dealer is None and dealt._dealer is not None
