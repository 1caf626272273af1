"""Holm's and Benjamini-Hochberg's adjusted p-values against hand-computed examples."""

from __future__ import annotations

import pytest

from sakura.tournament.multiple import benjamini_hochberg, holm


def test_holm_by_hand() -> None:
    # sorted: 0.001 (x5), 0.008 (x4), 0.012 (x3), 0.03 (x2), 0.2 (x1), each at least the one before
    p = [0.03, 0.001, 0.2, 0.012, 0.008]
    assert holm(p) == pytest.approx([0.06, 0.005, 0.2, 0.036, 0.032])
    # at 5%: three survive (0.001, 0.008, 0.012); unadjusted, four would
    assert sum(q < 0.05 for q in holm(p)) == 3 and sum(x < 0.05 for x in p) == 4


def test_holm_keeps_the_order_and_caps_at_one() -> None:
    # 0.02 x 3 = 0.06; then 0.01 x 2 = 0.02 is raised to 0.06 (step-down: never below the one before)
    assert holm([0.01, 0.02, 0.9]) == pytest.approx([0.03, 0.04, 0.9])
    assert holm([0.02, 0.01, 0.6]) == pytest.approx([0.04, 0.03, 0.6])
    assert holm([0.5, 0.6]) == [1.0, 1.0] and holm([]) == []


def test_benjamini_hochberg_by_hand() -> None:
    # m = 5; sorted 0.001, 0.008, 0.012, 0.03, 0.2 times 5/1, 5/2, 5/3, 5/4, 5/5:
    # 0.005, 0.02, 0.02, 0.0375, 0.2, then each the least of itself and those above it
    p = [0.03, 0.001, 0.2, 0.012, 0.008]
    assert benjamini_hochberg(p) == pytest.approx([0.0375, 0.005, 0.2, 0.02, 0.02])
    # step-up: 0.04 x 2/2 = 0.04 pulls 0.03 x 2/1 = 0.06 down to 0.04
    assert benjamini_hochberg([0.03, 0.04]) == pytest.approx([0.04, 0.04])
    assert sum(q < 0.05 for q in benjamini_hochberg(p)) == 4


def test_bh_is_never_stricter_than_holm() -> None:
    p = [0.001, 0.004, 0.019, 0.025, 0.04, 0.3, 0.7]
    assert all(b <= h for b, h in zip(benjamini_hochberg(p), holm(p), strict=True))
