"""The balance report: Markdown tables and PNG plots in one folder."""

from __future__ import annotations

import statistics
from collections import Counter
from pathlib import Path

from matplotlib.figure import Figure

from sakura.tournament.balance import Balance
from sakura.tournament.plots import EDGE, PINK, plot_rates


def write_report(data: Balance, out: Path, *, title: str, notes: list[str]) -> Path:
    """Write ``report.md`` and its plots (``seats.png``, ``rounds.png``, ``bumps.png``,
    ``sakuras.png``, ``cards.png``) into ``out``; return the Markdown's path."""
    out.mkdir(parents=True, exist_ok=True)
    _plot_seats(data, out / "seats.png")
    _plot_histogram(data.rounds, out / "rounds.png", "rounds per game")
    _plot_histogram(data.bumps, out / "bumps.png", "bumps per game")
    _plot_sakuras(data, out / "sakuras.png")
    _plot_cards(data, out / "cards.png")
    fair = 1 / data.players
    lines = [f"# {title}", ""]
    lines += [f"- {note}" for note in notes]
    lines += [f"- {data.games} games, {data.players} players; bots by seat: {', '.join(data.bots)}", ""]
    lines += ["## Win rate by seat", "",
              f"Shared wins split; fair share {fair:.1%}; 95% Wilson intervals.", "",
              "| seat | win rate | 95% interval | × fair share |", "|---|---:|---:|---:|"]
    for seat, (rate, low, high) in enumerate(data.seat_wins):
        lines.append(f"| {seat + 1} | {rate:.1%} | {low:.1%}–{high:.1%} | {rate / fair:.2f} |")
    lines += ["", "![win rate by seat](seats.png)", ""]
    lines += ["## Game length and bumps", "",
              "| per game | mean | sd | min | max |", "|---|---:|---:|---:|---:|"]
    for name, values in (("rounds", data.rounds), ("bumps", data.bumps)):
        sd = statistics.pstdev(values) if values else 0.0
        lines.append(f"| {name} | {data.mean(values):.2f} | {sd:.2f} | {min(values, default=0)} | "
                     f"{max(values, default=0)} |")
    causes = ", ".join(f"{cause}: {count / max(1, data.games):.2f} a game" for cause, count in
                       sorted(data.bumps_by.items()))
    lines += ["", f"Bumps by cause (a painter moving onto the Emperor, or the Emperor stepping back "
              f"onto a painter): {causes or 'none'}.", "",
              "![rounds per game](rounds.png) ![bumps per game](bumps.png)", ""]
    places = len(data.rank_wins[0]) if data.rank_wins else 0
    standings = len(data.first_from[0]) if data.first_from else 0
    lines += ["## Sakuras", "",
              "How often the painter who took each scoring place at a sakura went on to win the game:", "",
              "| sakura | " + " | ".join(f"{r + 1}. place" for r in range(places)) + " |",
              "|---|" + "---:|" * places]
    for i, row in enumerate(data.rank_wins):
        cells = [f"{w / n:.1%} of {n:.0f}" if n else "–" for n, w in row]
        lines.append(f"| {i + 1} | " + " | ".join(cells) + " |")
    lines += ["", "Who wins each sakura (its first place), by the token standing just before it "
              "(1 = the leader, ties share the better rank):", "",
              "| sakura | " + " | ".join(f"from {r + 1}." for r in range(standings)) + " |",
              "|---|" + "---:|" * standings]
    for i, counts in enumerate(data.first_from):
        total = sum(counts)
        cells = [f"{c / total:.1%}" if total else "–" for c in counts]
        lines.append(f"| {i + 1} | " + " | ".join(cells) + " |")
    lines += ["", "![sakuras](sakuras.png)", ""]
    lines += ["## Cards", "",
              "For each card: how often it was played, the win rate of the player who played it "
              f"(fair share {fair:.1%}; the court painter's cards count only for progress), the mean "
              "progress of its owner's painter while it resolved (spaces, bumps included) and how "
              "often it bumped its owner.", "",
              "| card | actions | plays | player's win rate | × fair | progress | bumps |",
              "|---:|---|---:|---:|---:|---:|---:|"]
    for c in sorted(data.cards.values(), key=lambda c: c.card):
        lines.append(f"| {c.card} | {c.text} | {c.plays} | {c.win_rate:.1%} | {c.win_rate / fair:.2f} | "
                     f"{c.mean_progress:+.2f} | {c.bump_rate:.1%} |")
    lines += ["", "![cards](cards.png)", ""]
    path = out / "report.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def _plot_seats(data: Balance, path: Path) -> None:
    plot_rates([str(i + 1) for i in range(len(data.seat_wins))], data.seat_wins, 1 / data.players, path,
               xlabel="seat")


def _plot_histogram(values: list[int], path: Path, label: str) -> None:
    fig = Figure(figsize=(5, 3.2), dpi=110)
    ax = fig.subplots()
    counts = Counter(values)
    xs = sorted(counts)
    ax.bar(xs, [counts[x] for x in xs], color=PINK, edgecolor=EDGE)
    ax.set_xlabel(label)
    ax.set_ylabel("games")
    fig.tight_layout()
    fig.savefig(path)


def _plot_sakuras(data: Balance, path: Path) -> None:
    fig = Figure(figsize=(5.5, 3.2), dpi=110)
    ax = fig.subplots()
    grid = [[w / n if n else 0.0 for n, w in row] for row in data.rank_wins]
    image = ax.imshow(grid, cmap="RdPu", vmin=0, vmax=1, aspect="auto")
    for i, row in enumerate(grid):
        for j, value in enumerate(row):
            ax.text(j, i, f"{value:.0%}", ha="center", va="center", fontsize=9)
    places = len(grid[0]) if grid else 0
    ax.set_xticks(range(places), [f"{r + 1}. place" for r in range(places)])
    ax.set_yticks(range(len(grid)), [f"sakura {i + 1}" for i in range(len(grid))])
    ax.set_title("P(win the game | place taken at the sakura)", fontsize=9)
    fig.colorbar(image, ax=ax)
    fig.tight_layout()
    fig.savefig(path)


def _plot_cards(data: Balance, path: Path) -> None:
    cards = sorted(data.cards.values(), key=lambda c: c.card)
    fig = Figure(figsize=(12, 5.5), dpi=100)
    top, bottom = fig.subplots(2, 1, sharex=True)
    xs = [c.card for c in cards]
    top.bar(xs, [c.win_rate for c in cards], color=PINK, edgecolor=EDGE)
    top.axhline(1 / data.players, color="#444444", linestyle="--", linewidth=1)
    top.set_ylabel("player's win rate")
    bottom.bar(xs, [c.mean_progress for c in cards], color="#8fb996", edgecolor="#3c6e47")
    bottom.axhline(0, color="#444444", linewidth=0.8)
    bottom.set_ylabel("painter progress")
    bottom.set_xlabel("card")
    bottom.set_xticks(xs, [str(x) for x in xs], fontsize=6)
    fig.tight_layout()
    fig.savefig(path)
