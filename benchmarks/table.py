"""The web table as a player meets it, in headless Chromium: time and clicks from opening the
lobby to the first card played; frames per second while a round is staged on the board at six
players, and while the card game's moves are staged (cards travelling to their areas, gifts,
scores changing); the page's JS + CSS size (raw and gzipped). Prints numbers; asserts nothing.

The frame rate is read from the page's own frame timeline (one ``requestAnimationFrame``
timestamp a frame, only while the table is animating), with the longest frame, so a stutter
shows even when the average is good. Headless Chromium here draws without a GPU: a laptop's
browser does better.

    python benchmarks/table.py
    python benchmarks/table.py --rounds 6 --speed 450
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
STATIC = ROOT / "src" / "sakura" / "server" / "static"
CHROMIUM = "/usr/bin/chromium"

FRAMES = """async (ms) => {
  const times = [];
  const t0 = performance.now();
  while (performance.now() - t0 < ms) {
    const t = await new Promise((r) => requestAnimationFrame(r));
    if (document.body.dataset.animating) times.push(t);
  }
  return times;
}"""


def sizes() -> tuple[int, int]:
    files = [p for p in STATIC.rglob("*") if p.suffix in (".js", ".css")]
    raw = sum(p.stat().st_size for p in files)
    packed = sum(len(gzip.compress(p.read_bytes(), 9)) for p in files)
    return raw, packed


def first_card(page: Any, url: str) -> tuple[float, int]:
    """Seconds and clicks from opening the lobby to the first card played (the default table)."""
    start = time.perf_counter()
    page.goto(f"{url}/")
    page.click("#start")
    page.wait_for_selector("#hand button.card:not([disabled])")
    page.locator("#hand button.card:not([disabled])").first.click()
    page.wait_for_selector("#log li:has-text('You chose')")
    return time.perf_counter() - start, 2


def staged_fps(page: Any, url: str, rounds: int, speed: int) -> list[float]:
    """Frame intervals (ms) while rounds of a six-player table are staged."""
    page.goto(f"{url}/")
    page.select_option("#players", "6")
    for seat in range(1, 6):
        page.select_option(f"#seat-{seat}", "beginner")
    page.click("#start")
    page.wait_for_url("**/t/**")
    page.goto(page.url.split("#")[0].split("?")[0] + f"?speed={speed}")
    gaps: list[float] = []
    for _ in range(rounds):
        page.wait_for_selector("#hand button.card:not([disabled]), #choice:not([hidden])")
        choice = page.locator("#choice:not([hidden]) button:not([disabled])")
        if choice.count():
            choice.first.click()
        else:
            page.locator("#hand button.card:not([disabled])").first.click()
        times = page.evaluate(FRAMES, 4000)
        gaps += [b - a for a, b in itertools.pairwise(times) if b - a < 500]
    return gaps


def cards_staged_fps(page: Any, url: str, moves: int, speed: int) -> list[float]:
    """Frame intervals (ms) while the card game's moves (yours and the bot's) are staged."""
    page.goto(f"{url}/?speed={speed}")
    page.wait_for_selector("#game option[value='sakura-cards']", state="attached")
    page.select_option("#game", "sakura-cards")
    page.select_option("#seat-1", "club")
    page.click("#start")
    page.wait_for_url("**/t/**")
    gaps: list[float] = []
    for _ in range(moves):
        page.wait_for_function(
            "() => window.sakuraTable.view() && !window.sakuraTable.animating()"
            " && window.sakuraTable.view().turn === 0 && window.sakuraTable.view().legal_actions.length > 0"
        )
        page.locator("#hand button.card:not([disabled])").first.click()
        area = page.locator("#choice:not([hidden]) button[data-area]")
        if area.count():
            area.first.click()
        times = page.evaluate(FRAMES, 2500)
        gaps += [b - a for a, b in itertools.pairwise(times) if b - a < 500]
    return gaps


def _fps(label: str, gaps: list[float]) -> None:
    if gaps:
        mean = statistics.fmean(gaps)
        print(
            f"{label}: {1000 / mean:.0f} fps mean over {len(gaps)} frames, "
            f"p95 frame {sorted(gaps)[int(len(gaps) * 0.95)]:.1f} ms, longest {max(gaps):.1f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--moves", type=int, default=8, help="your card-game moves staged (each with the bot's)"
    )
    parser.add_argument("--speed", type=int, default=450, help="ms a step (the 'normal' speed)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright
    from tests.live_server import running_server

    raw, packed = sizes()
    print(
        f"JS + CSS: {raw / 1024:.1f} KiB raw, {packed / 1024:.1f} KiB gzipped "
        f"({sum(1 for p in STATIC.rglob('*') if p.suffix in ('.js', '.css'))} files)"
    )
    with (
        tempfile.TemporaryDirectory() as folder,
        running_server(Path(folder) / "bench.db") as url,
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--headless"])
        page = browser.new_page(viewport={"width": 1366, "height": 768})
        first_card(page, url)  # warm the server and the browser's cache once
        runs = [first_card(browser.new_page(viewport={"width": 1366, "height": 768}), url) for _ in range(3)]
        print(
            f"lobby -> first card played: {statistics.median(s for s, _ in runs):.2f} s median of 3, "
            f"{runs[0][1]} clicks"
        )
        _fps(f"staging at 6 players ({args.speed} ms a step)", staged_fps(page, url, args.rounds, args.speed))
        cards = browser.new_page(viewport={"width": 1366, "height": 768})
        _fps(
            f"card game staging ({args.speed} ms a step)",
            cards_staged_fps(cards, url, args.moves, args.speed),
        )
        browser.close()


if __name__ == "__main__":
    main()
