"""The card game's balance questions, measured from bot games' events: does the first player
win more, how much do the round's starter and the areas score, which combinations make the
points, how often nothing fits, and whether gifts help the receiver.

:class:`CardsCollector` watches one game (a tournament :class:`~sakura.tournament.play.Collector`)
and keeps small JSON facts; :func:`cards_balance` sums them over many games into a
:class:`CardsBalance`; :func:`write_cards_report` writes it as Markdown with PNG plots.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

from sakura.engine import Action, Event, Game, State
from sakura.engine.games.cards import AREAS, CardsDeck, CardsGame, CardsState, default_cards
from sakura.tournament.intervals import RATE, Clustered, Estimate
from sakura.tournament.play import GameResult
from sakura.tournament.plots import EDGE, PINK, plot_estimates

# What an area scored with, as the report names it (from the engine's AreaScore).
COMBINATIONS = ("one_colour_run", "one_colour", "colours_run", "colours", "run", "none", "spoiled")
KINDS = {
    "one_colour_run": "one colour, in a row",
    "one_colour": "one colour",
    "colours_run": "three colours, in a row",
    "colours": "three colours",
    "run": "mixed colours, in a row",
    "none": "no scoring three",
    "spoiled": "too many blossoms",
}


def combination_labels(deck: CardsDeck | None = None) -> dict[str, str]:
    """What each combination is called, with its points by ``deck``'s scores (the published
    deck's unless given): ``{"colours": "three colours (10)", ...}``."""
    d = deck or default_cards()
    points = {
        "one_colour_run": d.one_colour + d.in_a_row,
        "one_colour": d.one_colour,
        "colours_run": d.three_colours + d.in_a_row,
        "colours": d.three_colours,
        "run": d.in_a_row,
        "none": 0,
        "spoiled": 0,
    }
    return {code: f"{KINDS[code]} ({points[code]})" for code in COMBINATIONS}


LABELS = combination_labels()


def combination_of(detail: Any, blossom_limit: int = 1) -> str:
    """``detail``: an AreaScore (or its dict); ``blossom_limit``: the deck's (more blossoms
    than this spoil the area)."""

    def get(key: str) -> Any:
        return detail[key] if isinstance(detail, dict) else getattr(detail, key)

    if get("blossoms") > blossom_limit:
        return "spoiled"
    if not get("best"):
        return "none"
    if get("combination") == "none":
        return "run"
    return f"{get('combination')}{'_run' if get('run') else ''}"


class CardsCollector:
    """One game's facts: per round its starter, each area's points, combination and blossoms;
    the discards; the gifts and how many of them the receiver placed."""

    def __init__(self, game: Game[Any]) -> None:
        self.blossom_limit = game.deck.blossom_limit if isinstance(game, CardsGame) else 1
        self.rounds: list[dict[str, Any]] = []
        self.discards = [0, 0]
        self.gifts = 0
        self.gifts_placed = 0
        self._received: list[Counter[str]] = [Counter(), Counter()]

    def on_move(self, player: int, action: Action, events: list[Event], state: State[Any]) -> None:
        for e in events:
            data: Any = e
            if e.kind == "card_given":
                self.gifts += 1
                self._received[data.receiver][data.card] += 1
            elif e.kind == "card_placed":
                if self._received[data.player][data.card]:
                    self._received[data.player][data.card] -= 1
                    self.gifts_placed += 1
            elif e.kind == "card_discarded":
                self.discards[data.player] += 1
            elif e.kind == "round_scored":
                self.rounds.append(
                    {
                        "points": [list(seat) for seat in data.areas],
                        "combinations": [
                            [combination_of(d, self.blossom_limit) for d in seat] for seat in data.detail
                        ],
                        "blossoms": [[d.blossoms for d in seat] for seat in data.detail],
                    }
                )
                self._received = [Counter(), Counter()]

    def finish(self, state: State[Any]) -> dict[str, Any]:
        first = state.first if isinstance(state, CardsState) else 0
        for r, facts in enumerate(self.rounds):
            facts["starter"] = first if r % 2 == 0 else 1 - first
        return {
            "first": first,
            "rounds": self.rounds,
            "discards": self.discards,
            "gifts": self.gifts,
            "gifts_placed": self.gifts_placed,
        }


@dataclass(slots=True)
class CardsBalance:
    """Everything the card game's report shows; see :func:`cards_balance`."""

    games: int
    deals: int
    bots: tuple[str, ...]
    seat_wins: list[Estimate]  # by seat, draws split; 95% clustered by deal
    first_wins: Estimate  # the player who started round 1
    bot_wins: dict[str, Estimate]  # by bot spec, over its seat-games
    mean_total: Estimate  # a player's game total
    mean_starter: Estimate  # a round's points of its starter
    mean_second: Estimate  # ... of the other player
    draws: int
    totals: list[int] = field(default_factory=list)  # every player's game total
    margins: list[int] = field(default_factory=list)  # winner minus loser, per game
    starter_points: list[int] = field(default_factory=list)  # per round, the round's starter
    second_points: list[int] = field(default_factory=list)  # per round, the other player
    area_points: list[list[int]] = field(default_factory=lambda: [[], [], []])
    combinations: Counter[str] = field(default_factory=Counter)
    blossom_bonus: int = 0  # areas that scored a single blossom's 3
    discards: list[int] = field(default_factory=list)  # per game, both players
    gifts: int = 0
    gifts_placed: int = 0

    @staticmethod
    def mean(values: Sequence[float]) -> float:
        return statistics.fmean(values) if values else 0.0


def observe_cards(results: Sequence[GameResult], c: Clustered, *prefix: Hashable) -> None:
    """Add every figure of ``results`` to ``c``, each group keyed ``(*prefix, figure, ...)``
    (``prefix``: a side of a comparison, or nothing): rates per seat-game (``seat``, ``bot``),
    ``first`` per game, ``draw``, ``total`` and ``margin`` per game, ``starter`` and ``second``
    per round, ``area`` per area and round, ``combination`` shares of areas, ``discards`` a game
    and ``gifts placed`` over the cards given."""
    for r in results:

        def add(*key: Hashable, y: float, x: float = 1.0, deal: int = r.deal) -> None:
            c.add(deal, (*prefix, *key), y, x)

        first = r.stats["first"]
        add("first", y=r.returns[first])
        add("draw", y=float(len(r.winners) == 2))
        add("margin", y=float(abs(r.scores[0] - r.scores[1])))
        add("discards", y=float(sum(r.stats["discards"])))
        add("gifts placed", y=float(r.stats["gifts_placed"]), x=float(r.stats["gifts"]))
        for seat in range(2):
            add("seat", seat, y=r.returns[seat])
            add("bot", r.seats[seat], y=r.returns[seat])
            add("total", y=float(r.scores[seat]))
        for facts in r.stats["rounds"]:
            starter = facts["starter"]
            add("starter", y=float(sum(facts["points"][starter])))
            add("second", y=float(sum(facts["points"][1 - starter])))
            for seat in range(2):
                for i in range(3):
                    add("area", i, y=float(facts["points"][seat][i]))
                    for code in COMBINATIONS:
                        add("combination", code, y=float(facts["combinations"][seat][i] == code))


def cards_balance(results: Sequence[GameResult]) -> CardsBalance:
    """Sum the :class:`CardsCollector` facts of ``results``."""
    c = Clustered()
    observe_cards(results, c)
    seats = results[0].seats if results else ()
    out = CardsBalance(
        games=len(results),
        deals=len({r.deal for r in results}),
        bots=seats,
        seat_wins=[c.ratio(("seat", s), RATE) for s in range(2)],
        first_wins=c.ratio(("first",), RATE),
        bot_wins={spec: c.ratio(("bot", spec), RATE) for spec in dict.fromkeys(seats)},
        mean_total=c.ratio(("total",)),
        mean_starter=c.ratio(("starter",)),
        mean_second=c.ratio(("second",)),
        draws=sum(1 for r in results if len(r.winners) == 2),
    )
    for r in results:
        stats = r.stats
        out.totals += list(r.scores)
        out.margins.append(abs(r.scores[0] - r.scores[1]))
        out.discards.append(sum(stats["discards"]))
        out.gifts += stats["gifts"]
        out.gifts_placed += stats["gifts_placed"]
        for facts in stats["rounds"]:
            starter = facts["starter"]
            out.starter_points.append(sum(facts["points"][starter]))
            out.second_points.append(sum(facts["points"][1 - starter]))
            for seat in range(2):
                for i in range(3):
                    out.area_points[i].append(facts["points"][seat][i])
                    out.combinations[facts["combinations"][seat][i]] += 1
                    if facts["blossoms"][seat][i] == 1:
                        out.blossom_bonus += 1
    return out


def write_cards_report(
    data: CardsBalance, out: Path, *, title: str, notes: list[str], deck: CardsDeck | None = None
) -> Path:
    """Write ``report.md`` and its plots (``seats.png``, ``totals.png``, ``combinations.png``);
    ``deck``: the cards played (their scores name the combinations)."""
    out.mkdir(parents=True, exist_ok=True)
    labels = combination_labels(deck)
    _plot_wins(data, out / "seats.png")
    _plot_totals(data, out / "totals.png")
    _plot_combinations(data, out / "combinations.png", labels)
    lines = [f"# {title}", "", "## In words", ""] + [f"- {line}" for line in cards_in_words(data)] + [""]
    lines += [f"- {note}" for note in notes]
    lines += [
        f"- {data.games} games on {data.deals} deals; bots by seat: {', '.join(data.bots)}",
        "- 95% intervals count deals, not games (cluster-robust over deals, Student t).",
        "",
    ]
    lines += [
        "## Who wins",
        "",
        "Draws split; fair share 50.0%.",
        "",
        "| player | win rate | 95% interval | deals |",
        "|---|---:|---:|---:|",
    ]
    for seat, e in enumerate(data.seat_wins):
        lines.append(f"| seat {seat + 1} | {e.value:.1%} | {e.low:.1%}–{e.high:.1%} | {e.clusters} |")
    e = data.first_wins
    lines.append(
        f"| the first player (round 1's starter) | {e.value:.1%} | {e.low:.1%}–{e.high:.1%} | {e.clusters} |"
    )
    if len(data.bot_wins) > 1:
        lines += [
            f"| bot {spec} (its seat-games) | {b.value:.1%} | {b.low:.1%}–{b.high:.1%} | {b.clusters} |"
            for spec, b in data.bot_wins.items()
        ]
    lines += [
        "",
        f"Draws: {data.draws} of {data.games} games ({data.draws / max(1, data.games):.1%}).",
        "",
        "![win rates](seats.png)",
        "",
    ]
    lines += [
        "## Points",
        "",
        f"Means with their 95% interval over {data.deals} deals: a player's game total "
        f"{data.mean_total.text()}; a round's points of its starter {data.mean_starter.text()}, "
        f"of the other player {data.mean_second.text()}.",
        "",
        "| points | mean | sd | min | max |",
        "|---|---:|---:|---:|---:|",
    ]
    rows = [
        ("a player's game total", data.totals),
        ("winning margin", data.margins),
        ("a round, its starter", data.starter_points),
        ("a round, the other player", data.second_points),
    ]
    rows += [(f"an area: {AREAS[i]}", data.area_points[i]) for i in range(3)]
    for name, values in rows:
        sd = statistics.pstdev(values) if values else 0.0
        lines.append(
            f"| {name} | {data.mean(values):.2f} | {sd:.2f} | {min(values, default=0)} | "
            f"{max(values, default=0)} |"
        )
    lines += ["", "![game totals](totals.png)", ""]
    scored = sum(data.combinations.values())
    lines += [
        "## What the areas scored with",
        "",
        "Every area at every round's end, by its best three (the engine's `explain_area`):",
        "",
        "| combination | areas | share |",
        "|---|---:|---:|",
    ]
    for code in COMBINATIONS:
        count = data.combinations.get(code, 0)
        lines.append(f"| {labels[code]} | {count} | {count / max(1, scored):.1%} |")
    bonus, each = data.blossom_bonus / max(1, scored), (deck or default_cards()).blossom
    lines += [
        "",
        f"A single blossom added its {each} points in {bonus:.1%} of areas.",
        "",
        "![combinations](combinations.png)",
        "",
    ]
    gifts = data.gifts_placed / max(1, data.gifts)
    lines += [
        "## Discards and gifts",
        "",
        f"- Nothing fit and a card was discarded {data.mean(data.discards):.2f} times a game "
        "(both players together).",
        f"- {data.gifts} cards were given; the receiver placed {gifts:.1%} of them in its areas "
        "the same round.",
        "",
    ]
    path = out / "report.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def cards_in_words(data: CardsBalance) -> list[str]:
    """What the card game's figures say, in sentences (the report's first section)."""
    e = data.first_wins
    if e.excludes(0.5):
        out = [
            f"The first player (round 1's starter) wins {'more' if e.value > 0.5 else 'less'} than "
            f"half the games: {e.text(True)}."
        ]
    else:
        out = [
            f"The first player has no detectable advantage at this sample size: {e.text(True)} "
            f"({data.deals} deals)."
        ]
    gap = data.mean_starter.value - data.mean_second.value
    out.append(
        f"A round's starter scores {data.mean_starter.value:.1f} points and the other player "
        f"{data.mean_second.value:.1f} ({gap:+.1f})."
    )
    if len(data.bot_wins) > 1:
        out.append(
            "By bot: " + "; ".join(f"{spec} wins {b.text(True)}" for spec, b in data.bot_wins.items()) + "."
        )
    out.append(f"Draws: {data.draws / max(1, data.games):.1%} of games.")
    return out


def _plot_wins(data: CardsBalance, path: Path) -> None:
    names = [f"seat {s + 1}" for s in range(len(data.seat_wins))] + ["first player"]
    plot_estimates(
        names,
        [*data.seat_wins, data.first_wins],
        0.5,
        path,
        ylim=1.0,
        title=f"win rates, 95% over {data.deals} deals",
    )


def _plot_totals(data: CardsBalance, path: Path) -> None:
    fig = Figure(figsize=(5.5, 3.2), dpi=110)
    ax = fig.subplots()
    ax.hist(data.totals, bins=range(0, max(data.totals, default=0) + 6, 5), color=PINK, edgecolor=EDGE)
    ax.set_xlabel("a player's points in a game")
    ax.set_ylabel("players")
    fig.tight_layout()
    fig.savefig(path)


def _plot_combinations(data: CardsBalance, path: Path, labels: dict[str, str]) -> None:
    fig = Figure(figsize=(6.5, 3.4), dpi=110)
    ax = fig.subplots()
    counts = [data.combinations.get(code, 0) for code in COMBINATIONS]
    ax.barh([labels[c] for c in COMBINATIONS], counts, color=PINK, edgecolor=EDGE)
    ax.invert_yaxis()
    ax.set_xlabel("areas")
    fig.tight_layout()
    fig.savefig(path)
