"""What each game adds to the server beyond the protocol every game shares: its own routes,
keyed by the game's name (:data:`ROUTES`), and the score sheet's one route for every game
(``sheets``, keyed by the game's name too). A new game's module adds its router here."""

from __future__ import annotations

from fastapi import APIRouter

from sakura.server.games import sakura, sheets

ROUTES: dict[str, APIRouter] = {"sakura": sakura.router, "score-sheet": sheets.router}

__all__ = ["ROUTES"]
