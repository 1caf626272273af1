"""Two editions of a game (two decks, two gardens) compared on the same deals and seats.

Both sides play the same games: game ``i`` of each side has the same deal seed, the same bots
in the same seats and the same bot seeds (*common random numbers*). So what differs between
a pair of games is the edition, not the luck, and each figure's difference is estimated
paired within its deal (:meth:`~sakura.tournament.intervals.Clustered.contrast`): the luck the
two sides share cancels out, and the interval is far narrower than two separate runs would give.

:func:`compare_figures` gives one :class:`Row` per figure: both sides, their difference (B
minus A) with its 95% interval, and a verdict.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from sakura.engine.games.cards import AREAS
from sakura.engine.games.sakura import SakuraGame
from sakura.tournament.balance import dealt_contrast, observe
from sakura.tournament.cards_balance import COMBINATIONS, KINDS, observe_cards
from sakura.tournament.intervals import RATE, Clustered, Estimate
from sakura.tournament.play import GameResult

A, B = "A", "B"
DIFFERS, SAME = "differs", "no detectable difference at this sample size"


@dataclass(frozen=True, slots=True)
class Row:
    """One figure of a comparison. ``percent``: a rate (shown in %, its difference in points)."""

    section: str
    name: str
    a: Estimate
    b: Estimate
    difference: Estimate
    percent: bool

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
            "verdict": self.verdict,
        }


def _row(c: Clustered, section: str, name: str, key: tuple[Hashable, ...], percent: bool) -> Row:
    bounds = RATE if percent else None
    return Row(
        section,
        name,
        c.ratio((A, *key), bounds),
        c.ratio((B, *key), bounds),
        c.contrast({(B, *key): 1.0, (A, *key): -1.0}),
        percent,
    )


def compare_figures(
    a: Sequence[GameResult], b: Sequence[GameResult], game_a: SakuraGame, game_b: SakuraGame
) -> list[Row]:
    """Every figure of both sides (played on the same deals: ``deal`` pairs them)."""
    c = Clustered()
    observe(a, game_a, c, A)
    observe(b, game_b, c, B)
    rows = [_row(c, "seats", f"seat {s + 1} win rate", ("seat", s), True) for s in range(game_a.players)]
    specs = dict.fromkeys(spec for r in a for spec in r.seats)
    if len(specs) > 1:
        rows += [_row(c, "bots", f"{spec} win rate", ("bot", spec), True) for spec in specs]
    rows += [
        _row(c, "length", "rounds a game", ("rounds",), False),
        _row(c, "length", "bumps a game", ("bumps",), False),
    ]
    causes = sorted({cause for r in (*a, *b) for cause in r.stats["bumps"]})
    rows += [
        _row(c, "length", f"bumps by the {cause} a game", ("bumps by", cause), False) for cause in causes
    ]
    places = min(len(game_a.garden.awards), len(game_b.garden.awards))
    for i in range(min(len(game_a.sakuras), len(game_b.sakuras))):
        rows += [
            _row(c, "sakuras", f"sakura {i + 1}, {r + 1}. place: P(win)", ("place", i, r), True)
            for r in range(places)
        ]
    texts_a = {card.number: f"{card.garden} {card.painter}" for card in game_a.deck.cards}
    texts_b = {card.number: f"{card.garden} {card.painter}" for card in game_b.deck.cards}
    for n in sorted(set(texts_a) & set(texts_b)):
        name = f"card {n} ({texts_a[n]}" + ("" if texts_a[n] == texts_b[n] else f" → {texts_b[n]}") + ")"
        weights_a, weights_b = dealt_contrast(A, n), dealt_contrast(B, n)
        difference = c.contrast({**weights_b, **{k: -w for k, w in weights_a.items()}}, rates=True)
        rows.append(
            Row(
                "cards",
                f"{name}: dealt effect",
                c.contrast(weights_a, rates=True),
                c.contrast(weights_b, rates=True),
                difference,
                True,
            )
        )
    return rows


def compare_cards_figures(a: Sequence[GameResult], b: Sequence[GameResult]) -> list[Row]:
    """Every figure of the card game's two sides (two card data files, the same deals):
    who wins, points, what the areas scored with, discards and gifts."""
    c = Clustered()
    observe_cards(a, c, A)
    observe_cards(b, c, B)
    rows = [_row(c, "seats", f"seat {s + 1} win rate", ("seat", s), True) for s in range(2)]
    rows.append(_row(c, "seats", "the first player's win rate", ("first",), True))
    specs = dict.fromkeys(spec for r in a for spec in r.seats)
    if len(specs) > 1:
        rows += [_row(c, "bots", f"{spec} win rate", ("bot", spec), True) for spec in specs]
    rows.append(_row(c, "wins", "draws", ("draw",), True))
    rows += [
        _row(c, "points", name, key, False)
        for name, key in (
            ("a player's game total", ("total",)),
            ("winning margin", ("margin",)),
            ("a round, its starter", ("starter",)),
            ("a round, the other player", ("second",)),
        )
    ]
    rows += [_row(c, "points", f"an area: {area}", ("area", i), False) for i, area in enumerate(AREAS)]
    rows += [
        _row(c, "combinations", f"areas: {KINDS[code]}", ("combination", code), True) for code in COMBINATIONS
    ]
    rows += [
        _row(c, "play", "discards a game", ("discards",), False),
        _row(c, "gifts", "gifts the receiver placed", ("gifts placed",), True),
    ]
    return rows


def in_words(rows: Sequence[Row], deals: int) -> list[str]:
    """What changed and what did not, in sentences (the report's first section)."""
    changed = [r for r in rows if r.verdict == DIFFERS]
    same = [r for r in rows if r.verdict == SAME]
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
    sections: dict[str, int] = {}
    for r in same:
        sections[r.section] = sections.get(r.section, 0) + 1
    if same:
        out.append(
            "What did not change detectably: "
            + ", ".join(f"{count} {section} figure{'s' * (count > 1)}" for section, count in sections.items())
            + f" (each difference's interval holds 0; {deals} deals)."
        )
    cards = sum(1 for r in rows if r.section == "cards")
    if cards:
        out.append(
            f"(With {cards} card figures each tested at 95%, about {0.05 * cards:.0f} would differ "
            "by chance alone.)"
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
