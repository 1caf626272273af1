"""Learning curves of self-play runs (``examples/selfplay.py``): several seeds, mean and interval.

Each ``--run`` is a run's folder (its ``curve.csv``); the runs of one table are drawn together.
For each opponent (``greedy``, the expert) and each update where every seed was evaluated, the
curve is the mean over seeds of the win share as a multiple of the fair share, and the band its
95% interval over seeds (Student's t with seeds - 1 degrees of freedom; with one seed, the
evaluation's own interval over games). The figures are written beside the PNG as CSV.

    python examples/plot_selfplay.py --run runs/sp-4p-s1 runs/sp-4p-s2 runs/sp-4p-s3 \\
        --title "Sakura, 4 players" --out docs/img/selfplay-4p.png
"""

from __future__ import annotations

import argparse
import csv
import math
from collections import defaultdict
from pathlib import Path

# Student's t, 97.5% quantile, by degrees of freedom (1 to 9): three seeds give 2 -> 4.303.
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262}


def read(folder: Path) -> list[dict[str, str]]:
    with (folder / "curve.csv").open(encoding="utf-8") as f:
        return list(csv.DictReader(f))


def aggregate(runs: list[list[dict[str, str]]], until: int | None = None) -> list[dict[str, float | str]]:
    """One row per opponent and update evaluated in every run (up to ``until``): mean,
    interval, seeds."""
    by: dict[tuple[str, int], list[dict[str, str]]] = defaultdict(list)
    for rows in runs:
        for row in rows:
            if until is None or int(row["update"]) <= until:
                by[row["opponent"], int(row["update"])].append(row)
    out: list[dict[str, float | str]] = []
    for (opponent, update), rows in sorted(by.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        if len(rows) != len(runs):
            continue
        x = [float(r["ratio"]) for r in rows]
        mean = sum(x) / len(x)
        if len(x) > 1:
            sd = math.sqrt(sum((v - mean) ** 2 for v in x) / (len(x) - 1))
            half = T975.get(len(x) - 1, 1.96) * sd / math.sqrt(len(x))
            low, high = max(0.0, mean - half), mean + half
        else:
            low, high = float(rows[0]["ratio_low"]), float(rows[0]["ratio_high"])
        out.append(
            {
                "opponent": opponent,
                "update": update,
                "decisions": round(sum(float(r["decisions"]) for r in rows) / len(rows)),
                "minutes": round(sum(float(r["minutes"]) for r in rows) / len(rows), 2),
                "ratio": round(mean, 4),
                "low": round(low, 4),
                "high": round(high, 4),
                "seeds": len(rows),
                "games_each": int(rows[0]["games"]),
            }
        )
    return out


def plot(rows: list[dict[str, float | str]], title: str, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    for opponent in sorted({str(r["opponent"]) for r in rows}):
        mine = [r for r in rows if r["opponent"] == opponent]
        x = [float(r["decisions"]) / 1e6 for r in mine]
        label = f"vs {opponent} ({mine[0]['seeds']} seeds, {mine[0]['games_each']} games a point)"
        (line,) = ax.plot(x, [r["ratio"] for r in mine], marker="o", markersize=3, label=label)
        ax.fill_between(
            x, [r["low"] for r in mine], [r["high"] for r in mine], alpha=0.2, color=line.get_color()
        )
    ax.axhline(1.0, color="grey", linestyle=":", label="fair share (as strong as the opponents)")
    ax.axhline(1.3, color="green", linestyle="--", linewidth=0.8, label="the 1.3× mark")
    ax.set(xlabel="learner decisions trained on (millions)", ylabel="win share ÷ fair share", title=title)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", type=Path, nargs="+", required=True, help="run folders (one a seed)")
    parser.add_argument("--title", default="self-play")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--until", type=int, help="draw the updates up to this one only")
    args = parser.parse_args()
    rows = aggregate([read(folder) for folder in args.run], args.until)
    plot(rows, args.title, args.out)
    with args.out.with_suffix(".csv").open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    print(f"{args.out} and {args.out.with_suffix('.csv')}: {len(rows)} points")


if __name__ == "__main__":
    main()
