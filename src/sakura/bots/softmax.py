"""A bot that errs like a person: it plays the heuristic's good moves more often than its bad
ones, but not always the best.

``softmax:T`` draws an action with probability proportional to ``exp((score - best) / T)``,
the scores being the game heuristic's (Sakura's are in tokens, the card game's in points:
both heuristics value a move in the game's own score, so one temperature means about the same
in both). At ``T = 0.5`` a move worth one token less than the best is played ``e**2`` (about
7) times less often, and a likely bump (five tokens' worth) about 22,000 times less often: the
bot errs between moves of similar worth, rarely blunders, and never plays uniformly at random
(unless every move is worth the same, when any is as good). Scaling by the spread of the
scores instead was tried and rejected: one outlier (a bump) then squeezes every other move
together, and the bot plays almost at random among them.

A newcomer misjudges what a card is worth but sees an obvious blunder most of the time:
``avoid=P`` leaves the moves that plainly walk the player's painter into the Emperor
(:func:`sakura.bots.novice.obvious_bumps`) out of the draw on a share ``P`` of the decisions
(unless every move is one). A game without such a sense (the card game) plays as without it.

The draw uses the bot's own seeded RNG, so a seed and the views give the same game.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from sakura.bots.base import BotError, check_view, weighted_index
from sakura.bots.heuristics import Heuristic, heuristic_for
from sakura.engine import Action, Game, View


def softmax_weights(scores: list[float], temperature: float) -> list[float]:
    """Unnormalized softmax weights of ``scores`` at ``temperature`` (the best weighs 1).

    >>> [round(w, 3) for w in softmax_weights([3.0, 1.0, 2.0], 0.5)]
    [1.0, 0.018, 0.135]
    >>> softmax_weights([1.0, 1.0], 0.5)
    [1.0, 1.0]
    """
    top = max(scores)
    return [math.exp((s - top) / temperature) for s in scores]


class SoftmaxBot:
    """See the module docstring. ``temperature`` > 0; smaller is closer to ``greedy``.

    >>> from sakura.engine import make_game
    >>> game = make_game("sakura", {"players": 4})
    >>> view = game.new_initial_state(seed=3).view(2)
    >>> str(SoftmaxBot(game, seed=1, temperature=0.3).act(view)) in view.legal_actions
    True
    """

    def __init__(
        self,
        game: Game[Any],
        seed: int,
        temperature: float,
        heuristic: Heuristic | None = None,
        label: str | None = None,
        *,
        avoid: float = 0.0,
    ) -> None:
        if not temperature > 0 or math.isinf(temperature):
            raise BotError(f"a softmax temperature is a positive number, not {temperature!r}")
        if not 0.0 <= avoid <= 1.0:
            raise BotError(f"avoid is a share of the decisions, from 0 to 1, not {avoid!r}")
        self.avoid = avoid
        self.game = game
        self.rng = random.Random(seed)
        self.temperature = temperature
        found = heuristic or heuristic_for(game)
        assert found is not None
        self.heuristic: Heuristic = found
        self.label = label or f"softmax:{temperature:g}" + (f",avoid={avoid:g}" if avoid else "")
        self.blunders: Callable[[Any, View], list[bool]] | None = None
        if avoid > 0 and game.name == "sakura":
            from sakura.bots.novice import obvious_bumps

            self.blunders = obvious_bumps

    @property
    def spec(self) -> str:
        return self.label

    def act(self, view: View) -> Action:
        legal = check_view(view).legal_actions
        if len(legal) == 1:
            only: Action = self.game.parse_action(legal[0])
            return only
        weights = softmax_weights(self.heuristic.view_scores(view), self.temperature)
        if self.blunders is not None and self.rng.random() < self.avoid:
            plain = self.blunders(self.heuristic, view)
            if not all(plain):
                weights = [0.0 if bad else w for w, bad in zip(weights, plain, strict=True)]
        action: Action = self.game.parse_action(legal[weighted_index(weights, self.rng)])
        return action
