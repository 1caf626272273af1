"""The pile-up at the gate (issue 28, deliverable 8), in Chromium at 1920×1080: six painters
on the gate stand apart (no piece hides another) and the reader's "you" label lies inside the
lawn, in English and mirrored in Persian.

Skips with the reason when Playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from tests.browser.conftest import page_errors
from tests.browser.test_table_staging import start

MEASURE = """() => {
  const box = (node) => {
    const r = node.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const garden = document.querySelector('#board svg.garden');
  return { lawn: box(garden.querySelector('.lawn')), you: box(garden.querySelector('.you-label')),
    pieces: [...garden.querySelectorAll('.painter-shape')].map(box) };
}"""


def _overlap(a: list[float], b: list[float]) -> float:
    """The share of the smaller box that the two boxes have in common."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return w * h / smaller


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_six_painters_on_the_gate_stand_apart_and_you_is_not_clipped(
    server: str, browser: Any, lang: str
) -> None:
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    errors = page_errors(page)
    start(page, server, players=6, query=f"speed=0&lang={lang}")
    seen = page.evaluate(MEASURE)
    lawn, you = seen["lawn"], seen["you"]
    assert lawn[0] <= you[0] and lawn[1] <= you[1] and you[2] <= lawn[2] and you[3] <= lawn[3], seen
    assert len(seen["pieces"]) == 6
    for a, b in itertools.combinations(seen["pieces"], 2):
        assert _overlap(a, b) < 0.05, (a, b)
    # the label covers no other painter
    assert all(_overlap(you, piece) < 0.05 for piece in seen["pieces"][1:]), seen
    assert not errors, errors
