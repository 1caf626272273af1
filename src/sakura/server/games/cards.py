"""The card game's score sheet (engine/games/cards/score_sheet.py): each round's areas with
the combination that scored, the discards and gifts, the totals; served by sheets.py."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sakura.engine import Event, Game
from sakura.engine.games.cards import IncompleteCardsGameError, score_sheet


def sheet(game: Game[Any], events: Sequence[Event]) -> dict[str, Any] | None:
    """The finished game's sheet as JSON; ``None`` before the end."""
    del game  # two players, one deck's areas: the events say everything
    try:
        return score_sheet(events).to_json()
    except IncompleteCardsGameError:
        return None
