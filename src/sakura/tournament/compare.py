"""Two editions of a game (two decks, two gardens) compared on the same deals and seats.

*Paired* (the default): both sides play the same games: game ``i`` of each side has the same
deal seed, the same bots in the same seats and the same bot seeds (*common random numbers*).
So what differs between a pair of games is the edition, not the luck, and each figure's
difference is estimated paired within its deal
(:meth:`~sakura.tournament.intervals.Clustered.contrast`): the luck the two sides share cancels
out, and the interval is far narrower than two separate runs would give.

:func:`compare_figures` gives one :class:`Row` per figure: both sides, their difference (B
minus A) with its 95% interval, and a verdict.

*Independent* (``sakura compare --independent``): each side plays its own deals with its own
seeds, nothing is shared, and each difference is a two-sample one (each side clustered over
its own deals, the variances added, Welch's degrees of freedom:
:func:`~sakura.tournament.intervals.two_sample`). Wider intervals; its use is the A/A check
(one file against itself), whose verdicts are then false positives at the stated 5% rather
than a test of determinism. Which design a comparison has is read from the deals: the same
deals on both sides are paired, disjoint ones independent.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from sakura.engine.games.cards import AREAS
from sakura.engine.games.sakura import SakuraGame
from sakura.tournament.balance import dealt_contrast, observe
from sakura.tournament.cards_balance import COMBINATIONS, KINDS, observe_cards
from sakura.tournament.intervals import RATE, Clustered, Estimate, two_sample
from sakura.tournament.multiple import HOLM, holm
from sakura.tournament.play import GameResult

A, B = "A", "B"
DIFFERS, SAME = "differs", "no detectable difference at this sample size"
PAIRED, INDEPENDENT = "paired", "independent"


@dataclass(frozen=True, slots=True)
class Row:
    """One figure of a comparison. ``percent``: a rate (shown in %, its difference in points)."""

    section: str
    name: str
    a: Estimate
    b: Estimate
    difference: Estimate
    percent: bool
    design: str = PAIRED
    always_valid: bool = False  # its interval is a confidence sequence (--until-decided)

    @property
    def verdict(self) -> str:
        return DIFFERS if self.difference.excludes(0.0) else SAME

    def to_json(self) -> dict[str, object]:
        return {
            "section": self.section,
            "figure": self.name,
            "a": self.a.to_json(),
            "b": self.b.to_json(),
            "difference": self.difference.to_json(),
            "detectable": round(self.difference.detectable, 5),
            "p": round(self.difference.p_value, 5),
            "verdict": self.verdict,
            "interval": "confidence sequence" if self.always_valid else "fixed sample",
        }


class Sides:
    """Both sides' observations and the right difference for the design: one
    :class:`Clustered` for paired sides (a contrast within each deal), one a side for
    independent ones (a two-sample difference)."""

    def __init__(self, a: Sequence[GameResult], b: Sequence[GameResult]) -> None:
        deals_a, deals_b = {r.deal for r in a}, {r.deal for r in b}
        if deals_a == deals_b:
            self.design = PAIRED
            shared = Clustered()
            self.c = {A: shared, B: shared}
        elif deals_a.isdisjoint(deals_b):
            self.design = INDEPENDENT
            self.c = {A: Clustered(), B: Clustered()}
        else:
            raise ValueError("the two sides must play the same deals (paired) or disjoint ones (independent)")

    def ratio(self, side: str, key: tuple[Hashable, ...], bounds: tuple[float, float] | None) -> Estimate:
        return self.c[side].ratio((side, *key), bounds)

    def contrast(self, side: str, weights: Mapping[Hashable, float], *, rates: bool = False) -> Estimate:
        return self.c[side].contrast(weights, rates=rates)

    def difference(
        self, b: Mapping[Hashable, float], a: Mapping[Hashable, float], *, rates: bool = False
    ) -> Estimate:
        """``contrast(b) - contrast(a)``: paired within each deal, or two-sample."""
        if self.design == PAIRED:
            return self.c[A].contrast({**b, **{k: -w for k, w in a.items()}}, rates=rates, paired=True)
        return two_sample(self.c[B].contrast(b, rates=rates), self.c[A].contrast(a, rates=rates))

    def row(self, section: str, name: str, key: tuple[Hashable, ...], percent: bool) -> Row:
        bounds = RATE if percent else None
        return Row(
            section,
            name,
            self.ratio(A, key, bounds),
            self.ratio(B, key, bounds),
            self.difference({(B, *key): 1.0}, {(A, *key): 1.0}),
            percent,
            self.design,
        )


def compare_figures(
    a: Sequence[GameResult], b: Sequence[GameResult], game_a: SakuraGame, game_b: SakuraGame
) -> list[Row]:
    """Every figure of both sides, paired when they played the same deals (``deal`` pairs
    them), two-sample when they played disjoint ones (:class:`Sides`)."""
    sides = Sides(a, b)
    observe(a, game_a, sides.c[A], A)
    observe(b, game_b, sides.c[B], B)
    _row = sides.row
    rows = [_row("seats", f"seat {s + 1} win rate", ("seat", s), True) for s in range(game_a.players)]
    specs = dict.fromkeys(spec for r in a for spec in r.seats)
    if len(specs) > 1:
        rows += [_row("bots", f"{spec} win rate", ("bot", spec), True) for spec in specs]
    rows += [
        _row("length", "rounds a game", ("rounds",), False),
        _row("length", "bumps a game", ("bumps",), False),
    ]
    causes = sorted({cause for r in (*a, *b) for cause in r.stats["bumps"]})
    rows += [_row("length", f"bumps by the {cause} a game", ("bumps by", cause), False) for cause in causes]
    places = min(len(game_a.garden.awards), len(game_b.garden.awards))
    for i in range(min(len(game_a.sakuras), len(game_b.sakuras))):
        rows += [
            _row("sakuras", f"sakura {i + 1}, {r + 1}. place: P(win)", ("place", i, r), True)
            for r in range(places)
        ]
    texts_a = {card.number: f"{card.garden} {card.painter}" for card in game_a.deck.cards}
    texts_b = {card.number: f"{card.garden} {card.painter}" for card in game_b.deck.cards}
    for n in sorted(set(texts_a) & set(texts_b)):
        name = f"card {n} ({texts_a[n]}" + ("" if texts_a[n] == texts_b[n] else f" → {texts_b[n]}") + ")"
        weights_a, weights_b = dealt_contrast(A, n), dealt_contrast(B, n)
        rows.append(
            Row(
                "cards",
                f"{name}: dealt effect",
                sides.contrast(A, weights_a, rates=True),
                sides.contrast(B, weights_b, rates=True),
                sides.difference(weights_b, weights_a, rates=True),
                True,
                sides.design,
            )
        )
    return rows


def compare_cards_figures(a: Sequence[GameResult], b: Sequence[GameResult]) -> list[Row]:
    """Every figure of the card game's two sides (two card data files, the same deals):
    who wins, points, what the areas scored with, discards and gifts."""
    sides = Sides(a, b)
    observe_cards(a, sides.c[A], A)
    observe_cards(b, sides.c[B], B)
    _row = sides.row
    rows = [_row("seats", f"seat {s + 1} win rate", ("seat", s), True) for s in range(2)]
    rows.append(_row("seats", "the first player's win rate", ("first",), True))
    specs = dict.fromkeys(spec for r in a for spec in r.seats)
    if len(specs) > 1:
        rows += [_row("bots", f"{spec} win rate", ("bot", spec), True) for spec in specs]
    rows.append(_row("wins", "draws", ("draw",), True))
    rows += [
        _row("points", name, key, False)
        for name, key in (
            ("a player's game total", ("total",)),
            ("winning margin", ("margin",)),
            ("a round, its starter", ("starter",)),
            ("a round, the other player", ("second",)),
        )
    ]
    rows += [_row("points", f"an area: {area}", ("area", i), False) for i, area in enumerate(AREAS)]
    rows += [
        _row("combinations", f"areas: {KINDS[code]}", ("combination", code), True) for code in COMBINATIONS
    ]
    rows += [
        _row("play", "discards a game", ("discards",), False),
        _row("gifts", "gifts the receiver placed", ("gifts placed",), True),
    ]
    return rows


def card_survivors(rows: Sequence[Row]) -> set[str]:
    """The card figures whose difference survives Holm's correction over every card figure
    (:mod:`sakura.tournament.multiple`): the ones the summary may call a change."""
    cards = [r for r in rows if r.section == "cards"]
    adjusted = holm([r.difference.p_value for r in cards])
    return {r.name for r, p in zip(cards, adjusted, strict=True) if p < 0.05}


def detectable(rows: Sequence[Row]) -> str:
    """The smallest changes this comparison would have seen four times in five (80% power at
    95%), for the figures a designer asks about first: a game's rounds and a seat's win rate."""
    parts = []
    for r in rows:
        if r.name == "rounds a game":
            parts.append(f"±{r.difference.detectable:.2f} rounds a game")
    seats = [r.difference.detectable for r in rows if r.section == "seats" and r.name.startswith("seat ")]
    if seats:
        parts.append(f"±{max(seats) * 100:.1f} points of a seat's win rate")
    cards = [r.difference.detectable for r in rows if r.section == "cards" and math.isfinite(r.difference.se)]
    if cards:
        parts.append(f"±{statistics.median(cards) * 100:.0f} points of a card's dealt effect (median card)")
    if not parts:
        return ""
    return "Smallest change it could have seen (80% power): " + ", ".join(parts) + "."


def in_words(rows: Sequence[Row], deals: int) -> list[str]:
    """What changed, how sure, how many games, in sentences (the report's first section).
    Card figures count as a change only when they survive Holm's correction."""
    survivors = card_survivors(rows)
    changed = [r for r in rows if r.verdict == DIFFERS and (r.section != "cards" or r.name in survivors)]
    same = [r for r in rows if r.verdict == SAME]
    design = rows[0].design if rows else PAIRED
    out = []
    if changed:
        out.append("What changed (B against A):")
        out += [
            f"  - {r.name}: {value(r.a, r, side=True)} → {value(r.b, r, side=True)} "
            f"({'up' if r.difference.value > 0 else 'down'}; B − A {value(r.difference, r)})"
            for r in changed
        ]
    else:
        out.append(f"Nothing changed detectably at this sample size ({deals} deals).")
    how = (
        "the same deals, bots and seeds on both sides (paired)"
        if design == PAIRED
        else "independent deals and seeds on each side (two-sample intervals)"
    )
    if any(r.always_valid for r in rows):
        how += (
            "; the headline figures' intervals are confidence sequences, valid however the run "
            "stopped (--until-decided)"
        )
    out.append(f"How sure: 95% intervals over {deals} deals a side, {how}. {detectable(rows)}".rstrip())
    sections: dict[str, int] = {}
    for r in same:
        sections[r.section] = sections.get(r.section, 0) + 1
    if same:
        out.append(
            "What did not change detectably: "
            + ", ".join(f"{count} {section} figure{'s' * (count > 1)}" for section, count in sections.items())
            + f" (each difference's interval holds 0; {deals} deals)."
        )
    cards = [r for r in rows if r.section == "cards"]
    if cards:
        loose = sum(1 for r in cards if r.verdict == DIFFERS and r.name not in survivors)
        out.append(
            f"Card figures are corrected for testing {len(cards)} at once ({HOLM}'s method): "
            f"{len(survivors)} survive"
            + (f"; {loose} more differ at 95% one at a time, about what chance gives" if loose else "")
            + f" (about {0.05 * len(cards):.0f} would by chance alone)."
        )
    return out


def value(e: Estimate, row: Row, *, side: bool = False) -> str:
    """A side's figure (``side``: ``12.3%``, ``14.20``) or a difference with its interval
    (``+1.2 points (+0.4 to +2.0)``, ``-0.85 (-1.10 to -0.60)``)."""
    points = row.percent and (not side or row.section == "cards")
    if side and not points:
        return f"{e.value:.1%}" if row.percent else f"{e.value:.2f}"
    if side:
        return f"{e.value * 100:+.1f} points"
    if points:
        return f"{e.value * 100:+.1f} points ({e.low * 100:+.1f} to {e.high * 100:+.1f})"
    return f"{e.value:+.2f} ({e.low:+.2f} to {e.high:+.2f})"
