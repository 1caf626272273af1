"""Set up a situation of the card game by hand: the cards not named are set aside."""

from __future__ import annotations

from collections import Counter
from typing import Any

from sakura.engine.games.cards import CardsGame, CardsState

GAME = CardsGame()


def situation(
    hands: tuple[list[str], list[str]],
    areas: tuple[list[list[str]], list[list[str]]] = ([[], [], []], [[], [], []]),
    *,
    turn: int = 0,
    phase: str = "place",
    round: int = 1,
    first: int = 0,
    scores: tuple[list[int], list[int]] = ([], []),
    discards: tuple[list[str], list[str]] = ([], []),
    given: tuple[list[str], list[str]] = ([], []),
    rng: int = 1,
    game: CardsGame = GAME,
) -> CardsState:
    """A state with these hands and areas; the rest of the forty cards (of ``game``'s deck)
    are set aside."""
    named = Counter(c for h in hands for c in h) + Counter(c for seat in areas for a in seat for c in a)
    named += Counter(c for d in discards for c in d)
    aside = sorted((Counter(game.cards) - named).elements())
    data: dict[str, Any] = {
        "game": "sakura-cards",
        "config": game.config_json(),
        "round": round,
        "first": first,
        "turn": turn,
        "phase": phase,
        "hands": [list(h) for h in hands],
        "areas": [[list(a) for a in s] for s in areas],
        "given": [list(g) for g in given],
        "received": [list(given[1]), list(given[0])],
        "discards": [list(d) for d in discards],
        "aside": aside,
        "scores": [list(s) for s in scores],
        "rng": rng,
    }
    return game.state_from_json(data)


def do(state: CardsState, player: int, *texts: str) -> list[dict[str, Any]]:
    """Apply actions by their text; return all their events as dicts."""
    out: list[dict[str, Any]] = []
    for text in texts:
        out += [e.to_dict() for e in state.apply_action(player, state.game.parse_action(text))]
    return out
