"""The three-area Sakura card game (the second game of the seeds): two players place numbered
coloured cards in their garden, palace and temple, and give each other cards face down.

>>> state = CardsGame().new_initial_state(seed=3)
>>> [str(a) for a in state.legal_actions(state.turn)][:2]
['place r1 garden', 'place r1 palace']
"""

from sakura.engine.games.cards.actions import CardsAction, Discard, Give, Place, parse_action
from sakura.engine.games.cards.deck import (
    AREAS,
    DECK,
    NAMES,
    ROUNDS,
    AreaScore,
    CardsDeck,
    default_cards,
    explain_area,
    parse_cards,
    score_area,
)
from sakura.engine.games.cards.events import event_from_json
from sakura.engine.games.cards.game import CardsGame, state_from_json
from sakura.engine.games.cards.score_sheet import (
    CardsScoreSheet,
    IncompleteCardsGameError,
    RoundSheet,
    score_sheet,
)
from sakura.engine.games.cards.state import GIVE, PLACE, CardsState, outcome_of
from sakura.engine.games.cards.view import CardsView

__all__ = [
    "AREAS",
    "DECK",
    "GIVE",
    "NAMES",
    "PLACE",
    "ROUNDS",
    "AreaScore",
    "CardsAction",
    "CardsDeck",
    "CardsGame",
    "CardsScoreSheet",
    "CardsState",
    "CardsView",
    "Discard",
    "Give",
    "IncompleteCardsGameError",
    "Place",
    "RoundSheet",
    "default_cards",
    "event_from_json",
    "explain_area",
    "outcome_of",
    "parse_action",
    "parse_cards",
    "score_area",
    "score_sheet",
    "state_from_json",
]
