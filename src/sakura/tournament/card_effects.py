"""Card effects that hold: the whole dealt hand at once, corrected for testing 60 cards, and
checked on each half of the deals.

The balance report's *dealt effect* of card ``c`` is ``D_c``: the win rate of the players it
was dealt to minus that of the players it was not. Its plain estimate (a difference of two
means, :func:`~sakura.tournament.balance.dealt_contrast`) carries in its noise everything else
that made a player win: the four other cards of the hand, the seat, the bot. Three changes:

**Regression on the whole hand** (:func:`hand_effects`). One least-squares fit, every seat-game
a row, of the player's share of the win on an indicator for each card of the deck in the
starting hand, with the seat and (in a mix) the bot as control variates:

    y = sum_c beta_c [c in hand] + sum_s gamma_s [seat s] + sum_b delta_b [bot b] + e

(no intercept: every hand holds the same number ``k`` of cards, so the card indicators add up
to ``k`` and carry it). If a hand's cards add up (the model), holding ``c`` instead of not
holding it changes the expected share by ``D_c = beta_c - mean(beta_j, j != c)``: holding ``c``
takes one of the ``k`` places that a card drawn from the others would have had. That is the
same figure as the plain one, estimated with the other cards', the seat's and the bot's share
of the noise taken out. Its variance is the cluster-robust (sandwich) one over deals, with the
usual small-sample factor ``G/(G-1) (n-1)/(n-p)`` and Student's t at ``G - 1`` degrees of
freedom, and it is never below the plain estimate's floor of one win and one loss added
(Agresti and Caffo's, as :meth:`~sakura.tournament.intervals.Clustered.contrast` does), so a
card dealt five times is not "certain". The gain is measured, not assumed:
:func:`variance_gain` gives the median ratio of the two variances (the plain one without its
floor), i.e. how many more deals the plain estimate would need for the same width.

**Multiple testing** (:mod:`sakura.tournament.multiple`). The 60 cards' p-values are adjusted
by Holm's method (any false headline at most 5% of the time) and Benjamini and Hochberg's
(q-values); a report headlines a card only when it survives Holm.

**Split-half replication.** The same fit on the first and on the second half of the deals:
a headlined card whose effect has one sign in both halves is more than one lucky stretch.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from sakura.tournament.intervals import NO_DATA, Estimate, t_quantile
from sakura.tournament.multiple import benjamini_hochberg, holm
from sakura.tournament.play import GameResult

SINGULAR = 1e-10


@dataclass(frozen=True, slots=True)
class CardFinding:
    """One card's adjusted effect, its corrected p-values and its two halves."""

    card: int
    adjusted: Estimate  # D_c from the regression on the whole hand, seat and bot
    p_holm: float
    q_bh: float
    first_half: Estimate
    second_half: Estimate

    @property
    def headline(self) -> bool:
        """Whether the effect survives Holm's correction over every card of the deck."""
        return self.p_holm < 0.05

    @property
    def replicated(self) -> bool:
        """Whether both halves of the deals show the effect's sign."""
        sign = math.copysign(1.0, self.adjusted.value)
        return all(h.value * sign > 0 for h in (self.first_half, self.second_half))


def hand_effects(results: Sequence[GameResult], numbers: Sequence[int]) -> dict[int, Estimate] | None:
    """``D_c`` of every card in ``numbers`` by the regression on the whole dealt hand (module
    docstring); ``None`` when it cannot be fitted (hands of different sizes, fewer deals than
    unknowns, or too few deals to tell the cards apart), and then the plain figures stand.
    A card never dealt gets no estimate."""
    rows: list[tuple[Hashable, list[int], float]] = []
    sizes = set()
    for r in results:
        hands = r.stats.get("dealt") or []
        for seat, hand in enumerate(hands):
            sizes.add(len(hand))
            rows.append((r.deal, [*hand], float(r.returns[seat])))
    dealt = sorted({card for _, hand, _ in rows for card in hand} & set(numbers))
    if len(sizes) != 1 or len(dealt) < 2:
        return None
    index = {card: i for i, card in enumerate(dealt)}
    players = max(len(r.stats.get("dealt") or []) for r in results)
    specs = list(dict.fromkeys(spec for r in results for spec in r.seats))
    width = len(dealt) + (players - 1) + (len(specs) - 1)
    features: list[list[int]] = []
    for r in results:
        for seat, hand in enumerate(r.stats.get("dealt") or []):
            x = [index[c] for c in hand if c in index]
            if seat > 0:
                x.append(len(dealt) + seat - 1)
            bot = specs.index(r.seats[seat])
            if bot > 0:
                x.append(len(dealt) + players - 1 + bot - 1)
            features.append(x)
    n = len(rows)
    clusters = len({deal for deal, _, _ in rows})
    if n <= width or clusters < 3:
        return None
    xtx = [[0.0] * width for _ in range(width)]
    xty = [0.0] * width
    for x, (_, _, y) in zip(features, rows, strict=True):
        for i in x:
            xty[i] += y
            row = xtx[i]
            for j in x:
                row[j] += 1.0
    inverse = _invert(xtx)
    if inverse is None:
        return None
    beta = [sum(inverse[i][j] * xty[j] for j in range(width)) for i in range(width)]
    scores: dict[Hashable, dict[int, float]] = {}
    for x, (deal, _, y) in zip(features, rows, strict=True):
        e = y - sum(beta[i] for i in x)
        score = scores.setdefault(deal, {})
        for i in x:
            score[i] = score.get(i, 0.0) + e
    factor = clusters / (clusters - 1) * (n - 1) / (n - width)
    t = t_quantile(clusters)
    counts = _counts(rows, dealt)
    out: dict[int, Estimate] = dict.fromkeys(numbers, NO_DATA)
    m = len(dealt)
    for card, c in index.items():
        a = [-1.0 / (m - 1)] * m  # beta_c - mean of the others
        a[c] = 1.0
        w = [sum(a[k] * inverse[k][j] for k in range(m)) for j in range(width)]
        value = sum(a[k] * beta[k] for k in range(m))
        meat = sum(sum(w[i] * s for i, s in score.items()) ** 2 for score in scores.values())
        held_y, held_n, other_y, other_n = counts[card]
        floor = sum(
            p * (1 - p) / (x + 2)
            for p, x in (((held_y + 1) / (held_n + 2), held_n), ((other_y + 1) / (other_n + 2), other_n))
        )
        se = math.sqrt(max(factor * meat, floor))
        out[card] = Estimate(value, value - t * se, value + t * se, se, held_n, clusters, clusters - 1)
    return out


def _counts(
    rows: Sequence[tuple[Hashable, list[int], float]], cards: Sequence[int]
) -> dict[int, list[float]]:
    """Per card: wins and seat-games of the players it was dealt to, then of the others."""
    total_y, total_n = sum(y for _, _, y in rows), float(len(rows))
    out = {card: [0.0, 0.0, 0.0, 0.0] for card in cards}
    for _, hand, y in rows:
        for card in hand:
            if card in out:
                out[card][0] += y
                out[card][1] += 1
    for cell in out.values():
        cell[2], cell[3] = total_y - cell[0], total_n - cell[1]
    return out


def _invert(matrix: list[list[float]]) -> list[list[float]] | None:
    """The inverse by Gauss and Jordan's elimination with partial pivoting (the standard
    library only; the matrix is about 65 by 65), ``None`` when it is singular."""
    size = len(matrix)
    scale = max((abs(v) for row in matrix for v in row), default=0.0) or 1.0
    work = [[*row, *(1.0 if i == j else 0.0 for j in range(size))] for i, row in enumerate(matrix)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(work[r][col]))
        if abs(work[pivot][col]) <= SINGULAR * scale:
            return None
        work[col], work[pivot] = work[pivot], work[col]
        lead = work[col]
        inv = 1.0 / lead[col]
        for j in range(col, 2 * size):
            lead[j] *= inv
        for r in range(size):
            if r != col:
                row = work[r]
                f = row[col]
                if f != 0.0:
                    for j in range(col, 2 * size):
                        row[j] -= f * lead[j]
    return [row[size:] for row in work]


def halves(results: Sequence[GameResult]) -> tuple[list[GameResult], list[GameResult]]:
    """The games of the first and of the second half of the deals (by deal number)."""
    deals = sorted({r.deal for r in results})
    first = set(deals[: len(deals) // 2])
    return [r for r in results if r.deal in first], [r for r in results if r.deal not in first]


def card_findings(
    results: Sequence[GameResult], numbers: Sequence[int], plain: dict[int, Estimate]
) -> tuple[dict[int, CardFinding], bool]:
    """Every card's finding, and whether its effect is the regression's (``False``: it could
    not be fitted, and the ``plain`` dealt effects stand, corrected and halved the same way;
    their halves then come from :func:`hand_effects` where it fits, else they are unknown)."""
    adjusted = hand_effects(results, numbers)
    fitted = adjusted is not None
    effects = adjusted if adjusted is not None else plain
    first, second = (hand_effects(half, numbers) or {} for half in halves(results))
    cards = [n for n in numbers if effects.get(n, NO_DATA).n > 0]
    p = [effects[n].p_value for n in cards]
    by_holm, by_bh = holm(p), benjamini_hochberg(p)
    out = {}
    for k, n in enumerate(cards):
        out[n] = CardFinding(
            n, effects[n], by_holm[k], by_bh[k], first.get(n, NO_DATA), second.get(n, NO_DATA)
        )
    return out, fitted


def variance_gain(adjusted: dict[int, Estimate], plain: dict[int, Estimate]) -> float:
    """The median over cards of ``var(plain) / var(adjusted)``: how many times the deals the
    plain difference would need for the adjusted interval's width (1.0: no gain). Give the
    plain estimates *without* their small-sample floor, so that the floor cannot pass for a
    gain."""
    ratios = [
        plain[n].se ** 2 / e.se**2
        for n, e in adjusted.items()
        if n in plain and e.se > 0 and math.isfinite(e.se) and math.isfinite(plain[n].se)
    ]
    return statistics.median(ratios) if ratios else 1.0
