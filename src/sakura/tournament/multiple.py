"""Many figures tested at once: adjusted p-values that keep false findings rare.

A balance report tests each of 60 cards at 95%: about three cards look "significant" by chance
alone, and two runs with different seeds flag different cards. Two classic corrections turn
each card's p-value into an *adjusted* one, to be compared with 0.05 as before:

- **Holm** (Holm 1979, "A simple sequentially rejective multiple test procedure"): the chance
  that *any* flagged card is a false finding stays below 5% (the family-wise error rate),
  whatever the dependence between the tests. Stricter; the reports headline with it.
- **Benjamini–Hochberg** (1995, "Controlling the false discovery rate"): of the flagged cards,
  at most 5% *on average* are false findings (the false discovery rate; valid for independent
  or positively dependent tests). More findings, each a little less certain.

>>> [round(p, 3) for p in holm([0.01, 0.04, 0.03, 0.005])]
[0.03, 0.06, 0.06, 0.02]
>>> [round(p, 3) for p in benjamini_hochberg([0.01, 0.04, 0.03, 0.005])]
[0.02, 0.04, 0.04, 0.02]
"""

from __future__ import annotations

from collections.abc import Sequence

HOLM = "Holm"
BH = "Benjamini–Hochberg"


def holm(p: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given: the ``k``-th smallest of ``m``
    is multiplied by ``m - k + 1``, then made non-decreasing in that order, capped at 1."""
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    adjusted = [1.0] * m
    running = 0.0
    for k, i in enumerate(order):
        running = max(running, min(1.0, (m - k) * p[i]))
        adjusted[i] = running
    return adjusted


def benjamini_hochberg(p: Sequence[float]) -> list[float]:
    """Benjamini and Hochberg's step-up adjusted p-values (q-values), in the order given: the
    ``k``-th smallest of ``m`` is multiplied by ``m / k``, then made non-increasing from the
    largest down, capped at 1."""
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i], reverse=True)
    adjusted = [1.0] * m
    running = 1.0
    for j, i in enumerate(order):
        rank = m - j
        running = min(running, p[i] * m / rank)
        adjusted[i] = min(1.0, running)
    return adjusted
