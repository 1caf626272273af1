"""Games by name, so bots, records and apps can pick a game from a string.

>>> game = make_game("sakura", {"players": 3})
>>> game.num_players
3
>>> sorted(available_games())
['sakura', 'sakura-cards']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sakura.engine.errors import GameError
from sakura.engine.games.cards.game import CardsGame
from sakura.engine.games.sakura.game import SakuraGame
from sakura.engine.protocol import FastGame, Game

GameFactory = Callable[[Mapping[str, Any]], Game[Any]]
_FACTORIES: dict[str, GameFactory] = {}


def register_game(name: str, factory: GameFactory) -> None:
    """Make ``make_game(name, config)`` call ``factory(config)``."""
    _FACTORIES[name] = factory


def available_games() -> list[str]:
    return list(_FACTORIES)


def make_game(name: str, config: Mapping[str, Any] | None = None) -> Game[Any]:
    """Build a game from its name and a JSON config (see each game's ``config_json``)."""
    try:
        factory = _FACTORIES[name]
    except KeyError:
        known = ", ".join(sorted(_FACTORIES))
        raise GameError(f"unknown game {name!r}; known games: {known}") from None
    return factory(config or {})


# The built-in games; typed as fast games, so mypy checks that both declare the fast path.
_BUILTIN: dict[str, Callable[[Mapping[str, Any]], FastGame[Any]]] = {
    "sakura": SakuraGame.from_config,
    "sakura-cards": CardsGame.from_config,
}
for _name, _factory in _BUILTIN.items():
    register_game(_name, _factory)
