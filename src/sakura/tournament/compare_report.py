"""A comparison as files: ``compare.md`` (both columns, the difference and a verdict per
figure, what changed in words first), ``compare.json`` and a plot of every difference."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path

from matplotlib.figure import Figure

from sakura.tournament.compare import DIFFERS, PAIRED, Row, card_survivors, in_words, value
from sakura.tournament.plots import EDGE, PINK, error_bars

SECTIONS = {
    "seats": "Win rate by seat (first-player advantage)",
    "bots": "Win rate by bot",
    "length": "Game length and bumps",
    "sakuras": "Sakuras: P(win the game | place taken)",
    "cards": "Cards: dealt effect (win rate dealt minus not dealt, in points)",
    "points": "Points",
    "wins": "Who wins",
    "play": "Discards",
    "gifts": "Gifts the receiver placed the same round",
    "combinations": "What the areas scored with (share of areas)",
}


def write_comparison(rows: Sequence[Row], out: Path, *, title: str, notes: list[str], deals: int) -> Path:
    """Write ``compare.md``, ``compare.json``, ``differences.png`` (one panel a section) and,
    with card figures, ``card_differences.png``."""
    out.mkdir(parents=True, exist_ok=True)
    cards = [r for r in rows if r.section == "cards"]
    _plot([r for r in rows if r.section != "cards"], out / "differences.png", deals)
    if cards:
        _plot(cards, out / "card_differences.png", deals)
    lines = [f"# {title}", "", "## In words", ""]
    lines += [line if line.startswith("  -") else f"- {line}" for line in in_words(rows, deals)]
    paired = not rows or rows[0].design == PAIRED
    design = (
        f"- Both sides played the same {deals} deals with the same bots in the same seats "
        "(common random numbers); each difference is B minus A, paired within its deal, with "
        "its 95% interval over deals."
        if paired
        else f"- Each side played its own {deals} deals with its own seeds (independent); each "
        "difference is B minus A with a two-sample 95% interval (each side clustered over its "
        "deals, Welch's degrees of freedom)."
    )
    lines += [
        "",
        *[f"- {note}" for note in notes],
        design,
        "- *Detectable*: the smallest true difference this many deals would show four times in "
        "five (80% power at 95%); a smaller change can hide behind *no detectable difference*. "
        "Card verdicts are one card at a time; the summary above keeps only those that survive "
        "Holm's correction over all card figures (marked *after Holm*).",
        "",
        "![differences](differences.png)",
        "",
    ]
    if cards:
        lines += ["![card differences](card_differences.png)", ""]
    survivors = card_survivors(rows)
    for section in dict.fromkeys(r.section for r in rows):
        lines += [
            f"## {SECTIONS.get(section, section)}",
            "",
            "| figure | A | B | B − A (95% interval) | detectable | verdict |",
            "|---|---:|---:|---:|---:|---|",
        ]
        for r in rows:
            if r.section == section:
                verdict = f"**{r.verdict}**" if r.verdict == DIFFERS else r.verdict
                if r.section == "cards" and r.verdict == DIFFERS:
                    verdict += " *after Holm*" if r.name in survivors else " (not after Holm)"
                lines.append(
                    f"| {r.name} | {value(r.a, r, side=True)} | {value(r.b, r, side=True)} | "
                    f"{value(r.difference, r)} | {_detectable(r)} | {verdict} |"
                )
        lines.append("")
    path = out / "compare.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    data = {
        "format": "sakura-compare/1",
        "title": title,
        "notes": notes,
        "deals": deals,
        "design": rows[0].design if rows else PAIRED,
        "figures": [r.to_json() for r in rows],
    }
    (out / "compare.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return path


def _detectable(r: Row) -> str:
    d = r.difference.detectable
    if not math.isfinite(d):
        return "–"
    return f"±{d * 100:.1f} points" if r.percent else f"±{d:.2f}"


def _plot(rows: Sequence[Row], path: Path, deals: int) -> None:
    sections = list(dict.fromkeys(r.section for r in rows))
    heights = [max(1.2, 0.28 * sum(1 for r in rows if r.section == s) + 0.6) for s in sections]
    fig = Figure(figsize=(8, sum(heights) + 0.6), dpi=100, layout="constrained")
    axes = fig.subplots(len(sections), 1, gridspec_kw={"height_ratios": heights}, squeeze=False)[:, 0]
    for ax, section in zip(axes, sections, strict=True):
        mine = [r for r in rows if r.section == section]
        scale = 100.0 if mine[0].percent else 1.0
        ys = list(range(len(mine)))[::-1]
        diffs = [r.difference for r in mine]
        colours = [EDGE if r.verdict == DIFFERS else PINK for r in mine]
        ax.errorbar(
            [d.value * scale for d in diffs],
            ys,
            xerr=error_bars(diffs, scale),
            fmt="none",
            ecolor="#666666",
            capsize=3,
            linewidth=1,
        )
        ax.scatter([d.value * scale for d in diffs], ys, color=colours, zorder=3, s=18)
        ax.axvline(0, color="#444444", linewidth=0.8)
        ax.set_yticks(ys, [r.name for r in mine], fontsize=7)
        unit = "points" if mine[0].percent else "per game"
        ax.set_title(f"{SECTIONS.get(section, section)}: B − A ({unit})", fontsize=8, loc="left")
        ax.tick_params(axis="x", labelsize=7)
    design = "paired" if not rows or rows[0].design == PAIRED else "independent"
    fig.suptitle(f"differences with 95% intervals over {deals} {design} deals (dark: differs)", fontsize=9)
    fig.savefig(path)
