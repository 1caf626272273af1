"""Sakura's own routes: the box's cards (what each card does, for the pages' card catalog) and
a finished game's score sheet (the engine's, read off the game's events)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from sakura.engine.games.sakura import IncompleteGameError, SakuraGame, score_sheet
from sakura.server import replays
from sakura.server.errors import TableError
from sakura.server.routes.deps import FinishedDep

router = APIRouter()


@router.get("/api/cards")
async def cards() -> list[dict[str, Any]]:
    """The box's cards (public: what each card does, never where it is)."""
    deck = SakuraGame(4).deck
    return [{"number": c.number, "garden": str(c.garden), "painter": str(c.painter)} for c in deck.cards]


@router.get("/api/tables/{table_id}/score-sheet")
async def sheet(table: FinishedDep) -> dict[str, Any]:
    """The finished game's score sheet: tokens per cherry tree and where everyone stood, the
    tokens given back (when, by whose card), the tie-break (engine/games/sakura/score_sheet.py)."""
    game = table.game
    if not isinstance(game, SakuraGame):
        raise TableError("this game keeps no Sakura score sheet", "no_table")
    try:
        return score_sheet(await replays.events(table), game.players).to_json()
    except IncompleteGameError:  # a damaged table: its actions stop replaying before the end
        raise TableError("this game did not reach its end: it has no score sheet", "not_finished") from None
