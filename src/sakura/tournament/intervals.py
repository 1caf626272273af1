"""95% intervals that respect how games were played: clustered by deal.

Games that share a deal (a duplicate block: the same cards in every seat rotation; or the
two decks of a comparison played on the same seeds) are not independent, and neither are the
seats of one game (their wins add up to one). Treating every seat-game as an independent
draw makes intervals too narrow. Here every figure is a *ratio of sums* ``sum(y) / sum(x)``
(a win rate: ``y`` the share won, ``x`` = 1 per seat-game; a conditional rate: ``x`` = 1 only
where the condition holds), and its variance is the cluster-robust (sandwich) one over the
sums of each cluster (each deal):

    r = Y / X,   Var(r) = G / (G - 1) * sum_g (Y_g - r X_g)^2 / X^2

with ``G`` clusters, and the interval ``r ± t(G-1) * se`` (Student's t with G-1 degrees of
freedom: few deals give wide intervals, as they should). A *rate* (a share between 0 and 1)
gets Wilson's interval at the *effective* sample size instead (``n`` divided by the design
effect, the clustered variance over the binomial one; Korn and Graubard's recipe for
clustered samples), with the same t quantile: it stays inside 0..1 and does not shrink to a
point when every game of a small sample went the same way (then each deal counts as one).

A difference of ratios (a card dealt versus not; deck B minus deck A on the same deals) is a
:meth:`Clustered.contrast`: the linearised terms of each ratio are added within each cluster
before squaring, so what the two sides share (common random numbers) cancels out.

>>> c = Clustered()
>>> for deal, won in [(0, 1), (0, 1), (1, 0), (1, 0), (2, 1), (2, 0)]:
...     c.add(deal, "seat", won)
>>> e = c.ratio("seat")
>>> round(e.value, 3), e.n, e.clusters, round(e.se, 3)
(0.5, 6.0, 3, 0.289)
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True, slots=True)
class Estimate:
    """A figure with its 95% interval; ``n`` observations (the denominator's sum, for a
    contrast the smallest of its sides') in ``clusters`` deals."""

    value: float
    low: float
    high: float
    se: float
    n: float
    clusters: int
    df: int = -1  # the t quantile's degrees of freedom; -1: clusters - 1

    @property
    def degrees(self) -> int:
        """The degrees of freedom of the interval's t quantile."""
        return self.df if self.df >= 0 else self.clusters - 1

    @property
    def p_value(self) -> float:
        """The two-sided p-value of "the figure is 0" at this estimate's t: below 0.05 exactly
        when the 95% interval of an unclipped contrast leaves 0 out."""
        if not (math.isfinite(self.value) and math.isfinite(self.se)) or self.degrees < 1:
            return 1.0
        if self.se <= 0:
            return 1.0 if abs(self.value) <= EPSILON else 0.0
        return max(0.0, 1.0 - _t_central(abs(self.value) / self.se, self.degrees))

    @property
    def detectable(self) -> float:
        """The smallest true effect this estimate would detect (its interval leaving 0 out)
        four times in five: the minimum detectable effect at 80% power, ``(t + z_0.8) * se``
        (the usual approximation, with the same t as the interval)."""
        return (t_quantile(self.degrees + 1) + Z_POWER) * self.se

    def excludes(self, x: float = 0.0) -> bool:
        """Whether the interval leaves ``x`` out (for a difference: it differs from 0), beyond
        rounding (two identical sides differ by rounding errors of about 1e-17)."""
        return not self.low - EPSILON <= x <= self.high + EPSILON

    def to_json(self) -> dict[str, float | int]:
        return {
            "value": round(self.value, 4),
            "low": round(self.low, 4),
            "high": round(self.high, 4),
            "se": round(self.se, 5),
            "n": round(self.n, 2),
            "deals": self.clusters,
        }

    def text(self, percent: bool = False, signed: bool = False) -> str:
        """``52.1% (48.0–56.2%)`` or ``+0.31 (+0.12 to +0.50)``."""
        if percent:
            sign = "+" if signed else ""
            return f"{self.value:{sign}.1%} ({self.low:{sign}.1%} to {self.high:{sign}.1%})"
        sign = "+" if signed else ""
        return f"{self.value:{sign}.2f} ({self.low:{sign}.2f} to {self.high:{sign}.2f})"


EPSILON = 1e-9
Z_POWER = 0.8416212335729143  # the normal distribution's 80% quantile (statistics.NormalDist)
NO_DATA = Estimate(math.nan, -math.inf, math.inf, math.inf, 0.0, 0)


@cache
def t_quantile(clusters: int) -> float:
    """The two-sided 95% quantile of Student's t with ``clusters - 1`` degrees of freedom
    (scipy's ``t.ppf(0.975, clusters - 1)``, to about 1e-13, with the standard library only).

    >>> round(t_quantile(2), 4), round(t_quantile(11), 4), round(t_quantile(1001), 4)
    (12.7062, 2.2281, 1.9623)
    """
    if clusters <= 1:
        return math.inf
    df = clusters - 1
    z = 1.959963984540054  # the normal distribution's
    if df >= 1000:  # Cornish and Fisher's expansion in 1/df (Abramowitz and Stegun 26.7.5)
        g = (
            (z**3 + z) / 4,
            (5 * z**5 + 16 * z**3 + 3 * z) / 96,
            (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384,
            (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160,
        )
        return z + sum(gk / float(df) ** (k + 1) for k, gk in enumerate(g))
    # Newton's method on the exact central probability, from the normal quantile: the
    # probability grows with t and is concave beyond it, so the steps rise to the root.
    t = z
    for _ in range(100):
        step = (_t_central(t, df) - 0.95) / (2 * _t_density(t, df))
        t -= step
        if abs(step) <= 1e-15 * t:
            break
    return t


def _t_central(t: float, df: int) -> float:
    """``P(|T| <= t)`` for Student's t with ``df`` (a whole number) degrees of freedom: the
    closed form of Abramowitz and Stegun, 26.7.3 and 26.7.4 (a finite sum of positive terms)."""
    theta = math.atan(t / math.sqrt(df))
    sin, cos2 = math.sin(theta), math.cos(theta) ** 2
    if df % 2 == 0:  # sin(θ) (1 + 1/2 cos²θ + 1·3/(2·4) cos⁴θ + ... up to cos^(df-2)θ)
        term = total = 1.0
        for k in range(2, df, 2):
            term *= cos2 * (k - 1) / k
            total += term
        return sin * total
    if df == 1:
        return 2 * theta / math.pi
    # odd: 2/π (θ + sin(θ) cos(θ) (1 + 2/3 cos²θ + 2·4/(3·5) cos⁴θ + ... up to cos^(df-3)θ))
    term = total = 1.0
    for k in range(3, df - 1, 2):
        term *= cos2 * (k - 1) / k
        total += term
    return 2 / math.pi * (theta + sin * math.sqrt(cos2) * total)


def _t_density(t: float, df: int) -> float:
    log_scale = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    return math.exp(log_scale - (df + 1) / 2 * math.log1p(t * t / df))


class Clustered:
    """Sums ``y`` and ``x`` per cluster (deal) and per group (what a figure is of), then
    estimates ratios of the groups and their contrasts with cluster-robust intervals.

    Every cluster that was added counts towards ``G``, also for a group it has no data for
    (a deal where a card was not dealt still says something about the deals)."""

    __slots__ = ("_sums", "_totals")

    def __init__(self) -> None:
        self._sums: dict[Hashable, dict[Hashable, list[float]]] = {}
        self._totals: dict[Hashable, list[float]] = {}

    def add(self, cluster: Hashable, group: Hashable, y: float, x: float = 1.0) -> None:
        groups = self._sums.get(cluster)
        if groups is None:
            groups = self._sums[cluster] = {}
        sums = groups.get(group)
        if sums is None:
            groups[group] = [y, x]
        else:
            sums[0] += y
            sums[1] += x
        total = self._totals.get(group)
        if total is None:
            self._totals[group] = [y, x]
        else:
            total[0] += y
            total[1] += x

    def touch(self, cluster: Hashable) -> None:
        """Count ``cluster`` (a deal) even if it adds nothing to any group."""
        self._sums.setdefault(cluster, {})

    @property
    def clusters(self) -> int:
        return len(self._sums)

    def totals(self, group: Hashable) -> tuple[float, float]:
        """``(sum(y), sum(x))`` of ``group`` over every cluster."""
        y, x = self._totals.get(group, (0.0, 0.0))
        return y, x

    def ratio(self, group: Hashable, bounds: tuple[float, float] | None = None) -> Estimate:
        """``sum(y) / sum(x)`` of ``group``; ``bounds=RATE`` for a rate (see the module docstring),
        other bounds clip the interval."""
        e = self.contrast({group: 1.0}, None if bounds == RATE else bounds)
        if bounds != RATE or e.n <= 0:
            return e
        return _rate_interval(e)

    def difference(self, minuend: Hashable, subtrahend: Hashable) -> Estimate:
        """``ratio(minuend) - ratio(subtrahend)``, its sides paired within each cluster."""
        return self.contrast({minuend: 1.0, subtrahend: -1.0})

    def contrast(
        self,
        weights: Mapping[Hashable, float],
        bounds: tuple[float, float] | None = None,
        *,
        rates: bool = False,
        paired: bool = False,
    ) -> Estimate:
        """``sum(w * ratio(group))`` with its cluster-robust interval. Student's t takes the
        fewest clusters any of the groups has data in (a card dealt in 10 deals of 300 is
        known from 10 deals). ``rates``: the groups are rates, and the variance is at least
        what independent games would give with one win and one loss added to each group
        (Agresti and Caffo's), so that a small group that went one way (a card dealt five
        times, never to a winner) does not look certain.

        ``paired`` (with ``rates``): the groups are two sides' rates on the same deals, whose
        difference may rightly be far less variable than independent games' (both sides
        mostly play the same game). The floor is then that of two pseudo-deals added to each
        group, one where the side won and its twin lost and one the other way round:
        ``sum(w² / (x + 2)²)``; it still keeps a small group from looking certain, without
        undoing the pairing at large samples."""
        ratios: dict[Hashable, tuple[float, float]] = {}
        for group in weights:
            y, x = self.totals(group)
            if x <= 0:
                return NO_DATA
            ratios[group] = (y / x, x)
        value = sum(w * ratios[g][0] for g, w in weights.items())
        g_count = self.clusters
        present = dict.fromkeys(weights, 0)
        squares = 0.0
        for sums in self._sums.values():
            u = 0.0
            for group, w in weights.items():
                if group in sums:
                    present[group] += 1
                    r, x_total = ratios[group]
                    u += w * (sums[group][0] - r * sums[group][1]) / x_total
            squares += u * u
        variance = g_count / (g_count - 1) * squares if g_count > 1 else math.inf
        if rates:
            floor = 0.0
            for group, w in weights.items():
                y, x = self.totals(group)
                p = (y + 1) / (x + 2)
                floor += w * w / (x + 2) ** 2 if paired else w * w * p * (1 - p) / (x + 2)
            variance = max(variance, floor)
        se = math.sqrt(variance)
        half = t_quantile(min(present.values())) * se if se > 0 else 0.0
        low, high = value - half, value + half
        if bounds is not None:
            low, high = max(bounds[0], low), min(bounds[1], high)
        n = min(ratios[g][1] for g in weights)
        return Estimate(value, low, high, se, n, g_count, max(0, min(present.values()) - 1))


RATE = (0.0, 1.0)


def _rate_interval(e: Estimate) -> Estimate:
    """Wilson's interval at the effective sample size (see the module docstring)."""
    p = min(1.0, max(0.0, e.value))
    binomial = p * (1 - p) / e.n
    n_eff = e.n * binomial / (e.se * e.se) if binomial > 0 and 0 < e.se < math.inf else float(e.clusters)
    z = t_quantile(e.clusters)
    if n_eff <= 0 or math.isinf(z):
        return Estimate(e.value, 0.0, 1.0, e.se, e.n, e.clusters)
    denom = 1 + z * z / n_eff
    centre = (p + z * z / (2 * n_eff)) / denom
    half = z * math.sqrt(p * (1 - p) / n_eff + z * z / (4 * n_eff * n_eff)) / denom
    return Estimate(e.value, max(0.0, centre - half), min(1.0, centre + half), e.se, e.n, e.clusters, e.df)


def two_sample(b: Estimate, a: Estimate) -> Estimate:
    """``b - a`` for two figures measured on *independent* deals (each clustered over its own
    deals): the variances add, ``se = sqrt(se_a² + se_b²)``, and Student's t takes Welch and
    Satterthwaite's degrees of freedom (rounded down, which widens the interval a little),

        df = (v_a + v_b)² / (v_a² / df_a + v_b² / df_b),   v = se²

    the two-sample analogue of a paired contrast. Both sides share nothing, so nothing cancels:
    such an interval is about √2 times as wide as the paired one when the editions hardly
    change the games, which is why ``sakura compare`` pairs its sides unless told not to.

    >>> x = Estimate(1.0, 0.0, 2.0, 0.3, 10, 10)
    >>> d = two_sample(x, Estimate(0.5, 0.0, 1.0, 0.4, 10, 10))
    >>> round(d.value, 2), round(d.se, 2), d.degrees, d.clusters
    (0.5, 0.5, 16, 20)
    """
    if a.degrees < 1 or b.degrees < 1 or not (math.isfinite(a.se) and math.isfinite(b.se)):
        return Estimate(
            b.value - a.value, -math.inf, math.inf, math.inf, min(a.n, b.n), a.clusters + b.clusters
        )
    va, vb = a.se * a.se, b.se * b.se
    se = math.sqrt(va + vb)
    denominator = va * va / a.degrees + vb * vb / b.degrees
    df = int((va + vb) ** 2 / denominator) if denominator > 0 else a.degrees + b.degrees
    df = max(1, min(df, a.degrees + b.degrees))
    value = b.value - a.value
    half = t_quantile(df + 1) * se
    return Estimate(value, value - half, value + half, se, min(a.n, b.n), a.clusters + b.clusters, df)
