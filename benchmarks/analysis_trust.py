"""Do the post-game analysis's labels hold? The default budget measured against ten times it.

Run: ``nice -n 10 python benchmarks/analysis_trust.py [--games 20] [--jobs 2] [--samples N]``.

Games of four levels at a table (``master`` and ``beginner`` at every table, two of
``casual``, ``club`` and ``expert`` in turn, seats rotated) are played and recorded; the seats
of ``--levels`` are analysed as ``sakura replay --analyse`` does (every decision's cards played
out on ``--samples`` determinizations, :mod:`sakura.bots.judge`), and every labelled decision is
judged again on ten times as many *independent* samples. It prints:

1. **Labels that hold**: the share of the labels at the default budget whose decision keeps at
   least the same label at 10× (Wilson's 95% interval over the labels), and how each label
   moved.
2. **Flags per game by level** (a flag: any label), mean with a 95% t interval over games, and
   ``beginner`` minus ``master`` paired by game.
3. **Time**: CPU and wall seconds of one seat's whole analysis (decisions and the round graph),
   the machine being shared with other work (wall > CPU when it waits for a core).

Every figure depends only on ``--seed`` (iteration-limited bots), except the times.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import statistics
import sys
import time
from typing import Any

from sakura.bots.analysis import THRESHOLDS, analyse, decision, default_samples, jobs
from sakura.bots.judge import judge
from sakura.records import GameRecord
from sakura.tournament.play import GameSetup, play_game_and_record

SEVERITY: dict[str | None, int] = {
    None: 0,
    **{name: len(THRESHOLDS) - i for i, (name, _) in enumerate(THRESHOLDS)},
}
OTHERS = ("casual", "club", "expert")
RESCORE_SEED = 1_000_003  # the 10× judgement draws samples independent of the first


def lineup(i: int) -> tuple[str, ...]:
    """Game ``i``'s seats: master, beginner and two of the others, rotated by ``i``."""
    two = [OTHERS[i % 3], OTHERS[(i + 1) % 3]]
    seats = ["master", "beginner", *two]
    shift = i % 4
    return tuple(seats[shift:] + seats[:shift])


def one_game(args: tuple[int, int, int, tuple[str, ...]]) -> dict[str, Any]:
    i, seed, samples, levels = args
    seats = lineup(i)
    setup = GameSetup(
        i,
        i,
        "sakura",
        json.dumps({"players": 4}),
        seats,
        seed + i,
        tuple(seed + 10 * i + p for p in range(4)),
    )
    _, text = play_game_and_record(setup, record=True)
    assert text is not None
    record = GameRecord.loads(text)
    game = record.make_game()
    initial = game.state_from_json(record.initial)
    moves = [(m.player, m.action) for m in record.moves]
    out: dict[str, Any] = {"game": i, "seats": list(seats), "analysed": []}
    for seat, level in enumerate(seats):
        if level not in levels:
            continue
        cpu, wall = time.process_time(), time.perf_counter()
        result = analyse(game, initial, moves, seat, samples=samples, seed=i)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        todo = {j["index"]: j for j in jobs(game, initial, moves, seat, graph=False)}
        moved = []
        for d in result.decisions:
            if d["label"] is None:
                continue
            job = todo[d["index"]]
            state = game.state_from_json(job["state"])
            again = judge(
                game,
                state.view(seat),
                10 * samples,
                seed=RESCORE_SEED + i + job["index"],
                keep=(job["played"],),
                candidates=len(d["actions"]),
            )
            moved.append((d["label"], decision(job, again)["label"], d["loss"], d["margin"]))
        out["analysed"].append(
            {
                "seat": seat,
                "level": level,
                "decisions": len(result.decisions),
                "flags": sum(1 for d in result.decisions if d["label"]),
                "moved": moved,
                "cpu": cpu,
                "wall": wall,
            }
        )
    print(f"  game {i + 1}: {', '.join(seats)}", file=sys.stderr, flush=True)
    return out


def wilson(k: int, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    z = 1.96
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def mean_interval(xs: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% t interval (normal quantile beyond 30 values, t's table below)."""
    from sakura.bots.judge import t_quantile

    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, -math.inf, math.inf
    half = t_quantile(0.975, len(xs) - 1) * statistics.stdev(xs) / math.sqrt(len(xs))
    return m, m - half, m + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument(
        "--samples", type=int, default=0, help="the default budget to test (0: the shipped one)"
    )
    parser.add_argument("--levels", default="master,beginner,casual,club,expert", help="the levels analysed")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    from sakura.engine import make_game

    samples = args.samples or default_samples(make_game("sakura", {"players": 4}))
    levels = tuple(s.strip() for s in args.levels.split(","))
    started = time.perf_counter()
    work = [(i, args.seed * 1000, samples, levels) for i in range(args.games)]
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        games = pool.map(one_game, work, chunksize=1)
    seats = [a for g in games for a in g["analysed"]]
    moved = [m for a in seats for m in a["moved"]]
    held = sum(1 for before, after, *_ in moved if SEVERITY[after] >= SEVERITY[before])
    low, high = wilson(held, len(moved))
    print(
        f"\n## Labels at {samples} samples a decision, judged again at {10 * samples} "
        f"({args.games} games, {len(seats)} seats analysed, {sum(a['decisions'] for a in seats)} decisions)"
    )
    print(
        f"labels that keep at least their severity: {held}/{len(moved)} = "
        f"{100 * held / max(1, len(moved)):.0f}% (95%: {100 * low:.0f}–{100 * high:.0f}%)"
    )
    changes: dict[tuple[Any, Any], int] = {}
    for before, after, *_ in moved:
        changes[(before, after)] = changes.get((before, after), 0) + 1
    for (before, after), n in sorted(
        changes.items(), key=lambda kv: (-SEVERITY[kv[0][0]], -SEVERITY[kv[0][1]])
    ):
        print(f"  {before} -> {after or 'none'}: {n}")
    print("\n## Flags (labelled decisions) per game, by level (95% t interval over games)")
    by_level: dict[str, dict[int, int]] = {}
    for g in games:
        for a in g["analysed"]:
            by_level.setdefault(a["level"], {})[g["game"]] = a["flags"]
    for level in levels:
        per_game = by_level.get(level, {})
        if not per_game:
            continue
        m, lo, hi = mean_interval([float(v) for v in per_game.values()])
        print(f"  {level:<9} {m:.2f} ({lo:.2f}–{hi:.2f}) over {len(per_game)} games")
    if "master" in by_level and "beginner" in by_level:
        both = [g for g in by_level["master"] if g in by_level["beginner"]]
        diffs = [float(by_level["beginner"][g] - by_level["master"][g]) for g in both]
        m, lo, hi = mean_interval(diffs)
        verdict = "fewer for master" if lo > 0 else "NOT separated"
        print(
            f"  beginner − master, paired by game: {m:.2f} ({lo:.2f}–{hi:.2f}), {len(both)} games: {verdict}"
        )
    cpu = [a["cpu"] for a in seats]
    wall = [a["wall"] for a in seats]
    print(
        f"\n## One seat's whole analysis (decisions and round graph), {len(seats)} seats: CPU "
        f"{statistics.fmean(cpu):.1f} s mean, {max(cpu):.1f} s max; "
        f"wall {statistics.fmean(wall):.1f} s mean, "
        f"{max(wall):.1f} s max ({args.jobs} processes on a shared machine)"
    )
    print(f"\n({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
