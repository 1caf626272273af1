"""The uniform bot: any game, any phase, one legal action drawn from the bot's own RNG."""

from __future__ import annotations

import random
from typing import Any

from sakura.bots.base import check_view
from sakura.engine import Action, Game, View


class RandomBot:
    """Uniform over ``view.legal_actions``: the baseline every other bot must beat.

    >>> from sakura.engine import make_game
    >>> game = make_game("sakura", {"players": 3})
    >>> view = game.new_initial_state(seed=1).view(0)
    >>> str(RandomBot(game, seed=5).act(view)) in view.legal_actions
    True
    """

    def __init__(self, game: Game[Any], seed: int) -> None:
        self.game = game
        self.rng = random.Random(seed)

    @property
    def spec(self) -> str:
        return "random"

    def act(self, view: View) -> Action:
        legal = check_view(view).legal_actions
        action: Action = self.game.parse_action(legal[self.rng.randrange(len(legal))])
        return action
