"""What a designer asks of a deck and a garden, measured from bot games' events.

:class:`SakuraCollector` watches one game (a tournament :class:`~sakura.tournament.play.Collector`)
and keeps only small facts: the cards dealt into each starting hand; each card played, by
whom, how far it moved its owner's painter and whether it bumped; each bump; each sakura's
scoring order and the token standings just before it.

:func:`observe` turns those facts into clustered observations (one cluster a deal, see
:mod:`sakura.tournament.intervals`) under a *side* (a comparison plays two sides on the same
deals); :func:`balance` reads one side's figures, with their intervals, into a :class:`Balance`.

Two kinds of card effect. *Dealt*: the win rate of the players a card was dealt to (in their
starting hand) minus that of the players it was not dealt to; the deal is random, so this is
an effect of holding the card. *Played*: the win rate of the players who played it; the bot
chose when (and whether) to play it, so this is conditional on the bot's choice and mixes the
card's strength with the situations the bot plays it in.
"""

from __future__ import annotations

import statistics
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sakura.engine import Action, Event, Game, State
from sakura.engine.games.sakura import SakuraGame, SakuraState
from sakura.tournament.card_effects import CardFinding, card_findings, variance_gain
from sakura.tournament.intervals import RATE, Clustered, Estimate
from sakura.tournament.play import GameResult


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
        self.dealt: list[list[int]] = []

    def on_start(self, state: State[Any]) -> None:
        """The starting hands (the deal, before anyone chose anything)."""
        if isinstance(state, SakuraState):
            self.dealt = [sorted(state.hand(p)) for p in range(len(state.painters))]

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
                self.sakuras.append(
                    {
                        "index": data.sakura,
                        "order": order,
                        "standing_before": before,
                        "leader_before": standing[0],
                    }
                )
                for seat, _rank, got in data.awards:
                    self.tokens[seat] += got

    def finish(self, state: State[Any]) -> dict[str, Any]:
        return {
            "plays": self.plays,
            "bumps": self.bumps,
            "sakuras": self.sakuras,
            "court": self.court,
            "dealt": self.dealt,
        }


@dataclass(slots=True)
class CardEffect:
    """One card's figures (see the module docstring for *dealt* and *played*)."""

    card: int
    text: str
    dealt: Estimate  # win rate dealt minus not dealt
    dealt_rate: Estimate  # win rate of the players it was dealt to
    played: Estimate  # win rate of the players who played it (conditional on the bot's choice)
    plays: int
    progress: Estimate  # its owner's painter's progress while it resolved, per play
    bump_rate: Estimate  # share of its plays that bumped its owner
    finding: CardFinding | None = None  # adjusted, corrected, halved (card_effects)

    @property
    def effect(self) -> Estimate:
        """The dealt effect the report judges by: the regression's on the whole hand when it
        could be fitted, else the plain difference."""
        return self.finding.adjusted if self.finding is not None else self.dealt

    @property
    def nominal(self) -> bool:
        """Whether the effect's 95% interval leaves out 0 (one card at a time)."""
        return self.effect.excludes(0.0)

    @property
    def flagged(self) -> bool:
        """Whether the effect survives Holm's correction over every card of the deck (what the
        report headlines)."""
        return self.finding is not None and self.finding.headline


@dataclass(slots=True)
class Balance:
    """Everything the balance report shows; see :func:`balance`."""

    games: int
    players: int
    deals: int
    bots: tuple[str, ...]
    seat_wins: list[Estimate]  # by seat, whoever sat there
    bot_wins: dict[str, Estimate]  # by bot spec, over its seat-games
    rounds: list[int]
    bumps: list[int]
    mean_rounds: Estimate
    mean_bumps: Estimate
    bumps_by: dict[str, Estimate]  # per game, by cause
    # sakura i -> scoring place r (0-based) -> P(win the game | took that place)
    rank_wins: list[list[Estimate]] = field(default_factory=list)
    # sakura i -> token standing k (0 = leader) -> [painters in that standing, of them the one
    # who scored first there], counting only sakuras where the painters were not all tied
    first_from: list[list[list[int]]] = field(default_factory=list)
    first_tied: list[int] = field(default_factory=list)  # sakura i -> times all were tied
    cards: dict[int, CardEffect] = field(default_factory=dict)
    adjusted: bool = False  # whether the card effects are the regression's (card_effects)
    gain: float = 1.0  # var(plain) / var(adjusted), the median over cards (card_effects)

    def mean(self, values: Sequence[float]) -> float:
        return statistics.fmean(values) if values else 0.0


def observe(results: Sequence[GameResult], game: SakuraGame, c: Clustered, side: Hashable = "") -> None:
    """Add the figures of ``results`` (played with :class:`SakuraCollector`) to ``c``, each
    under the group ``(side, figure, ...)``, clustered by the game's deal."""
    numbers = game.deck.numbers
    for r in results:
        deal = r.deal
        c.touch(deal)
        players = len(r.seats)
        share = r.returns
        for seat in range(players):
            c.add(deal, (side, "seat", seat), share[seat])
            c.add(deal, (side, "bot", r.seats[seat]), share[seat])
        c.add(deal, (side, "rounds"), float(r.rounds or 0))
        c.add(deal, (side, "bumps"), float(sum(r.stats["bumps"].values())))
        for cause, count in r.stats["bumps"].items():
            c.add(deal, (side, "bumps by", cause), float(count))
        for s in r.stats["sakuras"]:
            for rank, seat in enumerate(s["order"]):
                c.add(deal, (side, "place", s["index"], rank), share[seat] if seat < players else 0.0)
        for seat, hand in enumerate(r.stats.get("dealt") or []):
            held = set(hand)
            for card in numbers:
                c.add(deal, (side, "dealt" if card in held else "not dealt", card), share[seat])
        for card, seat, progress, bumped in r.stats["plays"]:
            c.add(deal, (side, "progress", card), float(progress))
            c.add(deal, (side, "bumped", card), float(bumped))
            if seat < players:
                c.add(deal, (side, "played", card), share[seat])


def dealt_contrast(side: Hashable, card: int) -> dict[Hashable, float]:
    """The weights of "win rate dealt minus not dealt" (see :func:`observe`'s groups)."""
    return {(side, "dealt", card): 1.0, (side, "not dealt", card): -1.0}


def balance(
    results: Sequence[GameResult], game: SakuraGame, c: Clustered | None = None, side: Hashable = ""
) -> Balance:
    """The figures of ``results`` with their intervals; ``c`` if they were observed already."""
    if c is None:
        c = Clustered()
        observe(results, game, c, side)
    players = game.players
    seats = results[0].seats if results else ()
    out = Balance(
        games=len(results),
        players=players,
        deals=len({r.deal for r in results}),
        bots=seats,
        seat_wins=[c.ratio((side, "seat", s), RATE) for s in range(players)],
        bot_wins={spec: c.ratio((side, "bot", spec), RATE) for spec in dict.fromkeys(seats)},
        rounds=[r.rounds or 0 for r in results],
        bumps=[sum(r.stats["bumps"].values()) for r in results],
        mean_rounds=c.ratio((side, "rounds")),
        mean_bumps=c.ratio((side, "bumps")),
        bumps_by={},
    )
    causes = sorted({cause for r in results for cause in r.stats["bumps"]})
    out.bumps_by = {cause: c.ratio((side, "bumps by", cause)) for cause in causes}
    sakuras = len(game.sakuras)
    ranks = len(game.garden.awards)
    out.rank_wins = [[c.ratio((side, "place", i, r), RATE) for r in range(ranks)] for i in range(sakuras)]
    out.first_from = [[[0, 0] for _ in range(game.num_painters)] for _ in range(sakuras)]
    out.first_tied = [0] * sakuras
    for r in results:
        for s in r.stats["sakuras"]:
            if not s["order"]:
                continue
            if all(rank == 1 for rank in s["standing_before"]):
                out.first_tied[s["index"]] += 1
                continue
            for painter, standing in enumerate(s["standing_before"]):
                cell = out.first_from[s["index"]][standing - 1]
                cell[0] += 1
                cell[1] += painter == s["order"][0]
    plays = {card: 0 for card in game.deck.numbers}
    for r in results:
        for card, *_ in r.stats["plays"]:
            plays[card] += 1
    for card in game.deck.cards:
        n = card.number
        out.cards[n] = CardEffect(
            card=n,
            text=f"{card.garden} {card.painter}",
            dealt=c.contrast(dealt_contrast(side, n), rates=True),
            dealt_rate=c.ratio((side, "dealt", n), RATE),
            played=c.ratio((side, "played", n), RATE),
            plays=plays[n],
            progress=c.ratio((side, "progress", n)),
            bump_rate=c.ratio((side, "bumped", n), RATE),
        )
    plain = {n: effect.dealt for n, effect in out.cards.items()}
    findings, out.adjusted = card_findings(results, game.deck.numbers, plain)
    for n, finding in findings.items():
        out.cards[n].finding = finding
    if out.adjusted:
        unfloored = {n: c.contrast(dealt_contrast(side, n)) for n in findings}
        out.gain = variance_gain({n: f.adjusted for n, f in findings.items()}, unfloored)
    return out
