"""What each game adds to the server beyond the protocol every game shares: its own routes,
keyed by the game's name (:data:`ROUTES`). A game with nothing of its own (the card game,
``sakura-cards``) has no entry; a new game's module adds its router here."""

from __future__ import annotations

from fastapi import APIRouter

from sakura.server.games import sakura

ROUTES: dict[str, APIRouter] = {"sakura": sakura.router}

__all__ = ["ROUTES"]
