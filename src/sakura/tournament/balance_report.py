"""The balance report: Markdown tables and PNG plots in one folder.

Every figure carries its 95% interval, clustered by deal (see
:mod:`sakura.tournament.intervals`), and the number of deals behind it. The first section
says in words what the figures show, for a designer who does not read intervals.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

from sakura.tournament.balance import Balance, CardEffect
from sakura.tournament.intervals import Estimate
from sakura.tournament.plots import EDGE, PINK, error_bars, plot_estimates


def in_words(data: Balance) -> list[str]:
    """What the figures say, in sentences (the report's first section)."""
    fair = 1 / data.players
    out = []
    unfair = [(seat, e) for seat, e in enumerate(data.seat_wins) if e.excludes(fair)]
    if unfair:
        for seat, e in unfair:
            more = "more" if e.value > fair else "less"
            out.append(f"Seat {seat + 1} wins {more} than its fair share of {fair:.1%}: {e.text(True)}.")
    else:
        out.append(
            f"No seat wins detectably more or less than its fair share of {fair:.1%} "
            f"at this sample size ({data.deals} deals)."
        )
    if len(data.bot_wins) > 1:
        out.append(
            "By bot: " + "; ".join(f"{spec} wins {e.text(True)}" for spec, e in data.bot_wins.items()) + "."
        )
    out.append(
        f"A game lasts {data.mean_rounds.text()} rounds and has {data.mean_bumps.text()} bumps on average."
    )
    out += card_sentences(data)
    return out


def card_sentences(data: Balance) -> list[str]:
    """The cards' sentences: only the effects that survive Holm's correction are findings,
    each with its effect in either half of the deals; how the effects were estimated and
    what that gained."""
    cards = list(data.cards.values())
    flagged = sorted((c for c in cards if c.flagged), key=lambda c: -abs(c.effect.value))
    nominal = sum(1 for c in cards if c.nominal and not c.flagged)
    out = []
    if flagged:
        listed = "; ".join(f"{c.card} ({c.text}): {_halved(c)}" for c in flagged)
        out.append(
            f"{len(flagged)} of {len(cards)} cards change the win rate of the player they are "
            f"dealt to beyond chance, after Holm's correction for testing {len(cards)} cards: {listed}."
        )
    else:
        out.append(
            f"No card changes the win rate of the player it is dealt to detectably after Holm's "
            f"correction for testing {len(cards)} cards ({data.deals} deals)."
        )
    out.append(
        f"({nominal} more card{'s' * (nominal != 1)} would be flagged one at a time at 95%; about "
        f"{0.05 * len(cards):.0f} would by chance alone, so they are not findings.)"
    )
    if data.adjusted:
        out.append(
            "Card effects are estimated on the whole dealt hand at once, with seat and bot as "
            f"control variates (a regression); on these games that is worth {data.gain:.2f}× the "
            "deals of the plain dealt-minus-not-dealt difference (the median ratio of their "
            "variances)."
        )
    return out


def _halved(c: CardEffect) -> str:
    """``+9.1 points (+4.0 to +14.2); halves +8.0 and +10.3``."""
    e = c.effect
    text = f"{_points(e.value)} points ({_points(e.low)} to {_points(e.high)})"
    if c.finding is not None:
        first, second = c.finding.first_half, c.finding.second_half
        text += f"; halves {_points(first.value)} and {_points(second.value)}"
        text += "" if c.finding.replicated else " (not in both)"
    return text


def write_report(data: Balance, out: Path, *, title: str, notes: list[str]) -> Path:
    """Write ``report.md`` and its plots (``seats.png``, ``rounds.png``, ``bumps.png``,
    ``sakuras.png``, the three ``cards-*.png``) into ``out``; return the Markdown's path."""
    out.mkdir(parents=True, exist_ok=True)
    fair = 1 / data.players
    plot_estimates(
        [str(i + 1) for i in range(len(data.seat_wins))],
        data.seat_wins,
        fair,
        out / "seats.png",
        xlabel="seat",
        ylabel="win rate",
        title=f"win rate by seat, 95% over {data.deals} deals",
    )
    _plot_histogram(data.rounds, out / "rounds.png", "rounds per game")
    _plot_histogram(data.bumps, out / "bumps.png", "bumps per game")
    _plot_sakuras(data, out / "sakuras.png")
    _plot_cards(data, out)
    lines = [f"# {title}", "", "## In words", ""] + [f"- {line}" for line in in_words(data)] + [""]
    lines += [f"- {note}" for note in notes]
    lines += [
        f"- {data.games} games on {data.deals} deals, {data.players} players; bots by seat: "
        f"{', '.join(data.bots)}",
        "- 95% intervals count deals, not games (cluster-robust over deals, Student t).",
        "",
    ]
    lines += [
        "## Win rate by seat",
        "",
        f"Shared wins split; fair share {fair:.1%}.",
        "",
        "| seat | win rate | 95% interval | × fair share | deals |",
        "|---|---:|---:|---:|---:|",
    ]
    for seat, e in enumerate(data.seat_wins):
        lines.append(f"| {seat + 1} | {e.value:.1%} | {_span(e)} | {e.value / fair:.2f} | {e.clusters} |")
    lines += ["", "![win rate by seat](seats.png)", ""]
    if len(data.bot_wins) > 1:
        lines += [
            "## Win rate by bot",
            "",
            "Each bot over its seat-games (the seats rotate).",
            "",
            "| bot | win rate | 95% interval | × fair share | seat-games | deals |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for spec, e in data.bot_wins.items():
            lines.append(
                f"| {spec} | {e.value:.1%} | {_span(e)} | {e.value / fair:.2f} | {e.n:.0f} | {e.clusters} |"
            )
        lines.append("")
    lines += [
        "## Game length and bumps",
        "",
        f"Means with their 95% interval over {data.deals} deals.",
        "",
        "| per game | mean | 95% interval | sd | min | max |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    figures = (("rounds", data.rounds, data.mean_rounds), ("bumps", data.bumps, data.mean_bumps))
    for name, values, e in figures:
        sd = statistics.pstdev(values) if values else 0.0
        lines.append(
            f"| {name} | {e.value:.2f} | {e.low:.2f}–{e.high:.2f} | {sd:.2f} | "
            f"{min(values, default=0)} | {max(values, default=0)} |"
        )
    causes = ", ".join(f"{cause}: {e.text()} a game" for cause, e in data.bumps_by.items())
    lines += [
        "",
        f"Bumps by cause (a painter moving onto the Emperor, or the Emperor stepping back "
        f"onto a painter): {causes or 'none'}.",
        "",
        "![rounds per game](rounds.png) ![bumps per game](bumps.png)",
        "",
    ]
    lines += _sakura_lines(data)
    lines += _card_lines(data, fair)
    path = out / "report.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def _span(e: Estimate, percent: bool = True) -> str:
    return f"{e.low:.1%}–{e.high:.1%}" if percent else f"{e.low:+.2f} to {e.high:+.2f}"


def _sakura_lines(data: Balance) -> list[str]:
    places = len(data.rank_wins[0]) if data.rank_wins else 0
    standings = len(data.first_from[0]) if data.first_from else 0
    lines = [
        "## Sakuras",
        "",
        "How often the painter who took each scoring place at a sakura went on to win the game "
        f"(95% interval over {data.deals} deals):",
        "",
        "| sakura | " + " | ".join(f"{r + 1}. place" for r in range(places)) + " |",
        "|---|" + "---:|" * places,
    ]
    for i, row in enumerate(data.rank_wins):
        cells = [f"{e.value:.1%} ({_span(e)}) of {e.n:.0f}" if e.n else "–" for e in row]
        lines.append(f"| {i + 1} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "How often a painter takes a sakura's first place, by its token standing just before "
        "it (1 = the leader, ties share the better rank; a fair share would be one in "
        f"{standings}). Sakuras where every painter held the same tokens (the first, mostly: "
        "everyone starts with the same) say nothing about standings and are counted apart:",
        "",
        "| sakura | all tied | " + " | ".join(f"from {r + 1}." for r in range(standings)) + " |",
        "|---|---:|" + "---:|" * standings,
    ]
    for i, standing in enumerate(data.first_from):
        tied = data.first_tied[i]
        shown = [f"{won / n:.1%} of {n}" if n else "–" for n, won in standing]
        lines.append(f"| {i + 1} | {tied} sakuras | " + " | ".join(shown) + " |")
    return [*lines, "", "![sakuras](sakuras.png)", ""]


def _card_lines(data: Balance, fair: float) -> list[str]:
    lines = [
        "## Cards",
        "",
        "**Dealt effect**: the win rate of the players a card was dealt to (in the starting "
        "hand) minus that of the players it was not dealt to, in percentage points, with its "
        f"95% interval over {data.deals} deals; the deal is random, so this is what holding the "
        "card does. *Plain*: the difference of the two means. *Adjusted*: the same figure "
        "from one regression on the whole dealt hand, with seat and bot as control variates "
        + (
            f"(used here: {data.gain:.2f}× the deals' worth of the plain one, the median ratio of "
            "their variances)"
            if data.adjusted
            else "(not fitted on these games: the plain one is used)"
        )
        + ". *Holm* and *BH*: its p-value adjusted for testing every card at once (Holm 1979; "
        "Benjamini and Hochberg 1995). ⚑ marks the cards that survive Holm at 5% (what the "
        "summary headlines); · the ones whose own interval leaves out 0 but do not survive it. "
        "*Halves*: the effect in the first and in the second half of the deals.",
        "",
        "**Played** figures are *conditional on the bot's choice* (the bot chose when to play "
        "the card): the win rate of the player who played it (fair share "
        f"{fair:.1%}; the court painter's cards count only for progress), the mean progress "
        "of its owner's painter while it resolved (spaces, bumps included) and how often it "
        "bumped its owner.",
        "",
        "| card | actions | plain | adjusted (95%) | Holm | BH | | halves | plays | "
        "played: win rate (95%) | progress | bumps |",
        "|---:|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|",
    ]
    for c in sorted(data.cards.values(), key=lambda c: c.card):
        e, f = c.effect, c.finding
        mark = "⚑" if c.flagged else ("·" if c.nominal else "")
        corrected = f"{f.p_holm:.3f} | {f.q_bh:.3f}" if f is not None else "– | –"
        split = f"{_points(f.first_half.value)}, {_points(f.second_half.value)}" if f is not None else "–"
        lines.append(
            f"| {c.card} | {c.text} | {_points(c.dealt.value)} | {_points(e.value)} "
            f"({_points(e.low)} to {_points(e.high)}) | {corrected} | {mark} | {split} | {c.plays} | "
            f"{_rate(c.played)} | {c.progress.value:+.2f} | {c.bump_rate.value:.1%} |"
        )
    return [*lines, "", *(f"![{title}]({name})\n" for name, title in CARD_FIGURES.items())]


def _points(x: float) -> str:
    return f"{x * 100:+.1f}" if math.isfinite(x) else "–"


def _rate(e: Estimate) -> str:
    return f"{e.value:.1%} ({_span(e)})" if e.n else "–"


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
    grid = [[e.value if e.n else 0.0 for e in row] for row in data.rank_wins]
    image = ax.imshow(grid, cmap="RdPu", vmin=0, vmax=1, aspect="auto")
    for i, row in enumerate(data.rank_wins):
        for j, e in enumerate(row):
            ax.text(
                j,
                i,
                f"{e.value:.0%}\n±{(e.high - e.low) / 2:.0%}" if e.n else "–",
                ha="center",
                va="center",
                fontsize=8,
            )
    places = len(grid[0]) if grid else 0
    ax.set_xticks(range(places), [f"{r + 1}. place" for r in range(places)])
    ax.set_yticks(range(len(grid)), [f"sakura {i + 1}" for i in range(len(grid))])
    ax.set_title(f"P(win the game | place taken at the sakura), ±95% over {data.deals} deals", fontsize=8)
    fig.colorbar(image, ax=ax)
    fig.tight_layout()
    fig.savefig(path)


# One figure a question, each card's number legible under its bar (a designer looks a card up
# by its number): holding it, playing it, how far it moves its owner.
CARD_FIGURES = {
    "cards-dealt.png": "Does holding a card help? Win rate dealt minus not dealt",
    "cards-played.png": "How does a card do when played? The player's win rate (the bot chose when)",
    "cards-progress.png": "How far does a card move its owner? Spaces a play, bumps included",
}


def _card_axes(title: str, cards: list[CardEffect]) -> tuple[Figure, Any]:
    fig = Figure(figsize=(max(10.0, 0.22 * len(cards) + 2), 4.2), dpi=100)
    ax = fig.subplots()
    ax.set_title(title, fontsize=11)
    xs = [c.card for c in cards]
    ax.set_xticks(xs, [str(x) for x in xs], fontsize=8, rotation=90 if len(cards) > 70 else 0)
    ax.set_xlim(min(xs) - 1, max(xs) + 1)
    ax.set_xlabel("card", fontsize=10)
    ax.grid(axis="y", color="#dddddd", linewidth=0.6)
    ax.set_axisbelow(True)
    return fig, ax


def _card_bars(
    ax: Any, cards: list[CardEffect], values: list[Estimate], scale: float, *, fill: Any, edge: str
) -> None:
    """One bar a card with its 95% interval (``scale``: 100 for points)."""
    ax.bar(
        [c.card for c in cards],
        [e.value * scale if e.n else 0.0 for e in values],
        yerr=error_bars(values, scale),
        capsize=2,
        color=fill,
        edgecolor=edge,
        error_kw={"elinewidth": 0.8},
    )


def _plot_cards(data: Balance, out: Path) -> None:
    cards: list[CardEffect] = sorted(data.cards.values(), key=lambda c: c.card)
    dealt, played, progress = list(CARD_FIGURES)

    fig, ax = _card_axes(f"{CARD_FIGURES[dealt]} (points, 95% over {data.deals} deals)", cards)
    _card_bars(
        ax,
        cards,
        [c.effect for c in cards],
        100,
        fill=[EDGE if c.flagged else PINK for c in cards],
        edge=EDGE,
    )
    ax.axhline(0, color="#444444", linewidth=0.8)
    ax.set_ylabel("win-rate points")
    ax.text(0.01, 0.97, "dark: survives Holm's correction", transform=ax.transAxes, va="top", fontsize=9)
    fig.tight_layout()
    fig.savefig(out / dealt)

    fig, ax = _card_axes(CARD_FIGURES[played], cards)
    _card_bars(ax, cards, [c.played for c in cards], 1, fill="#c9b8d9", edge="#5b4a6e")
    ax.axhline(1 / data.players, color="#444444", linestyle="--", linewidth=1)
    ax.set_ylabel("win rate when played")
    ax.text(
        0.01,
        0.97,
        f"dashed: the fair share, {1 / data.players:.0%}",
        transform=ax.transAxes,
        va="top",
        fontsize=9,
    )
    fig.tight_layout()
    fig.savefig(out / played)

    fig, ax = _card_axes(CARD_FIGURES[progress], cards)
    _card_bars(ax, cards, [c.progress for c in cards], 1, fill="#8fb996", edge="#3c6e47")
    ax.axhline(0, color="#444444", linewidth=0.8)
    ax.set_ylabel("spaces a play")
    fig.tight_layout()
    fig.savefig(out / progress)
