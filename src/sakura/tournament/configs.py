"""Game configs from what a designer types: a player count, a variant, deck and garden files.

>>> sakura_config(3)
{'players': 3, 'variant': 'standard'}
>>> cards_config()
{}
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sakura.engine.games.cards import CardsGame, parse_cards
from sakura.engine.games.sakura import SakuraGame, parse_deck, parse_layout


def sakura_config(
    players: int, variant: str | None = None, deck: Path | None = None, garden: Path | None = None
) -> dict[str, Any]:
    """The JSON config of a Sakura table; a deck or garden file (see the engine's
    ``data/deck.txt`` and ``data/garden.txt``) replaces the published one. Raises
    ``ValueError`` (or the engine's ``InvalidDataError``) with a clear message on bad input."""
    deck_data = parse_deck(deck.read_text(encoding="utf-8"), deck.name) if deck is not None else None
    layout = parse_layout(garden.read_text(encoding="utf-8"), garden.name) if garden is not None else None
    return SakuraGame(players, variant, deck_data, layout).config_json()


def cards_config(deck: Path | None = None, players: int | None = None) -> dict[str, Any]:
    """The JSON config of a card game table; a card data file (see the engine's
    ``games/cards/data/cards.txt``) replaces the published cards. Errors name the file and line."""
    if players not in (None, 2):
        raise ValueError(f"the card game is for two players, not {players}")
    cards = parse_cards(deck.read_text(encoding="utf-8"), deck.name) if deck is not None else None
    return CardsGame(cards).config_json()
