"""The rules engine: the game protocol and the games that implement it.

Standard library only, no I/O beyond reading the package's own data files, no global random:
every random draw comes from a generator seeded by the caller.

>>> from sakura.engine import make_game
>>> state = make_game("sakura", {"players": 4}).new_initial_state(seed=7)
>>> state.current_players()
(0, 1, 2, 3)
"""

from sakura.engine.errors import (
    DeckExhaustedError,
    GameError,
    IllegalActionError,
    InvalidConfigError,
    InvalidDataError,
    InvalidEventError,
    InvalidPositionError,
    InvalidStateError,
    InvalidViewError,
    NoSuchPlayerError,
    NotYourTurnError,
)
from sakura.engine.protocol import (
    Action,
    Event,
    FastGame,
    FastPath,
    FastState,
    Game,
    Outcome,
    Progress,
    State,
    View,
    fast_path,
)
from sakura.engine.registry import available_games, make_game, register_game
from sakura.engine.rng import SplitMix64

__all__ = [
    "Action",
    "DeckExhaustedError",
    "Event",
    "FastGame",
    "FastPath",
    "FastState",
    "Game",
    "GameError",
    "IllegalActionError",
    "InvalidConfigError",
    "InvalidDataError",
    "InvalidEventError",
    "InvalidPositionError",
    "InvalidStateError",
    "InvalidViewError",
    "NoSuchPlayerError",
    "NotYourTurnError",
    "Outcome",
    "Progress",
    "SplitMix64",
    "State",
    "View",
    "available_games",
    "fast_path",
    "make_game",
    "register_game",
]
