"""The garden drawn right (issue 28, deliverable 4): at five and six players each bridge's
water covers exactly its spaces, also where the path turns a corner, on a desktop, a wide
screen and a phone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

BRIDGES = """() => {
  const box = (n) => n.getBoundingClientRect();
  const inside = (p, r) =>
    p.x >= r.left - 0.5 && p.x <= r.right + 0.5 && p.y >= r.top - 0.5 && p.y <= r.bottom + 0.5;
  const centre = (r) => ({ x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2 });
  const waters = [...document.querySelectorAll("svg.garden .stream")].map(box);
  const stones = [...document.querySelectorAll("svg.garden [data-space] .stone")].map((s) => ({
    space: Number(s.parentNode.dataset.space), bridge: s.parentNode.classList.contains("space-B"),
    at: centre(box(s)) }));
  return {
    bridges: stones.filter((s) => s.bridge).length,
    dry: stones.filter((s) => s.bridge && !waters.some((w) => inside(s.at, w))).map((s) => s.space),
    wet: stones.filter((s) => !s.bridge && waters.some((w) => inside(s.at, w))).map((s) => s.space),
  };
}"""


@pytest.mark.parametrize("players", [5, 6])
@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080), (390, 844)], ids=["desktop", "wide", "phone"])
def test_every_bridge_space_lies_in_its_water_and_no_other(
    server: str, browser: Any, output: Path, players: int, size: tuple[int, int]
) -> None:
    """At five and six players a bridge counts as three spaces: its water must cover exactly
    its spaces, also where the path turns a corner (two rows)."""
    width, height = size
    page = browser.new_page(viewport={"width": width, "height": height}, is_mobile=width < 500)
    page.goto(f"{server}/?speed=0")
    page.select_option("#players", str(players))
    for seat in range(1, players):
        page.select_option(f"#seat-{seat}", "beginner")
    page.click("#start")
    page.wait_for_url("**/t/**")
    page.wait_for_selector("#hand button.card:not([disabled])")
    found = page.evaluate(BRIDGES)
    page.screenshot(path=str(output / f"bridges-{players}-{width}.png"), full_page=True)
    assert found["bridges"] >= 3
    assert found["dry"] == [] and found["wet"] == [], found
