"""Hand-made game results with known answers, for the statistics' tests."""

from __future__ import annotations

from typing import Any

from sakura.engine.games.sakura import SakuraGame
from sakura.tournament.play import GameResult


def result(
    deal: int,
    rounds: int,
    winner: int,
    dealt: list[list[int]],
    *,
    bumps: int = 0,
    sakuras: list[dict[str, Any]] | None = None,
    seats: tuple[str, str] = ("greedy", "greedy"),
) -> GameResult:
    """A hand-made 2-player game (court variant): its rounds, its winner, the starting hands."""
    returns = tuple(1.0 if s == winner else 0.0 for s in range(2))
    return GameResult(
        index=deal,
        deal=deal,
        seed=deal,
        seats=seats,
        winners=(winner,),
        scores=(0, 0),
        returns=returns,
        rounds=rounds,
        moves=0,
        think_seconds=(0.0, 0.0),
        decisions=(0, 0),
        stats={
            "plays": [],
            "bumps": {"painter": bumps, "emperor": 0},
            "sakuras": sakuras or [],
            "court": 2,
            "dealt": dealt,
        },
    )


GAME = SakuraGame(2)
