"""The three-area Sakura card game's facts and the factory of its states.

>>> game = CardsGame()
>>> state = game.new_initial_state(seed=1)
>>> state.current_players(), len(state.hands[0]), len(state.aside)
((1,), 10, 20)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from sakura.engine.errors import InvalidStateError
from sakura.engine.games.cards.actions import CardsAction, parse_action
from sakura.engine.games.cards.state import CardsState
from sakura.engine.games.cards.view import CardsView


class CardsGame:
    """Two players, forty cards, three areas, three rounds. No options (config ``{}``)."""

    name: ClassVar[str] = "sakura-cards"

    def __repr__(self) -> str:
        return "CardsGame()"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardsGame)

    def __hash__(self) -> int:
        return hash(self.name)

    @property
    def num_players(self) -> int:
        return 2

    def config_json(self) -> dict[str, Any]:
        return {}

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> CardsGame:
        unknown = set(config) - {"players"}
        if unknown:
            raise ValueError(f"unknown config keys for sakura-cards: {sorted(unknown)} (it has none)")
        if config.get("players", 2) != 2:
            raise ValueError(f"sakura-cards is for two players, not {config['players']!r}")
        return cls()

    def new_initial_state(self, seed: int | str = 0, *, events: bool = True) -> CardsState:
        """Draw the first player, shuffle (seeded), deal ten cards each, set twenty aside."""
        return CardsState.new(self, seed, events=events)

    def parse_action(self, text: str) -> CardsAction:
        return parse_action(text)

    def sample_state(self, view: CardsView, seed: int | str, *, events: bool = False) -> CardsState:
        """A full state consistent with ``view`` (see :mod:`.sample`): for search bots."""
        from sakura.engine.games.cards.sample import sample_state

        return sample_state(self, view, seed, events=events)

    def state_from_json(self, data: Mapping[str, Any]) -> CardsState:
        from sakura.engine.games.cards.serialize import state_from_json

        state = state_from_json(data)
        if state.game != self:
            raise InvalidStateError("the saved state belongs to another game")
        return state
