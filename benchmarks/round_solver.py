"""The round solver (``rm``) against the marks: its share of wins in multiples of the fair share.

Run: ``nice -n 10 python benchmarks/round_solver.py --hero rm:16 --hero rm:16,play=br
--against greedy --deals 120 --out /tmp/rm``; ``--report`` prints the figures from the files
of a run (finished or not) without playing.

Each hero plays a gauntlet against three of ``--against`` (seat rotation, duplicate deals: the
same deals for every hero, so heroes are compared side by side on the same cards). Every game
is written as it ends (one JSON line in ``OUT/<hero>.jsonl``), so a run stopped early still
reports: only deals whose every seat rotation was played count, with 95% intervals clustered
by deal (:mod:`sakura.tournament.intervals`), the hero's ms a decision beside them. A paired
line compares two heroes on the deals both finished.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from sakura.tournament.intervals import RATE, Clustered
from sakura.tournament.play import GameResult
from sakura.tournament.runner import run_games
from sakura.tournament.schedule import GAUNTLET, TournamentPlan


def _file(out: Path, hero: str) -> Path:
    return out / (hero.replace(":", "_").replace(",", "_").replace("=", "-") + ".jsonl")


def play(hero: str, against: str, players: int, deals: int, *, seed: int, jobs: int, out: Path) -> None:
    plan = TournamentPlan("sakura", {"players": players}, (hero, against), deals * players, seed, GAUNTLET)
    path = _file(out, hero)
    path.write_text("")

    def write(r: GameResult) -> None:
        seat = r.seats.index(hero)
        line = {
            "deal": r.deal,
            "seat": seat,
            "share": r.returns[seat],
            "think": r.think_seconds[seat],
            "decisions": r.decisions[seat],
        }
        with path.open("a") as f:
            f.write(json.dumps(line) + "\n")

    run_games(plan.setups(), jobs=jobs, on_result=write)


def _complete(path: Path, players: int) -> dict[int, list[dict[str, float]]]:
    """The games of ``path`` by deal, only deals with every seat rotation played."""
    by_deal: dict[int, list[dict[str, float]]] = {}
    if path.exists():
        for text in path.read_text().splitlines():
            if text.strip():
                line = json.loads(text)
                by_deal.setdefault(int(line["deal"]), []).append(line)
    return {d: games for d, games in by_deal.items() if len({g["seat"] for g in games}) == players}


def report(heroes: Sequence[str], against: str, players: int, out: Path) -> None:
    print(f"\n## Against {players - 1}x {against}, {players} players (95% intervals clustered by deal)")
    done = {hero: _complete(_file(out, hero), players) for hero in heroes}
    for hero in heroes:
        games = [g for deal in done[hero].values() for g in deal]
        if not games:
            print(f"  {hero}: no complete deal yet")
            continue
        c = Clustered()
        for g in games:
            c.add(int(g["deal"]), hero, float(g["share"]))
        e = c.ratio(hero, RATE)
        ms = 1000 * sum(g["think"] for g in games) / max(1.0, sum(g["decisions"] for g in games))
        low, high = players * e.low, players * e.high
        print(
            f"  {hero}: {players * e.value:.2f}x the fair share ({low:.2f}-{high:.2f}), "
            f"{len(games)} games, {e.clusters} deals, {ms:.0f} ms a decision (wall, loaded machine)"
        )
    for a, b in itertools.pairwise(heroes):
        shared = sorted(set(done[a]) & set(done[b]))
        if not shared:
            continue
        c = Clustered()
        for hero in (a, b):
            for d in shared:
                for g in done[hero][d]:
                    c.add(d, hero, float(g["share"]))
        e = c.difference(a, b)
        print(
            f"  {a} minus {b} on the same {len(shared)} deals: {players * e.value:+.2f}x "
            f"({players * e.low:+.2f} to {players * e.high:+.2f})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hero", action="append", required=True, help="a spec (repeat for several)")
    parser.add_argument("--against", default="greedy")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("round_solver_games"))
    parser.add_argument("--report", action="store_true", help="report the files of a run, play nothing")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    if not args.report:
        for hero in args.hero:
            print(f"playing {hero}: {args.deals} deals x {args.players} seats", file=sys.stderr, flush=True)
            play(hero, args.against, args.players, args.deals, seed=args.seed, jobs=args.jobs, out=args.out)
    report(args.hero, args.against, args.players, args.out)


if __name__ == "__main__":
    main()
