"""How often does the designer's lab cry wolf, and how many deals does it need to see a change?

Run: ``python benchmarks/lab_calibration.py [--runs 200] [--deals 100] [--players 4] [--bot random]
[--jobs 2] [--power-deals 1000] [--power-bot greedy]``.

**Calibration.** ``--runs`` A/A comparisons of the published deck against itself, each side on
``--deals`` deals, in two designs:

- *independent*: each side its own deals and seeds (``sakura compare A A --independent``),
  judged with two-sample intervals;
- *paired*: both sides on the same deals, the bots on other seeds (the deal is shared, the
  play is not), judged with the paired contrast clustered by deal. (With the same bot seeds too,
  as ``sakura compare A A`` plays, every difference is exactly 0: that checks determinism.)

Nothing differs between the sides, so every *differs* verdict is a false positive: at the
stated 95% each figure should say *differs* in about 5% of the runs. Printed: the rate of each
section's figures (pooled), of every figure, the share of runs in which any card survives
Holm's correction (at most 5% is its promise), and the card flags per run before and after it.

**Power.** The smallest change each design detects four times in five (80% power at 95%) is
``(t + z_0.8) * se``, and ``se`` shrinks as ``1/sqrt(deals)``; from the runs' standard errors,
the deals a side needed to see a 0.5-round change and a 2-point change of a seat's win rate,
and, as a check of the formula, the share of the calibration runs that detect such a change
added to side B (a shift leaves a two-sample se unchanged). The paired design's se depends on
how much the change alters the games: ``--power-deals`` deals of a small real change (card 17
``E+2 JUMP`` to ``E+1 JUMP``, the docs' example) with ``--power-bot`` give it, beside an
independent A/A of the same size.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import time
from collections import defaultdict
from collections.abc import Sequence

from sakura.cli.analyze import balance_setups
from sakura.engine.games.sakura import SakuraGame, default_deck
from sakura.tournament.balance import SakuraCollector
from sakura.tournament.compare import DIFFERS, Row, compare_figures
from sakura.tournament.configs import sakura_config
from sakura.tournament.multiple import benjamini_hochberg, holm
from sakura.tournament.play import GameResult, GameSetup
from sakura.tournament.runner import run_games
from sakura.tournament.schedule import derive_seed

Z80 = 0.8416212335729143


def side_setups(  # noqa: PLR0917 (a benchmark script's helper)
    config: dict[str, object], bot: str, deals: int, players: int, seed: int, first: int
) -> list[GameSetup]:
    """``deals`` games numbered from ``first`` (their deal numbers too), seeds from ``seed``."""
    return [
        GameSetup(first + s.index, first + s.deal, s.game, s.config_json, s.seats, s.seed, s.bot_seeds)
        for s in balance_setups(config, [bot], deals, seed, players)
    ]


def reseat_bots(setups: Sequence[GameSetup], seed: int, first: int) -> list[GameSetup]:
    """The same deals (numbers and seeds), the bots on other seeds; indexes from ``first``."""
    return [
        GameSetup(
            first + i,
            s.deal,
            s.game,
            s.config_json,
            s.seats,
            s.seed,
            tuple(derive_seed(seed, "bot", s.deal, k) for k in range(len(s.seats))),
        )
        for i, s in enumerate(setups)
    ]


def play(setups: list[GameSetup], jobs: int) -> list[GameResult]:
    return run_games(setups, jobs=jobs, collector=SakuraCollector)


def rate(hits: int, n: int) -> str:
    """``5.1% (4.5–5.8)``: Wilson's 95% interval (figures of one run are not independent,
    so a pooled interval is a little too narrow)."""
    if n == 0:
        return "–"
    p, z = hits / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return f"{p:.1%} ({max(0, centre - half):.1%}–{min(1, centre + half):.1%})"


def calibrate(
    opts: argparse.Namespace, game: SakuraGame, config: dict[str, object]
) -> dict[str, list[list[Row]]]:
    runs: dict[str, list[list[Row]]] = {"independent": [], "paired": []}
    n, batch = opts.deals, max(1, 4000 // (4 * opts.deals))
    for start in range(0, opts.runs, batch):
        todo = range(start, min(opts.runs, start + batch))
        setups: list[GameSetup] = []
        for run in todo:
            base = 4 * n * run
            a = side_setups(config, opts.bot, n, opts.players, derive_seed(opts.seed, "aa", run, "A"), base)
            b = side_setups(
                config, opts.bot, n, opts.players, derive_seed(opts.seed, "aa", run, "B"), base + n
            )
            again = reseat_bots(a, derive_seed(opts.seed, "aa", run, "bots"), base + 2 * n)
            setups += a + b + again
        results = play(setups, opts.jobs)
        for k, _run in enumerate(todo):
            mine = results[3 * n * k : 3 * n * (k + 1)]
            a, b, again = mine[:n], mine[n : 2 * n], mine[2 * n :]
            runs["independent"].append(compare_figures(a, b, game, game))
            runs["paired"].append(compare_figures(a, again, game, game))
    return runs


def report_calibration(runs: dict[str, list[list[Row]]], opts: argparse.Namespace) -> None:
    print(
        f"\n## False positives: {opts.runs} A/A runs, {opts.deals} deals a side, {opts.players} players, "
        f"bot {opts.bot} (stated: 5%)\n"
    )
    print("| figures | independent (two-sample) | paired (same deals, other bot seeds) |")
    print("|---|---:|---:|")
    sections: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    figures: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    anyflag: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for design, rows_list in runs.items():
        for rows in rows_list:
            cards = [r for r in rows if r.section == "cards"]
            p = [r.difference.p_value for r in cards]
            anyflag[design][0] += any(q < 0.05 for q in holm(p))
            anyflag[design][1] += any(q < 0.05 for q in benjamini_hochberg(p))
            anyflag[design][2] += sum(r.verdict == DIFFERS for r in cards)
            for r in rows:
                for key in (r.section, "all"):
                    cell = sections[key][design]
                    cell[0] += r.verdict == DIFFERS
                    cell[1] += 1
                figure = figures[r.name if r.section != "cards" else "cards (each)"][design]
                figure[0] += r.verdict == DIFFERS
                figure[1] += 1
    for key, cells in sections.items():
        print(f"| {key} | {rate(*cells['independent'])} | {rate(*cells['paired'])} |")
    for design, rows_list in runs.items():
        runs_n = len(rows_list)
        print(
            f"\n{design}: runs with a card surviving Holm: {rate(anyflag[design][0], runs_n)}; "
            f"Benjamini–Hochberg: {rate(anyflag[design][1], runs_n)}; "
            f"card flags a run before correction: {anyflag[design][2] / runs_n:.2f} of 60"
        )
    print("\n| figure | independent | paired |\n|---|---:|---:|")
    for name, cells in figures.items():
        print(f"| {name} | {rate(*cells['independent'])} | {rate(*cells['paired'])} |")


def needed(rows_list: Sequence[Sequence[Row]], deals: int, pick: str, delta: float) -> tuple[float, int]:
    """The mean minimum detectable effect of the figure(s) ``pick`` over runs, and the deals a
    side it would take for ``delta`` (se ∝ 1/√deals)."""
    mdes = [
        statistics.fmean(r.difference.detectable for r in rows if r.name.startswith(pick))
        for rows in rows_list
    ]
    mde = statistics.fmean(mdes)
    return mde, math.ceil(deals * (mde / delta) ** 2)


def shifted_power(rows_list: Sequence[Sequence[Row]], pick: str, delta: float) -> float:
    """The share of A/A runs whose interval leaves 0 out once ``delta`` is added to side B."""
    hits = total = 0
    for rows in rows_list:
        for r in rows:
            if r.name.startswith(pick):
                d = r.difference
                half = (d.high - d.low) / 2
                hits += abs(d.value + delta) > half
                total += 1
    return hits / total


def power(
    opts: argparse.Namespace, runs: dict[str, list[list[Row]]], game: SakuraGame, config: dict[str, object]
) -> None:
    print("\n## Power: deals a side for 80% power at 95%\n")
    print(
        "| design, bot, measured on | 0.5 rounds a game: detectable at n, deals needed | "
        "2 points of a seat's win rate: detectable at n, deals needed |"
    )
    print("|---|---:|---:|")
    for design, rows_list in runs.items():
        r_mde, r_n = needed(rows_list, opts.deals, "rounds a game", 0.5)
        s_mde, s_n = needed(rows_list, opts.deals, "seat ", 0.02)
        print(
            f"| A/A {design}, {opts.bot}, {opts.runs} × {opts.deals} deals | ±{r_mde:.2f}, **{r_n}** | "
            f"±{s_mde * 100:.1f}, **{s_n}** |"
        )
    if opts.power_deals:
        n = opts.power_deals
        changed = default_deck().text().replace("17 E+2 JUMP", "17 E+1 JUMP")
        import tempfile
        from pathlib import Path

        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "deck.txt"
            path.write_text(changed)
            config_b = sakura_config(opts.players, None, path, None)
        game_b = SakuraGame.from_config(config_b)
        a = side_setups(config, opts.power_bot, n, opts.players, derive_seed(opts.seed, "power"), 0)
        b_paired = side_setups(config_b, opts.power_bot, n, opts.players, derive_seed(opts.seed, "power"), 0)
        b_paired = [
            GameSetup(s.index + n, s.deal, s.game, s.config_json, s.seats, s.seed, s.bot_seeds)
            for s in b_paired
        ]
        b_alone = side_setups(
            config_b, opts.power_bot, n, opts.players, derive_seed(opts.seed, "power B"), 2 * n
        )
        results = play(a + b_paired + b_alone, opts.jobs)
        ra, rp, ri = results[:n], results[n : 2 * n], results[2 * n :]
        for design, rows in (
            ("paired", compare_figures(ra, rp, game, game_b)),
            ("independent", compare_figures(ra, ri, game, game_b)),
        ):
            r_mde, r_n = needed([rows], n, "rounds a game", 0.5)
            s_mde, s_n = needed([rows], n, "seat ", 0.02)
            print(
                f"| card 17 E+2 → E+1, {design}, {opts.power_bot}, {n} deals | ±{r_mde:.2f}, **{r_n}** | "
                f"±{s_mde * 100:.1f}, **{s_n}** |"
            )
    print("\nCheck of the formula on the A/A runs (a change added to side B; predicted from the mean se):\n")
    print("| design | change | detected in | predicted |\n|---|---|---:|---:|")
    for design, rows_list in runs.items():
        for pick, delta, label in (("rounds a game", 0.5, "0.5 rounds"), ("seat ", 0.02, "2 points, a seat")):
            ses = [r.difference.se for rows in rows_list for r in rows if r.name.startswith(pick)]
            se = statistics.fmean(ses)
            t = 1.96
            predicted = statistics.NormalDist().cdf(delta / se - t)
            print(f"| {design} | {label} | {shifted_power(rows_list, pick, delta):.0%} | {predicted:.0%} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bot", default="random")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--power-deals", type=int, default=1000)
    parser.add_argument("--power-bot", default="greedy")
    opts = parser.parse_args()
    print(f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    config = sakura_config(opts.players, None, None, None)
    game = SakuraGame.from_config(config)
    started = time.perf_counter()
    runs = calibrate(opts, game, config)
    report_calibration(runs, opts)
    power(opts, runs, game, config)
    print(f"\n{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
