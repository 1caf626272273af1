"""``sakura replay FILE --analyse``: the post-game analysis of one seat, as a text table and a
PNG graph of each player's win chance round by round (matplotlib's Agg canvas: no display)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from sakura.bots.analysis import Analysis, analyse, default_samples
from sakura.records import GameRecord

# One colour a seat (the web app's seat colours), the marks of the decisions by their name.
SEAT_COLOURS = ("#c0392b", "#2c7be5", "#27ae60", "#8e44ad", "#e67e22", "#16a085", "#7f8c8d", "#d35400")
MARKS = {"blunder": ("??", "#b00020"), "mistake": ("?", "#e67e22"), "inaccuracy": ("?!", "#b8860b")}


def run(
    record: GameRecord,
    seat: int,
    spec: str,
    png: Path | None,
    err: Console,
    out: Console,
    samples: int = 0,
) -> Analysis:
    """Analyse ``seat`` (from 0 here; every message names it from 1, as ``--seat`` does) of
    ``record`` with a progress bar on ``err``; print the table."""
    game = record.make_game()
    initial = game.state_from_json(record.initial)
    moves = [(m.player, m.action) for m in record.moves]
    samples = samples or default_samples(game)
    started = time.perf_counter()
    with Progress(
        TextColumn("analysing"), BarColumn(), MofNCompleteColumn(), console=err, transient=True
    ) as bar:
        task = bar.add_task("analyse", total=None)
        result = analyse(
            game,
            initial,
            moves,
            seat,
            spec,
            samples=samples,
            players=record.players,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
        )
    seconds = time.perf_counter() - started
    out.print(table(result))
    data = result.to_json()
    plural = {"blunder": "blunders", "mistake": "mistakes", "inaccuracy": "inaccuracies"}
    counts = ", ".join(f"{n} {name if n == 1 else plural[name]}" for name, n in data["counts"].items())
    err.print(
        f"analysed {len(result.decisions)} decisions of seat {seat + 1} ({record.players[seat]}), "
        f"each card played out on {samples} samples, and {len(result.rounds)} round points with "
        f"{result.spec} in {seconds:.1f} s: {counts} (a label names the loss the samples "
        "establish: its lower bound at 95%)"
    )
    if png is not None:
        plot(result, png)
        err.print(f"wrote {png}")
    return result


def table(result: Analysis) -> Table:
    t = Table(
        title=f"seat {result.seat + 1} ({result.players[result.seat]}): each decision's cards played "
        "out on the same samples (win chance %; loss ± its 95% margin)"
    )
    numbers = ("move", "round", "win %", "best %", "loss")
    for name in ("move", "round", "played", "win %", "best", "best %", "loss", ""):
        t.add_column(name, justify="right" if name in numbers else "left")
    for d in result.decisions:
        mark = d["label"] or ""
        style = MARKS[mark][1] if mark else None
        t.add_row(
            str(d["index"] + 1),
            str(d["round"] or ""),
            d["played"],
            f"{d['win_played']:.1f}",
            "" if d["best"] == d["played"] else d["best"],
            f"{d['win_best']:.1f}",
            _loss(d),
            mark,
            style=style,
        )
    return t


def _loss(d: dict[str, Any]) -> str:
    """The loss with its margin (``−12 ± 4``), or nothing where the played card was the best."""
    if d["best"] == d["played"]:
        return ""
    return f"−{d['loss']:.1f} ± {d['margin']:.1f}"


def plot(result: Analysis, path: Path) -> Path:
    """Each player's win chance by round (the seat's in bold), the seat's marked decisions below."""
    from matplotlib.figure import Figure  # the lab extra: only for the PNG

    fig = Figure(figsize=(8.0, 4.2), dpi=120)
    ax = fig.subplots()
    points: list[dict[str, Any]] = list(result.rounds)
    xs = [p["index"] for p in points]
    for seat, name in enumerate(result.players):
        ys = [100 * p["wins"][seat] for p in points]
        ax.plot(
            xs,
            ys,
            marker="o",
            markersize=3,
            color=SEAT_COLOURS[seat % len(SEAT_COLOURS)],
            linewidth=2.6 if seat == result.seat else 1.2,
            label=name,
        )
    for d in result.decisions:
        if d["label"]:
            symbol, colour = MARKS[d["label"]]
            ax.axvline(d["index"], color=colour, alpha=0.35, linewidth=1)
            ax.annotate(symbol, (d["index"], 102), ha="center", fontsize=8, color=colour)
    ax.axhline(100 / len(result.players), color="#999999", linestyle="--", linewidth=0.8)
    ticks = points[:-1][:: max(1, len(points) // 12)] + points[-1:]
    ax.set_xticks(
        [p["index"] for p in ticks], [str(p["round"]) for p in ticks[:-1]] + ["end" if ticks else ""]
    )
    ax.set_xlabel("round (at its start; the last point is the result)")
    ax.set_ylabel("estimated win chance (%)")
    ax.set_ylim(0, 108)
    ax.set_title(
        f"Win chance by round - {result.players[result.seat]}'s decisions marked "
        "(?! inaccuracy, ? mistake, ?? blunder)",
        fontsize=9,
    )
    ax.legend(
        loc="upper center",
        bbox_to_anchor=(0.5, -0.16),
        fontsize=8,
        frameon=False,
        ncol=min(5, len(result.players)),
    )
    fig.tight_layout()
    fig.savefig(path)
    return path
