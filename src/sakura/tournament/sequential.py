"""Always-valid intervals, for a run that plays until it is decided (``--until-decided``).

A 95% interval is 95% sure at the number of deals fixed in advance. Looked at after every
batch, with the run stopped as soon as it excludes 0, it is wrong far more often than one
time in twenty: each look is another chance for luck to cross the line. A *confidence
sequence* is a sequence of intervals that hold the truth at every number of deals at once,
with probability 95%, so the run may stop whenever it likes (optional stopping) and its last
interval is still valid.

This is the asymptotic confidence sequence of Waudby-Smith, Arbour, Sinha, Kennedy and Ramdas
("Time-uniform central limit theory and asymptotic confidence sequences", *The Annals of
Statistics* 52(6), 2024; arXiv:2103.06476), built on Robbins' normal mixture: after ``t``
deals (i.i.d. units) with mean ``m`` and standard deviation ``s`` a deal,

    m ± s · sqrt( 2 (t ρ² + 1) / (t² ρ²) · log( sqrt(t ρ² + 1) / α ) )

with ``ρ`` chosen to make it tightest at ``planned`` deals,
``ρ² = (−2 log α + log(−2 log α + 1)) / planned``. It is about 1.5 to 2 times as wide as the
fixed-sample interval at the same deals: the price of looking as often as one likes. Its
validity is asymptotic (like the t interval's for a mean of non-normal values), checked on
simulated data in the tests.

>>> round(boundary(1000, 1000) * math.sqrt(1000), 2)  # in standard deviations of the mean
3.04
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from sakura.tournament.compare import Row
from sakura.tournament.intervals import Estimate

ALPHA = 0.05
METHOD = "asymptotic confidence sequence (Waudby-Smith et al. 2024, Robbins' normal mixture)"


def boundary(t: int, planned: int, alpha: float = ALPHA) -> float:
    """The half-width after ``t`` units in standard deviations of one unit."""
    if t < 2:
        return math.inf
    log_alpha = -2 * math.log(alpha)
    rho2 = (log_alpha + math.log(log_alpha + 1)) / max(1, planned)
    return math.sqrt(2 * (t * rho2 + 1) / (t * t * rho2) * math.log(math.sqrt(t * rho2 + 1) / alpha))


def always_valid(e: Estimate, units: int, planned: int, alpha: float = ALPHA) -> Estimate:
    """``e`` (a mean over ``units`` deals, or deals a side for a two-sample difference) with
    its confidence-sequence interval instead of its fixed-sample one: the standard deviation
    of a unit is read back from the estimate's standard error, ``s = se · sqrt(units)``."""
    if not math.isfinite(e.se) or units < 2:
        return Estimate(e.value, -math.inf, math.inf, e.se, e.n, e.clusters, e.df)
    half = e.se * math.sqrt(units) * boundary(units, planned, alpha)
    return Estimate(e.value, e.value - half, e.value + half, e.se, e.n, e.clusters, e.df)


def decided(e: Estimate, width: float) -> bool:
    """Whether a figure needs no more deals: its interval leaves 0 out or is narrower than
    ``width``."""
    return e.excludes(0.0) or e.high - e.low < width


HEADLINE = ("seats", "bots", "length", "wins", "points")  # the sections a run waits for


def sequential_rows(
    rows: Sequence[Row], deals: int, planned: int, width: float, width_mean: float
) -> tuple[list[Row], int]:
    """``rows`` with the headline figures' differences (sections :data:`HEADLINE`) made
    always valid, and how many of them are still undecided: a rate's interval (a share) must
    be narrower than ``width``, any other figure's than ``width_mean`` (in its own unit)."""
    out, undecided = [], 0
    for r in rows:
        if r.section not in HEADLINE:
            out.append(r)
            continue
        cs = always_valid(r.difference, deals, planned)
        undecided += not decided(cs, width if r.percent else width_mean)
        out.append(replace(r, difference=cs, always_valid=True))
    return out, undecided
