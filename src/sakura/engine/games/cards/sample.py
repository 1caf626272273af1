"""Determinization: a full state consistent with what one player's view shows.

The unseen cards are the game's deck (the published forty) less the viewer's hand, own
discards and every area. The opponent's hand is dealt from them, keeping there first the cards
the viewer gave that the opponent has not visibly placed (nor given back: a card of that name
received later may be the same one), then the opponent's discards and the set-aside cards.
This is a plausible sample, not an exact posterior: search needs states that agree with the
view, drawn without peeking.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from sakura.engine.errors import InvalidStateError, InvalidViewError
from sakura.engine.games.cards.deck import shuffled
from sakura.engine.games.cards.state import CardsState
from sakura.engine.rng import SplitMix64

if TYPE_CHECKING:
    from sakura.engine.games.cards.game import CardsGame
    from sakura.engine.games.cards.view import CardsView


def sample_state(game: CardsGame, view: CardsView, seed: int | str, *, events: bool = False) -> CardsState:

    me = view.player
    if me is None or view.hand is None or view.given is None or view.received is None:
        raise InvalidViewError("sample from a player's view, not a spectator's")
    if view.terminal or view.turn is None or view.phase is None:
        raise InvalidViewError("the game is over: there is nothing to sample")
    assert view.discarded is not None
    opp = 1 - me
    rng = SplitMix64(seed)
    seen = Counter(view.hand) + Counter(view.discarded)
    seen += Counter(c for seat in view.areas for a in seat for c in a)
    cards = game.cards
    pool_count = Counter(cards) - seen
    if sum(pool_count.values()) + sum(seen.values()) != len(cards) or seen - Counter(cards):
        raise InvalidStateError(f"the view does not add up to the deck's {len(cards)} cards")
    opp_size = view.hand_sizes[opp]
    forced = Counter(view.given) - Counter(c for a in view.areas[opp] for c in a) - Counter(view.received)
    forced &= pool_count
    keep = shuffled(sorted(forced.elements(), key=cards.index), rng)[:opp_size]
    rest = shuffled(sorted((pool_count - Counter(keep)).elements(), key=cards.index), rng)
    opp_discards = view.discard_counts[opp]
    if len(keep) + len(rest) != opp_size + opp_discards + view.aside:
        raise InvalidStateError(
            f"the view does not add up: {len(keep) + len(rest)} unseen cards for a hand of {opp_size}, "
            f"{opp_discards} discards and {view.aside} set aside"
        )
    take = opp_size - len(keep)
    opp_hand = keep + rest[:take]
    hands: list[list[str]] = [[], []]
    hands[me], hands[opp] = list(view.hand), opp_hand
    discards: list[list[str]] = [[], []]
    discards[me], discards[opp] = list(view.discarded), rest[take : take + opp_discards]
    s = CardsState.__new__(CardsState)
    s.game = game
    s.rng = SplitMix64(rng.next64())
    s.round = view.round
    s.first = view.starter if view.round % 2 == 1 else 1 - view.starter
    s.turn, s.phase = view.turn, view.phase
    for hand in hands:
        game.sort_cards(hand)
    s.hands = hands
    s.areas = [[list(a) for a in seat] for seat in view.areas]
    s.given, s.received = [[], []], [[], []]
    s.given[me], s.received[me] = list(view.given), list(view.received)
    s.given[opp], s.received[opp] = list(view.received), list(view.given)
    s.discards = discards
    s.aside = rest[take + opp_discards :]
    game.sort_cards(s.aside)
    s.scores = [list(r) for r in view.round_scores]
    s.terminal = False
    s._outcome = None
    s._log = [] if events else None
    s._hook = None
    return s
