"""The intervals' Student t quantile, computed with the standard library (so that the core
install, without scipy, runs tournaments), held to scipy's."""

from __future__ import annotations

import math

import pytest

from sakura.tournament.intervals import t_quantile

stats = pytest.importorskip("scipy.stats", reason="scipy (the dev extra) is the reference")


def test_the_t_quantile_is_scipys() -> None:
    """Exact sums below 1000 degrees of freedom, Cornish and Fisher's expansion above."""
    for clusters in [*range(2, 1200), 1500, 5000, 20_001, 100_000, 10**6, 10**9]:
        expected = stats.t.ppf(0.975, clusters - 1)
        assert t_quantile(clusters) == pytest.approx(expected, rel=1e-12, abs=0), clusters


def test_one_deal_has_no_interval() -> None:
    assert math.isinf(t_quantile(1)) and math.isinf(t_quantile(0))
