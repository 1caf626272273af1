"""Loading saved states: every card's place, the scores and the generator, as plain JSON (a
state saves itself with ``CardsState.to_json``).

``{"game": "sakura-cards", "config": {}, "round", "first", "turn", "phase", "hands", "areas",
"given", "received", "discards", "aside", "scores", "rng"}``. It holds hidden information
(both hands, the set-aside cards): for saving and records, never for a player's eyes.
A game with another deck saves it in ``config`` (``{"deck": its text}``). Loading checks that
the deck's cards (the published forty) are all there exactly once and that the situation could
arise in play, and raises :class:`InvalidStateError` otherwise.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from sakura.engine.errors import InvalidStateError
from sakura.engine.games.cards.state import GIVE, PLACE, CardsState, outcome_of
from sakura.engine.rng import SplitMix64

if TYPE_CHECKING:
    from sakura.engine.games.cards.game import CardsGame

_KEYS = {
    "game",
    "config",
    "round",
    "first",
    "turn",
    "phase",
    "hands",
    "areas",
    "given",
    "received",
    "discards",
    "aside",
    "scores",
    "rng",
}


def _whole(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidStateError(f"{what} is a whole number from {low} to {high}, not {value!r}")
    return value


def _cards(value: Any, what: str, names: Mapping[str, int]) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) and c in names for c in value):
        raise InvalidStateError(f"{what} is a list of cards (like 'r1*', 'b3'), not {value!r}")
    return list(value)


def _pair(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list) or len(value) != 2:
        raise InvalidStateError(f"{what} holds one entry per player (two), not {value!r}")
    return value


def saved_config(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """The config of a saved state, once its keys are checked: the game module builds the
    game from it and hands both to :func:`load_state`."""
    if not isinstance(data, Mapping) or data.get("game") != "sakura-cards":
        raise InvalidStateError('not a saved state of the card game (expected "game": "sakura-cards")')
    missing = _KEYS - set(data)
    if missing:
        raise InvalidStateError(f"the saved state lacks {sorted(missing)}")
    unknown = set(data) - _KEYS
    if unknown:
        raise InvalidStateError(f"unknown keys in the saved state: {sorted(unknown)}")
    config = data["config"]
    if not isinstance(config, Mapping):
        raise InvalidStateError(f"the saved config is an object, not {config!r}")
    return config


def load_state(game: CardsGame, data: Mapping[str, Any], *, events: bool = True) -> CardsState:
    """The rest of :func:`~.game.state_from_json`: ``data`` (checked by :func:`saved_config`)
    as a state of ``game``."""
    s = CardsState.__new__(CardsState)
    s.game = game
    names, rounds = game.rank, game.deck.rounds
    s.round = _whole(data["round"], "round", 1, rounds)
    s.first = _whole(data["first"], "first", 0, 1)
    s.turn = _whole(data["turn"], "turn", 0, 1)
    if data["phase"] not in (PLACE, GIVE):
        raise InvalidStateError(f"phase is 'place' or 'give', not {data['phase']!r}")
    s.phase = data["phase"]
    s.hands = [_cards(h, "a hand", names) for h in _pair(data["hands"], "hands")]
    areas = _pair(data["areas"], "areas")
    s.areas = []
    for seat in areas:
        if not isinstance(seat, list) or len(seat) != 3:
            raise InvalidStateError(f"each player has three areas, not {seat!r}")
        s.areas.append([_cards(a, "an area", names) for a in seat])
    s.given = [_cards(g, "given cards", names) for g in _pair(data["given"], "given")]
    s.received = [_cards(r, "received cards", names) for r in _pair(data["received"], "received")]
    s.discards = [_cards(d, "discards", names) for d in _pair(data["discards"], "discards")]
    s.aside = _cards(data["aside"], "the set-aside cards", names)
    scores = _pair(data["scores"], "scores")
    if not all(isinstance(row, list) for row in scores):
        raise InvalidStateError(f"scores are a list of round totals per player, not {scores!r}")
    s.scores = [[_whole(x, "a round's score", 0, 10_000) for x in row] for row in scores]
    rng_state = _whole(data["rng"], "the generator state", 0, (1 << 64) - 1)
    s.rng = SplitMix64(0)
    s.rng.state = rng_state
    # Consistency: every card once, areas in order, the round's story adds up.
    everything = [c for h in s.hands for c in h] + [c for seat in s.areas for a in seat for c in a]
    everything += [c for d in s.discards for c in d] + s.aside
    if Counter(everything) != Counter(game.cards):
        raise InvalidStateError(
            f"the hands, areas, discards and set-aside cards are not the deck's {len(game.cards)} cards"
        )
    number = game.number
    for seat in s.areas:
        for a in seat:
            if any(number[x] > number[y] for x, y in itertools.pairwise(a)):
                raise InvalidStateError(f"an area's cards must not go down: {a}")
    if s.given[0] != s.received[1] or s.given[1] != s.received[0]:
        raise InvalidStateError("what one player gave is what the other received")
    finished = len(s.scores[0])
    if len(s.scores[1]) != finished or finished not in (s.round - 1, s.round):
        raise InvalidStateError(f"round {s.round} follows {s.round - 1} scored rounds")
    s.terminal = finished == s.round
    if s.terminal and (s.round != rounds or any(s.hands)):
        raise InvalidStateError(f"only the last round (round {rounds}) ends the game, with both hands empty")
    if not s.terminal and not s.hands[s.turn]:
        raise InvalidStateError(f"player {s.turn + 1} is to act with an empty hand")
    for hand in (*s.hands, s.aside):
        game.sort_cards(hand)
    s._outcome = outcome_of(s.totals()) if s.terminal else None
    s._log = [] if events else None
    s._hook = None
    return s
