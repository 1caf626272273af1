"""What a designer asks of a deck and a garden, measured from bot games' events.

:class:`SakuraCollector` watches one game (a tournament :class:`~sakura.tournament.play.Collector`)
and keeps only small facts: each card played, by whom, how far it moved its owner's painter
and whether it bumped; each bump; each sakura's scoring order and the token standings just
before it. :func:`balance` sums those facts over many games into a :class:`Balance`.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sakura.engine import Action, Event, Game, State
from sakura.engine.games.sakura import SakuraGame
from sakura.tournament.play import GameResult
from sakura.tournament.ratings import wilson


class SakuraCollector:
    """Turns one game's events into the facts :func:`balance` needs (JSON-ready, small)."""

    def __init__(self, game: Game[Any]) -> None:
        assert isinstance(game, SakuraGame)
        self.court = game.court
        self.tokens = [game.deck.start_tokens] * game.num_painters
        self.plays: list[list[int]] = []  # [card, seat, progress, bumped]
        self.current: list[int] | None = None
        self.bumps = {"painter": 0, "emperor": 0}
        self.sakuras: list[dict[str, Any]] = []

    def on_move(self, player: int, action: Action, events: list[Event], state: State[Any]) -> None:
        for e in events:
            kind = e.kind
            data: Any = e
            if kind == "card_resolving":
                self.current = [data.card, data.seat, 0, 0]
                self.plays.append(self.current)
            elif kind == "painter_moved":
                if self.current is not None and data.seat == self.current[1] and data.card == self.current[0]:
                    self.current[2] += data.end - data.start
            elif kind == "bumped":
                self.bumps[data.by] = self.bumps.get(data.by, 0) + 1
                if data.token_lost:
                    self.tokens[data.seat] -= 1
                if self.current is not None and data.seat == self.current[1] and data.card == self.current[0]:
                    self.current[2] += data.end - data.start
                    self.current[3] = 1
            elif kind == "sakura_scored":
                standing = sorted(range(len(self.tokens)), key=lambda s: -self.tokens[s])
                order = [seat for seat, _rank, _got in sorted(data.awards, key=lambda a: a[1])]
                before = [1 + sum(1 for t in self.tokens if t > mine) for mine in self.tokens]
                self.sakuras.append({"index": data.sakura, "order": order, "standing_before": before,
                                     "leader_before": standing[0]})
                for seat, _rank, got in data.awards:
                    self.tokens[seat] += got

    def finish(self, state: State[Any]) -> dict[str, Any]:
        return {"plays": self.plays, "bumps": self.bumps, "sakuras": self.sakuras, "court": self.court}


@dataclass(slots=True)
class CardEffect:
    card: int
    text: str
    plays: int = 0
    wins: float = 0.0  # plays by a player (not the court) that went on to win, shares split
    player_plays: int = 0
    progress: float = 0.0
    bumps: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.player_plays if self.player_plays else 0.0

    @property
    def mean_progress(self) -> float:
        return self.progress / self.plays if self.plays else 0.0

    @property
    def bump_rate(self) -> float:
        return self.bumps / self.plays if self.plays else 0.0


@dataclass(slots=True)
class Balance:
    """Everything the balance report shows; see :func:`balance`."""

    games: int
    players: int
    bots: tuple[str, ...]
    seat_wins: list[tuple[float, float, float]]  # (rate, low, high) by seat
    rounds: list[int]
    bumps: list[int]
    bumps_by: dict[str, int]
    # sakura i -> scoring rank r (0-based) -> [games, wins of that painter]
    rank_wins: list[list[list[float]]] = field(default_factory=list)
    # sakura i -> token standing (0 = leader) of the painter who scored first there -> count
    first_from: list[list[int]] = field(default_factory=list)
    cards: dict[int, CardEffect] = field(default_factory=dict)

    def mean(self, values: Sequence[float]) -> float:
        return statistics.fmean(values) if values else 0.0


def balance(results: Sequence[GameResult], game: SakuraGame) -> Balance:
    """Sum the collectors' facts of ``results`` (played with :class:`SakuraCollector`)."""
    players = game.players
    painters = game.num_painters
    n = len(results)
    wins = [sum(r.returns[s] for r in results) for s in range(players)]
    out = Balance(
        games=n, players=players, bots=results[0].seats if results else (),
        seat_wins=[(w / n, *wilson(w, n)) for w in wins] if n else [],
        rounds=[r.rounds or 0 for r in results],
        bumps=[sum(r.stats["bumps"].values()) for r in results],
        bumps_by={},
    )
    sakuras = len(game.sakuras)
    ranks = len(game.garden.awards)
    out.rank_wins = [[[0.0, 0.0] for _ in range(ranks)] for _ in range(sakuras)]
    out.first_from = [[0] * painters for _ in range(sakuras)]
    out.cards = {c.number: CardEffect(c.number, f"{c.garden} {c.painter}") for c in game.deck.cards}
    for r in results:
        share = r.returns
        for cause, count in r.stats["bumps"].items():
            out.bumps_by[cause] = out.bumps_by.get(cause, 0) + count
        for s in r.stats["sakuras"]:
            i = s["index"]
            for rank, seat in enumerate(s["order"][:ranks]):
                cell = out.rank_wins[i][rank]
                cell[0] += 1
                cell[1] += share[seat] if seat < players else 0.0
            if s["order"]:
                first = s["order"][0]
                out.first_from[i][s["standing_before"][first] - 1] += 1
        for card, seat, progress, bumped in r.stats["plays"]:
            effect = out.cards[card]
            effect.plays += 1
            effect.progress += progress
            effect.bumps += bumped
            if seat < players:
                effect.player_plays += 1
                effect.wins += share[seat]
    return out
