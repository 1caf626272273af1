"""Pictures of results (PNG, matplotlib's object API on the Agg canvas: no display needed)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from matplotlib.figure import Figure

from sakura.tournament.intervals import Estimate
from sakura.tournament.ratings import Standing

# The reports' bar colours: a cherry-blossom pink with a darker edge.
PINK, EDGE = "#d9829b", "#7a3347"


def plot_standings(table: Sequence[Standing], path: Path, title: str) -> Path:
    """Win rate of each bot with its 95% interval (clustered by deal), and the fair share as a line."""
    fig = Figure(figsize=(max(4.0, 1.2 * len(table) + 2), 3.6), dpi=120)
    ax = fig.subplots()
    names = [s.spec for s in table]
    rates = [s.win_rate for s in table]
    errors = [[s.win_rate - s.ci_low for s in table], [s.ci_high - s.win_rate for s in table]]
    ax.bar(names, rates, yerr=errors, capsize=6, color=PINK, edgecolor=EDGE)
    if table:
        ax.axhline(
            table[0].fair_share,
            color="#444444",
            linestyle="--",
            linewidth=1,
            label=f"fair share (1/{round(1 / table[0].fair_share)})",
        )
        ax.legend(loc="upper right", fontsize=8)
    for i, s in enumerate(table):
        ax.annotate(
            f"{s.win_rate:.0%}\n{s.seat_games} seat-games\n{s.deals} deals",
            (i, s.ci_high),
            ha="center",
            va="bottom",
            fontsize=8,
            xytext=(0, 2),
            textcoords="offset points",
        )
    ax.set_ylabel("win rate (95% interval over deals)")
    ax.set_ylim(0, min(1.0, max(s.ci_high for s in table) + 0.25) if table else 1.0)
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    return path


def plot_rates(
    labels: Sequence[str],
    rows: Sequence[tuple[float, float, float]],
    fair: float | None,
    path: Path,
    *,
    xlabel: str | None = None,
    ylabel: str = "win rate",
    title: str | None = None,
    ylim: float | None = None,
) -> Path:
    """Win rates ``(rate, low, high)`` as bars with their intervals, and the fair share as a line."""
    fig = Figure(figsize=(5, 3.2), dpi=110)
    ax = fig.subplots()
    errors = [[r - lo for r, lo, _ in rows], [hi - r for r, _, hi in rows]]
    rates = [r for r, _, _ in rows]
    ax.bar(list(labels), rates, yerr=errors, capsize=5, color=PINK, edgecolor=EDGE)
    if fair is not None:
        ax.axhline(fair, color="#444444", linestyle="--", linewidth=1, label="fair share")
        ax.legend(fontsize=8)
    if xlabel:
        ax.set_xlabel(xlabel)
    if ylim is not None:
        ax.set_ylim(0, ylim)
    if title:
        ax.set_title(title, fontsize=9)
    ax.set_ylabel(ylabel)
    fig.tight_layout()
    fig.savefig(path)
    return path


def error_bars(rows: Sequence[Estimate], scale: float = 1.0) -> list[list[float]]:
    """Matplotlib's ``yerr`` (below, above) of estimates; nothing where an estimate has no data
    or no finite interval."""

    def finite(x: float) -> float:
        return x * scale if math.isfinite(x) else 0.0

    return [
        [finite(e.value - e.low) if e.n else 0.0 for e in rows],
        [finite(e.high - e.value) if e.n else 0.0 for e in rows],
    ]


def plot_estimates(
    labels: Sequence[str],
    rows: Sequence[Estimate],
    fair: float | None,
    path: Path,
    *,
    xlabel: str | None = None,
    ylabel: str = "win rate",
    title: str | None = None,
    ylim: float | None = None,
) -> Path:
    """Rates (or any estimates) as bars with their 95% intervals; ``fair`` as a dashed line."""
    return plot_rates(
        labels,
        [(e.value, e.low, e.high) for e in rows],
        fair,
        path,
        xlabel=xlabel,
        ylabel=ylabel,
        title=title,
        ylim=ylim,
    )
