"""The greedy bot: the best action by its game's one-ply heuristic, nothing looked ahead."""

from __future__ import annotations

import random
from typing import Any

from sakura.bots.base import check_view
from sakura.bots.heuristics import Heuristic, heuristic_for
from sakura.engine import Action, Game, View


class GreedyBot:
    """Plays the action its game's :class:`~sakura.bots.heuristics.Heuristic` scores best;
    near-equal scores (within ``1e-9``) are broken by the bot's seeded RNG.

    >>> from sakura.engine import make_game
    >>> game = make_game("sakura", {"players": 4})
    >>> view = game.new_initial_state(seed=3).view(2)
    >>> str(GreedyBot(game, seed=1).act(view)) in view.legal_actions
    True
    """

    def __init__(
        self, game: Game[Any], seed: int, heuristic: Heuristic | None = None, label: str = "greedy"
    ) -> None:
        self.game = game
        self.label = label  # "greedy", or the level it plays for ("club")
        self.rng = random.Random(seed)
        found = heuristic or heuristic_for(game)
        assert found is not None
        self.heuristic: Heuristic = found

    @property
    def spec(self) -> str:
        return self.label

    def act(self, view: View) -> Action:
        legal = check_view(view).legal_actions
        if len(legal) == 1:
            only: Action = self.game.parse_action(legal[0])
            return only
        scores = self.heuristic.view_scores(view)
        top = max(scores)
        best = [i for i, s in enumerate(scores) if s >= top - 1e-9]
        pick = best[self.rng.randrange(len(best))] if len(best) > 1 else best[0]
        action: Action = self.game.parse_action(legal[pick])
        return action
