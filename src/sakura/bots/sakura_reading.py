"""Reading the other hands from the cards they played: better determinizations for MCTS.

Whoever knows the other hands in Sakura knows where the Emperor will stand this round, and so
which moves bump: a search that saw the true hands (but not the deck) won 93% of its games
against three ``greedy`` (``benchmarks/ladder.py --oracle-hands``), where one that draws the
hands uniformly from the unseen cards wins about 45%. A person at the table reads hands from
play; so can a bot, from its own two last views alone:

* the previous round's view shows the board as it was when everybody chose, and the bot's own
  hand then;
* this round's view shows the discard pile, whose new cards are the previous round's revealed
  cards (the pile is face up): less the bot's own card, the cards the others played.

Each other player held, when choosing, the card it played and four of the five it holds now
(the fifth was drawn afterwards). A player who chooses like the heuristic played the card it
scored best, so a sampled hand that holds cards scoring far better than the one played is
unlikely. The *likelihood* of a sampled deal is, over the ways of giving the played cards to
the players who played them (the pile does not say who played which) and over which card of
each hand was the new one, the softmax probability (temperature ``T``) of each player choosing
its card from the hand it then held (mixed with a small chance, ``SLIP``, of any card: people
and other bots do not always choose as the heuristic would). The search draws a few deals and
keeps one in proportion to its likelihood (sampling-importance-resampling).

Skipped, so the search draws uniformly as before: the first round, a round after which the
pile was shuffled back into the deck, tables with a court painter or a double pick, and any
pair of views that do not follow each other.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Any

from sakura.bots.sakura_heuristic import SakuraHeuristic
from sakura.engine import Game, State, View
from sakura.engine.games.sakura import SakuraGame
from sakura.engine.games.sakura.sample import unseen_cards

Weigh = Callable[[State[Any]], float]
# The chance that a player chose against the model (a slip, another way of judging): without
# it one surprising choice would rule out the true hands.
SLIP = 0.05


class SakuraHandReader:
    """See the module docstring. ``temperature`` is the softmax's, in the heuristic's tokens."""

    def __init__(self, game: SakuraGame) -> None:
        self.game = game
        self.heuristic = SakuraHeuristic(game)

    @classmethod
    def for_game(cls, game: Game[Any]) -> SakuraHandReader | None:
        return cls(game) if isinstance(game, SakuraGame) and game.court < 0 else None

    def played(self, previous: View, view: View) -> list[int] | None:
        """The cards the others played in the round between ``previous`` and ``view`` (the
        player's selection views of two rounds in a row), or ``None`` where that is unknown."""
        p: Any = previous
        v: Any = view
        if (p.player != v.player or v.round != p.round + 1 or p.pending is not None or v.pending is not None
                or p.double is not None or v.double is not None or p.hand is None or v.hand is None):
            return None
        if v.discard[: len(p.discard)] != p.discard:
            return None  # the pile was shuffled into the deck: the round's cards are not all there
        new = v.discard[len(p.discard):]
        mine = [c for c in new if c in p.hand]
        if len(mine) != 1 or len(new) != v.players:
            return None  # a round cut short still discards every revealed card; anything else is odd
        return [c for c in new if c != mine[0]]

    def weigher(self, previous: View | None, view: View, temperature: float) -> Weigh | None:
        """The likelihood of a sampled state's other hands given what they played, or ``None``
        where there is nothing to read."""
        if previous is None:
            return None
        cards = self.played(previous, view)
        if not cards:
            return None
        p: Any = previous
        me = view.player
        assert me is not None
        others = [s for s in range(p.players) if s != me]
        board = (p.emperor, list(p.painters), list(p.tokens), p.scored)
        if p.scored >= len(self.heuristic.sakuras):
            return None
        h = self.heuristic
        # exp(score / T) for every other player of every card a sample can give them (the
        # cards this view has not seen, and the ones they played), judged on the earlier board.
        now: Any = view
        held = unseen_cards(self.game, now) + list(cards)  # the played ones are in view's pile
        weight: dict[int, dict[int, float]] = {}
        for seat in others:
            scores = {c: h._select_value(board, seat, c, seat) - h.keep[c] for c in held}
            top = max(scores.values())
            weight[seat] = {c: math.exp(max(-60.0, (s - top) / temperature)) for c, s in scores.items()}
        orders = list(itertools.permutations(cards))

        def chose(seat: int, card: int, hand: list[int]) -> float:
            w = weight[seat]
            x = w[card]
            held = [w[c] for c in hand]
            p = 0.0
            for i in range(len(held)):  # the i-th card is the one drawn after the choice
                p += x / (x + sum(held[:i]) + sum(held[i + 1:]))
            return (1.0 - SLIP) * p / len(held) + SLIP / (len(held) + 1)

        def weigh(state: State[Any]) -> float:
            s: Any = state
            hands = s.hands
            table = {(seat, card): chose(seat, card, hands[seat]) for seat in others for card in cards}
            return sum(math.prod(table[(seat, card)] for seat, card in zip(others, order, strict=True))
                       for order in orders) / len(orders)

        return weigh
