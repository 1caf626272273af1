"""Sakura, the race through the Emperor's garden: rules, positions and views.

>>> state = SakuraGame(players=3).new_initial_state(seed=42)
>>> state.current_players()
(0, 1, 2)
>>> len(state.legal_actions(0))
5
"""

from sakura.engine.games.sakura.actions import BACK, FORWARD, Choose, Play, SakuraAction, parse_action
from sakura.engine.games.sakura.cards import (
    CLOSEST,
    COUNT,
    EMPEROR,
    EMPEROR_CHOICE,
    FURTHEST,
    JUMP,
    MOVE,
    MOVE_CHOICE,
    Card,
    Deck,
    GardenAction,
    PainterAction,
    default_deck,
    parse_deck,
)
from sakura.engine.games.sakura.decisions import GARDEN, PAINTER, SELECTION
from sakura.engine.games.sakura.events import event_from_json
from sakura.engine.games.sakura.game import COURT, STANDARD, TACTICAL, VARIANTS, SakuraGame, state_from_json
from sakura.engine.games.sakura.garden import Garden, GardenLayout, default_layout, parse_layout
from sakura.engine.games.sakura.position import Position
from sakura.engine.games.sakura.sample import Sampler, unseen_cards
from sakura.engine.games.sakura.score_sheet import (
    BumpLoss,
    IncompleteGameError,
    ScoreSheet,
    TreeScore,
    score_sheet,
)
from sakura.engine.games.sakura.serialize import state_from_position
from sakura.engine.games.sakura.state import SakuraState
from sakura.engine.games.sakura.view import SakuraView, make_view, make_views

__all__ = [
    "BACK",
    "CLOSEST",
    "COUNT",
    "COURT",
    "EMPEROR",
    "EMPEROR_CHOICE",
    "FORWARD",
    "FURTHEST",
    "GARDEN",
    "JUMP",
    "MOVE",
    "MOVE_CHOICE",
    "PAINTER",
    "SELECTION",
    "STANDARD",
    "TACTICAL",
    "VARIANTS",
    "BumpLoss",
    "Card",
    "Choose",
    "Deck",
    "Garden",
    "GardenAction",
    "GardenLayout",
    "IncompleteGameError",
    "PainterAction",
    "Play",
    "Position",
    "SakuraAction",
    "SakuraGame",
    "SakuraState",
    "SakuraView",
    "Sampler",
    "ScoreSheet",
    "TreeScore",
    "default_deck",
    "default_layout",
    "event_from_json",
    "make_view",
    "make_views",
    "parse_action",
    "parse_deck",
    "parse_layout",
    "score_sheet",
    "state_from_json",
    "state_from_position",
    "unseen_cards",
]
