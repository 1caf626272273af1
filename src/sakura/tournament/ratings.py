"""From game results to standings: win rates with 95% intervals, and openskill ratings.

*Win rate* is the share of a bot's seat-games it won, a shared win counting 1/k to each of the
k who share it; its *fair share* is 1/players, so ``ratio`` = win rate / fair share says how
many times its fair share a bot wins. The 95% interval is clustered by deal
(:mod:`sakura.tournament.intervals`): the games of a duplicate block share their cards, and
the seats of a game share its result, so the deal, not the seat-game, is the independent unit.

*Ratings* use openskill's Plackett-Luce model, built for free-for-all multiplayer games:
the games are fed in schedule order (so the ratings do not depend on how many processes
played them), each seat as a team of one ranked by (won, tokens). A bot sitting in several
seats of one game gets the mean of its seats' updates.

>>> low, high = wilson(60, 100)
>>> round(low, 3), round(high, 3)
(0.502, 0.691)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from openskill.models import PlackettLuce

from sakura.tournament.intervals import RATE, Clustered, Estimate
from sakura.tournament.play import GameResult


def wilson(wins: float, n: float, z: float = 1.96) -> tuple[float, float]:
    """Wilson's score interval for ``wins`` successes in ``n`` trials (fractions allowed)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True, slots=True)
class Standing:
    """One bot's line in the results table."""

    spec: str
    seat_games: int
    wins: float
    win_rate: float
    ci_low: float
    ci_high: float
    fair_share: float
    ratio: float
    ratio_low: float
    ratio_high: float
    mean_tokens: float
    mu: float
    sigma: float
    ordinal: float
    think_ms: float  # mean thinking time per decision
    deals: int = 0  # the independent deals behind the interval

    def to_json(self) -> dict[str, float | int | str]:
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in asdict(self).items()}


def _ranks(result: GameResult) -> list[int]:
    """1 for the winners; the others by tokens, ties sharing a rank."""
    keys = [(seat in result.winners, score) for seat, score in enumerate(result.scores)]
    return [1 + sum(1 for other in keys if other > mine) for mine in keys]


def ratings(results: Sequence[GameResult]) -> dict[str, tuple[float, float, float]]:
    """openskill (mu, sigma, ordinal) per spec, the games fed in schedule order."""
    model = PlackettLuce()
    current = {}
    for result in sorted(results, key=lambda r: r.index):
        for spec in result.seats:
            if spec not in current:
                current[spec] = model.rating(name=spec)
        teams = [[current[spec]] for spec in result.seats]
        rated = model.rate(teams, ranks=[float(r) for r in _ranks(result)])
        mus: dict[str, list[float]] = {}
        sigmas: dict[str, list[float]] = {}
        for spec, team in zip(result.seats, rated, strict=True):
            mus.setdefault(spec, []).append(team[0].mu)
            sigmas.setdefault(spec, []).append(team[0].sigma)
        for spec, values in mus.items():
            current[spec] = model.rating(
                mu=sum(values) / len(values), sigma=sum(sigmas[spec]) / len(sigmas[spec]), name=spec
            )
    return {spec: (r.mu, r.sigma, r.ordinal()) for spec, r in current.items()}


def standings(results: Sequence[GameResult]) -> list[Standing]:
    """One :class:`Standing` per spec, best openskill ordinal first."""
    if not results:
        return []
    players = len(results[0].seats)
    fair = 1.0 / players
    games: dict[str, int] = {}
    wins: dict[str, float] = {}
    tokens: dict[str, float] = {}
    think: dict[str, float] = {}
    decisions: dict[str, int] = {}
    for r in results:
        for seat, spec in enumerate(r.seats):
            games[spec] = games.get(spec, 0) + 1
            wins[spec] = wins.get(spec, 0.0) + r.returns[seat]
            tokens[spec] = tokens.get(spec, 0.0) + r.scores[seat]
            think[spec] = think.get(spec, 0.0) + r.think_seconds[seat]
            decisions[spec] = decisions.get(spec, 0) + r.decisions[seat]
    rated = ratings(results)
    rates = spec_win_rates(results)
    out = []
    for spec, n in games.items():
        rate = wins[spec] / n
        low, high = rates[spec].low, rates[spec].high
        mu, sigma, ordinal = rated[spec]
        out.append(
            Standing(
                spec=spec,
                seat_games=n,
                wins=wins[spec],
                win_rate=rate,
                ci_low=low,
                ci_high=high,
                fair_share=fair,
                ratio=rate / fair,
                ratio_low=low / fair,
                ratio_high=high / fair,
                mean_tokens=tokens[spec] / n,
                mu=mu,
                sigma=sigma,
                ordinal=ordinal,
                think_ms=1000 * think[spec] / max(1, decisions[spec]),
                deals=rates[spec].clusters,
            )
        )
    out.sort(key=lambda s: (-s.ordinal, s.spec))
    return out


def spec_win_rates(results: Sequence[GameResult]) -> dict[str, Estimate]:
    """Each spec's win rate over its seat-games, clustered by deal."""
    c = Clustered()
    for r in results:
        for seat, spec in enumerate(r.seats):
            c.add(r.deal, spec, r.returns[seat])
    specs = dict.fromkeys(spec for r in results for spec in r.seats)
    return {spec: c.ratio(spec, RATE) for spec in specs}


def seat_estimates(results: Sequence[GameResult]) -> list[Estimate]:
    """Each seat's win rate, whoever sat there (the first-player advantage), clustered by deal."""
    if not results:
        return []
    c = Clustered()
    for r in results:
        for seat, share in enumerate(r.returns):
            c.add(r.deal, seat, share)
    return [c.ratio(seat, RATE) for seat in range(len(results[0].seats))]


def seat_win_rates(results: Sequence[GameResult]) -> list[tuple[float, float, float]]:
    """(win rate, low, high) by seat, whoever sat there: the first-player advantage, if any."""
    return [(e.value, e.low, e.high) for e in seat_estimates(results)]


def lineup_name(seats: Sequence[str]) -> str:
    """A table's bots as a person says it: ``greedy + 3× random``."""
    counts: dict[str, int] = {}
    for spec in seats:
        counts[spec] = counts.get(spec, 0) + 1
    return " + ".join(spec if k == 1 else f"{k}× {spec}" for spec, k in counts.items())


def lineup_win_rates(results: Sequence[GameResult]) -> list[tuple[str, int, dict[str, Estimate]]]:
    """Per line-up (the same bots, whatever the seats): its name, its games and each of its
    specs' win rate per seat-game, clustered by deal; line-ups in the order first played."""
    groups: dict[tuple[str, ...], list[GameResult]] = {}
    for r in results:
        groups.setdefault(tuple(sorted(r.seats)), []).append(r)
    out = []
    for games in groups.values():
        first = games[0].seats
        ordered = tuple(sorted(first, key=lambda spec: (first.count(spec), first.index(spec))))
        out.append((lineup_name(ordered), len(games), spec_win_rates(games)))
    return out
