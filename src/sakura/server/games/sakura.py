"""Sakura's own routes (the box's cards, what each card does, for the pages' card catalog)
and its score sheet (the engine's, read off the game's events; served by sheets.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter

from sakura.engine import Event, Game
from sakura.engine.games.sakura import IncompleteGameError, SakuraGame, score_sheet

router = APIRouter()


@router.get("/api/cards")
async def cards() -> list[dict[str, Any]]:
    """The box's cards (public: what each card does, never where it is)."""
    deck = SakuraGame(4).deck
    return [{"number": c.number, "garden": str(c.garden), "painter": str(c.painter)} for c in deck.cards]


def sheet(game: Game[Any], events: Sequence[Event]) -> dict[str, Any] | None:
    """Tokens per cherry tree and where everyone stood, the tokens given back (when, by whose
    card), the tie-break (engine/games/sakura/score_sheet.py); ``None`` before the end."""
    assert isinstance(game, SakuraGame)
    try:
        return score_sheet(events, game.players).to_json()
    except IncompleteGameError:
        return None
