"""Determinization: a full state consistent with what one player's view shows.

Search bots decide from a view, never from the true state; to look ahead they sample the
hidden part (other hands, other players' secret cards, the deck order, the generator) from
the cards the viewer has not seen, and play on that sample. The unseen cards are every card
less the viewer's hand and secret choice, the face-up discard pile and the revealed cards of
the round still to resolve.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from sakura.engine.errors import InvalidStateError, InvalidViewError
from sakura.engine.games.sakura.decisions import NOT_STARTED, STAGE_OF_CHOICE
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


class Sampler:
    """Draws of states that show ``view`` to ``view.player``, each one's hidden part drawn
    from a seed: ``Sampler(game, view)(seed)``. Events are off by default: samples are for
    search, which only needs the outcome.

    ``likely`` (seat -> card -> weight) draws that seat's cards (hand and secret choice) one
    by one in proportion to the weights, instead of uniformly: what a player has read of the
    others' hands from their play. A card without a weight weighs 1; a seat without weights,
    and the deck, take the cards left, uniformly.

    A search draws thousands of samples from one view: a sampler works out the unseen cards
    once, and keeps the first draw's state as a template (the public part set up, its hidden
    part dealt again for each later draw), which spares every later draw the position's checks
    and set-up (three times as many draws a second). It changes no result: a draw is the state
    that setting it up afresh makes (the tests compare both ways)."""

    def __init__(
        self,
        game: SakuraGame,
        view: SakuraView,
        *,
        events: bool = False,
        likely: Mapping[int, Mapping[int, float]] | None = None,
    ) -> None:
        if view.player is None:
            raise InvalidViewError("sample from a player's view, not a spectator's")
        self.game = game
        self.view = view
        self.events = events
        self.likely = likely
        self._unseen = unseen_cards(game, view)
        self._template: SakuraState | None = None
        self._drawn = False

    def __call__(self, seed: int | str) -> SakuraState:
        game, view, likely = self.game, self.view, self.likely
        me = view.player
        rng = SplitMix64(seed)
        template = self._template
        pool = self._unseen[:]
        rng.shuffle(pool)
        dealt: dict[int, list[int]] = {}
        if likely:
            for seat in sorted(likely, key=lambda _: rng.next64()):  # no seat reads first always
                if seat != me and 0 <= seat < game.players:
                    picked = 0 if not view.chosen[seat] else 2 if seat == view.double else 1
                    count = view.hand_sizes[seat] + picked
                    dealt[seat] = _weighed_draw(pool, likely[seat], count, rng)
        hands: list[tuple[int, ...]] = []
        chosen: list[tuple[int, ...]] = []
        for seat in range(game.players):
            if seat == me:
                assert view.hand is not None
                hands.append(view.hand)
                chosen.append(view.my_choice or ())
                continue
            cards = dealt.get(seat)
            take = cards.pop if cards is not None else pool.pop
            hands.append(tuple(sorted(take() for _ in range(view.hand_sizes[seat]))))
            if view.chosen[seat]:
                count = 2 if seat == view.double else 1
                chosen.append(tuple(take() for _ in range(count)))
            else:
                chosen.append(())
        if len(pool) != view.deck_size:
            raise InvalidStateError(
                f"the view does not add up: {len(pool)} unseen cards left for a deck of {view.deck_size}"
            )
        if template is not None:
            return _dealt(template, hands, chosen, pool, rng.next64())
        if self._drawn:  # the first draw found no template to keep: every draw sets up afresh
            return self._set_up(hands, chosen, pool, rng.next64())
        self._drawn = True
        state = self._set_up(hands, chosen, pool, rng.next64())
        # A template serves where setting the position up did nothing the hidden part decides:
        # no card resolved on from it (that may end the round and draw from the deck).
        if not state.terminal and (not view.revealed[view.resolved :] or view.pending is not None):
            self._template = state.clone()
        return state

    def _set_up(
        self,
        hands: list[tuple[int, ...]],
        chosen: list[tuple[int, ...]],
        pool: list[int],
        seed: int,
    ) -> SakuraState:
        """The state the view shows, its hidden part as dealt, set up through a position."""
        game, view = self.game, self.view
        stage = NOT_STARTED if view.pending is None else STAGE_OF_CHOICE[view.pending[2]]
        scoring = view.scored < len(view.sakuras) and view.emperor == view.sakuras[view.scored]
        queue = tuple((card, seat) for seat, card in view.revealed[view.resolved :])
        position = Position(
            players=view.players,
            variant=view.variant,
            emperor=view.emperor,
            scored=view.scored,
            painters=view.painters,
            tokens=view.tokens,
            supply=view.supply,
            round=view.round,
            hands=tuple(hands),
            deck=tuple(pool),
            discard=view.discard,
            chosen=tuple(chosen) if any(chosen) else None,
            queue=queue,
            stage=stage,
            scoring=scoring,
        )
        state = state_from_position(game, position, seed, events=self.events)
        state.last_round = view.last_round
        if view.resolved:  # keep the round's resolved cards in view, as the true state does
            state.queue = [(card, seat) for seat, card in view.revealed]
            state.qi = view.resolved
        return state


def sample_state(
    game: SakuraGame,
    view: SakuraView,
    seed: int | str,
    *,
    events: bool = False,
    likely: Mapping[int, Mapping[int, float]] | None = None,
) -> SakuraState:
    """One draw of :class:`Sampler` (see there): a state that shows ``view`` to
    ``view.player``, its hidden part drawn from ``seed``."""
    return Sampler(game, view, events=events, likely=likely)(seed)


def _weighed_draw(pool: list[int], weights: Mapping[int, float], count: int, rng: SplitMix64) -> list[int]:
    """``count`` cards taken out of ``pool``, one by one, each in proportion to its weight
    among those left (uniformly among them if all weigh nothing), in the order drawn."""
    out: list[int] = []
    for _ in range(count):
        w = [max(0.0, weights.get(c, 1.0)) for c in pool]
        total = sum(w)
        if total > 0.0:
            x = rng.next64() / 18446744073709551616.0 * total
            i = 0
            last = len(pool) - 1
            while i < last and x >= w[i]:
                x -= w[i]
                i += 1
        else:
            i = rng.below(len(pool))
        out.append(pool.pop(i))
    return out


def _dealt(
    template: SakuraState,
    hands: list[tuple[int, ...]],
    chosen: list[tuple[int, ...]],
    pool: list[int],
    seed: int,
) -> SakuraState:
    """``template`` with the hidden part dealt: what ``state_from_position`` makes of it."""
    state = template.clone()
    state.hands = [sorted(h) for h in hands]
    state.deck = pool[::-1]
    state.rng = SplitMix64(seed)
    picks = state.picks
    for seat, pick in enumerate(chosen):
        if pick:
            picks[seat] = pick
    return state
