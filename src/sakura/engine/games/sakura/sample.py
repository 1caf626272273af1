"""Determinization: a full state consistent with what one player's view shows.

Search bots decide from a view, never from the true state; to look ahead they sample the
hidden part (other hands, other players' secret cards, the deck order, the generator) from
the cards the viewer has not seen, and play on that sample. The unseen cards are every card
less the viewer's hand and secret choice, the face-up discard pile and the revealed cards of
the round still to resolve.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sakura.engine.errors import InvalidStateError
from sakura.engine.games.sakura.position import Position
from sakura.engine.games.sakura.serialize import state_from_position
from sakura.engine.rng import SplitMix64

if TYPE_CHECKING:
    from sakura.engine.games.sakura.game import SakuraGame
    from sakura.engine.games.sakura.state import SakuraState
    from sakura.engine.games.sakura.view import SakuraView


def unseen_cards(game: SakuraGame, view: SakuraView) -> list[int]:
    """The cards ``view.player`` cannot see, in order-number order."""
    seen = set(view.discard)
    seen.update(card for _, card in view.revealed[view.resolved :])
    if view.hand is not None:
        seen.update(view.hand)
    if view.my_choice is not None:
        seen.update(view.my_choice)
    return [c for c in game.numbers if c not in seen]


def sample_state(
    game: SakuraGame, view: SakuraView, seed: int | str, *, events: bool = False
) -> SakuraState:
    """A state that shows ``view`` to ``view.player``, its hidden part drawn from ``seed``.
    Events are off by default: samples are for search, which only needs the outcome."""
    me = view.player
    rng = SplitMix64(seed)
    pool = unseen_cards(game, view)
    rng.shuffle(pool)
    hands: list[tuple[int, ...]] = []
    chosen: list[tuple[int, ...]] = []
    for seat in range(game.players):
        if seat == me:
            assert view.hand is not None
            hands.append(view.hand)
            chosen.append(view.my_choice or ())
            continue
        hands.append(tuple(sorted(pool.pop() for _ in range(view.hand_sizes[seat]))))
        if view.chosen[seat]:
            count = 2 if seat == view.double else 1
            chosen.append(tuple(pool.pop() for _ in range(count)))
        else:
            chosen.append(())
    if len(pool) != view.deck_size:
        raise InvalidStateError(
            f"the view does not add up: {len(pool)} unseen cards left for a deck of {view.deck_size}")
    stage = 0
    if view.pending is not None:
        stage = 1 if view.pending[2] == "garden" else 3
    scoring = view.scored < len(view.sakuras) and view.emperor == view.sakuras[view.scored]
    position = Position(
        players=view.players, variant=view.variant, emperor=view.emperor, scored=view.scored,
        painters=view.painters, tokens=view.tokens, supply=view.supply, round=view.round,
        hands=tuple(hands), deck=tuple(pool), discard=view.discard,
        chosen=tuple(chosen) if any(chosen) else None,
        queue=tuple((card, seat) for seat, card in view.revealed[view.resolved :]),
        stage=stage, scoring=scoring,
    )
    state = state_from_position(game, position, rng.next64(), events=events)
    if view.resolved:  # keep the round's resolved cards in view, as the true state does
        state.queue = [(card, seat) for seat, card in view.revealed]
        state.qi = view.resolved
    return state
