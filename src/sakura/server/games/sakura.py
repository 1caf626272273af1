"""Sakura's own routes: the box's cards (what each card does, for the pages' card catalog)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from sakura.engine.games.sakura import SakuraGame

router = APIRouter()


@router.get("/api/cards")
async def cards() -> list[dict[str, Any]]:
    """The box's cards (public: what each card does, never where it is)."""
    deck = SakuraGame(4).deck
    return [{"number": c.number, "garden": str(c.garden), "painter": str(c.painter)} for c in deck.cards]
