"""Do card findings hold? The variance gain of the regression on the whole hand, and how two
independent ``sakura analyze`` runs agree before and after Holm's correction.

Run: ``python benchmarks/card_effects.py [--deals 1000] [--jobs 2]``. For each table (four
``greedy`` players; a mix of ``greedy`` and ``random``; two ``greedy`` players), two runs of
``--deals`` deals on independent seeds (1 and 2), each read as ``sakura analyze`` reads it
(:func:`sakura.tournament.balance.balance`). Printed per run: the median ratio of the plain
dealt effect's variance to the adjusted one's (how many times the deals the plain estimate
would need for the adjusted width), the median half-width of both intervals, the cards
flagged one at a time (plain, then adjusted) and after Holm's correction; then the cards both
runs flag, before and after. Only the games are timed apart (the statistics are not).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from sakura.cli.analyze import balance_setups
from sakura.engine.games.sakura import SakuraGame
from sakura.tournament.balance import SakuraCollector, balance
from sakura.tournament.configs import sakura_config
from sakura.tournament.runner import run_games

TABLES = (
    ("4 greedy", 4, ["greedy"]),
    ("greedy + random, 4 players", 4, ["greedy", "random"]),
    ("2 greedy", 2, ["greedy"]),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    opts = parser.parse_args()
    print(f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; {opts.deals} deals a run\n")
    print(
        "| table | seed | gain (deals' worth) | half-width plain → adjusted | "
        "flagged one at a time: plain, adjusted | after Holm (halves) | games |"
    )
    print("|---|---:|---:|---:|---|---|---:|")
    agreement = []
    for name, players, bots in TABLES:
        config = sakura_config(players, None, None, None)
        game = SakuraGame.from_config(config)
        sets = []
        for seed in (1, 2):
            started = time.perf_counter()
            results = run_games(
                balance_setups(config, bots, opts.deals, seed, players),
                jobs=opts.jobs,
                collector=SakuraCollector,
            )
            played = time.perf_counter() - started
            data = balance(results, game)
            cards = list(data.cards.values())
            plain = {c.card for c in cards if c.dealt.excludes(0.0)}
            nominal = {c.card for c in cards if c.nominal}
            holm = {c.card for c in cards if c.flagged}
            widths = [
                statistics.median((c.dealt.high - c.dealt.low) / 2 for c in cards),
                statistics.median((c.effect.high - c.effect.low) / 2 for c in cards),
            ]
            halves = ", ".join(
                f"{c.card}: {c.effect.value * 100:+.1f} ({c.finding.first_half.value * 100:+.1f}, "
                f"{c.finding.second_half.value * 100:+.1f})"
                for c in cards
                if c.flagged and c.finding is not None
            )
            print(
                f"| {name} | {seed} | {data.gain:.2f}× | ±{widths[0] * 100:.1f} → ±{widths[1] * 100:.1f} | "
                f"{sorted(plain)}, {sorted(nominal)} | {halves or 'none'} | {played:.0f} s |"
            )
            sets.append((plain, nominal, holm))
        (p1, n1, h1), (p2, n2, h2) = sets
        agreement.append(
            f"- {name}: plain one at a time {len(p1)} and {len(p2)} cards, {len(p1 & p2)} in common; "
            f"adjusted {len(n1)} and {len(n2)}, {len(n1 & n2)} in common; after Holm {len(h1)} and "
            f"{len(h2)}, {len(h1 & h2)} in common {sorted(h1 & h2)}"
        )
    print("\nTwo independent runs:\n")
    print("\n".join(agreement))


if __name__ == "__main__":
    main()
