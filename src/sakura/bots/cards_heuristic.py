"""The card game's one-ply judgement: what a card adds to an area, and what a gift gives away.

* *Place* ``card`` in an area: the area's score after minus before, less a cost for raising
  the area's floor (every number skipped is a card that will no longer fit there), plus small
  bonuses for building towards a combination (a matching colour or three colours, the next
  number of a run) while the area holds fewer than three cards; a blossom beyond the deck's
  limit (the published deck's second), which zeroes the area, is heavily penalised.
* *Give* ``card``: minus what the card is worth to the opponent (its best placement on their
  public areas) and minus half of what it is worth to me; a card that would spoil every one
  of their areas (a second blossom) is a fine gift.
* *Discard* (nothing fits): the lowest card, which is the least likely ever to fit again.

It reads only what the acting player sees: their own hand and the public areas, and scores
them by the game's deck (``game.deck``: the published scores unless the table has another).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from sakura.bots.base import BotError
from sakura.engine import Action, Game, State, View
from sakura.engine.games.cards import AREAS, CardsGame, CardsState, Discard, Give, Place

FLOOR = 0.7  # points lost for each number an area's floor rises
SAME_COLOUR, NEW_COLOUR, NEXT_NUMBER = 2.0, 1.0, 1.5  # towards a combination
SECOND_BLOSSOM = 8.0
_AREA = {name: i for i, name in enumerate(AREAS)}
_PUBLISHED = CardsGame()

Areas = Sequence[Sequence[str]]


def place_value(area: Sequence[str], card: str, game: CardsGame = _PUBLISHED) -> float:
    """What placing ``card`` at the end of ``area`` is worth (may be negative), by ``game``'s
    deck."""
    number = game.number
    n = number[card]
    last = number[area[-1]] if area else 1
    value = game.score_area([*area, card]) - game.score_area(area) - FLOOR * (n - last)
    if card.endswith("*") and sum(c.endswith("*") for c in area) >= game.deck.blossom_limit:
        value -= SECOND_BLOSSOM
    if len(area) < 3 and area:
        colours = {c[0] for c in area}
        if colours == {card[0]}:
            value += SAME_COLOUR
        elif card[0] not in colours and len(colours) == len(area):
            value += NEW_COLOUR
        if n == last + 1:
            value += NEXT_NUMBER
    return value


def best_place(areas: Areas, card: str, game: CardsGame = _PUBLISHED) -> float | None:
    """The best placement value of ``card`` in any area where it fits, or None."""
    number = game.number
    n = number[card]
    values = [place_value(a, card, game) for a in areas if not a or number[a[-1]] <= n]
    return max(values) if values else None


def judge(
    action: Action, mine: Areas, theirs: Areas, game: CardsGame = _PUBLISHED, place: Any = None
) -> float:
    """The heuristic's score of ``action``; ``place`` stands in for :func:`place_value`
    (a memo of it, in search)."""
    value = place or (lambda area, card: place_value(area, card, game))
    if isinstance(action, Place):
        return float(value(mine[_AREA[action.area]], action.card))
    if isinstance(action, Discard):
        return -float(game.number[action.card])
    assert isinstance(action, Give)
    card = action.card
    number = game.number
    n = number[card]

    def best(areas: Areas) -> float | None:
        values = [value(a, card) for a in areas if not a or number[a[-1]] <= n]
        return max(values) if values else None

    for_them = best(theirs)
    for_me = best(mine)
    return -(for_them if for_them is not None else -2.0) - 0.5 * max(for_me or 0.0, 0.0)


MEMO_SIZE = 200_000  # placements remembered by one heuristic (then it starts afresh)


class CardsHeuristic:
    """See the module docstring."""

    def __init__(self, game: CardsGame) -> None:
        self.game = game
        # Search judges the same few placements over and over (an area holds at most a few
        # cards): remembering their values makes rollouts several times faster.
        self.memo: dict[tuple[tuple[str, ...], str], float] = {}

    def place(self, area: Sequence[str], card: str) -> float:
        """:func:`place_value` by this game's deck, remembered."""
        key = (tuple(area), card)
        value = self.memo.get(key)
        if value is None:
            if len(self.memo) >= MEMO_SIZE:
                self.memo.clear()
            value = self.memo[key] = place_value(area, card, self.game)
        return value

    @classmethod
    def for_game(cls, game: Game[Any]) -> CardsHeuristic:
        if not isinstance(game, CardsGame):
            raise BotError(f"the card game's heuristic cannot judge {game!r}")
        return cls(game)

    def view_scores(self, view: View) -> list[float]:
        me = view.player
        assert me is not None
        areas = view.areas  # type: ignore[attr-defined]
        game = self.game
        return [
            judge(game.parse_action(t), areas[me], areas[1 - me], game, self.place)
            for t in view.legal_actions
        ]

    def prior(self, state: State[Any], player: int, actions: Sequence[Action]) -> list[float]:
        assert isinstance(state, CardsState)
        mine, theirs = state.areas[player], state.areas[1 - player]
        return [judge(a, mine, theirs, state.game, self.place) for a in actions]

    def rollout_action(self, state: State[Any], player: int, rng: random.Random) -> Action:
        assert isinstance(state, CardsState)
        actions = state.legal_actions(player)
        mine, theirs = state.areas[player], state.areas[1 - player]
        scores = [judge(a, mine, theirs, state.game, self.place) for a in actions]
        top = max(scores)
        best = [a for a, s in zip(actions, scores, strict=True) if s >= top - 1e-9]
        return best[rng.randrange(len(best))] if len(best) > 1 else best[0]
