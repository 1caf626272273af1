"""``GET /api/tables/{id}/score-sheet``: a finished game's score sheet, written by its game's
engine from the game's events (each game's module here turns it into JSON). The route is one
for every game, so a page asks the same address whatever it shows."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from fastapi import APIRouter

from sakura.engine import Event, Game
from sakura.server import replays
from sakura.server.errors import TableError
from sakura.server.games import cards, sakura
from sakura.server.routes.deps import FinishedDep

Sheet = Callable[[Game[Any], Sequence[Event]], "dict[str, Any] | None"]

# Each game's score sheet by the engine's game name.
SHEETS: dict[str, Sheet] = {"sakura": sakura.sheet, "sakura-cards": cards.sheet}

router = APIRouter()


@router.get("/api/tables/{table_id}/score-sheet")
async def sheet(table: FinishedDep) -> dict[str, Any]:
    """The finished game's score sheet: 409 before the end, 404 for a game that keeps none."""
    write = SHEETS.get(table.game.name)
    if write is None:
        raise TableError("this game keeps no score sheet", "no_table")
    data = write(table.game, await replays.events(table))
    if data is None:  # a damaged table: its actions stop replaying before the end
        raise TableError("this game did not reach its end: it has no score sheet", "not_finished")
    return data
