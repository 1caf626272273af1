"""``sakura compare A B``: two decks (or two gardens) played on the same deals and seats, and
one report with both columns, the difference and its interval, and a verdict per figure."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from sakura.bots import BotError, make_bot
from sakura.cli.analyze import balance_setups
from sakura.engine import GameError
from sakura.engine.games.sakura import SakuraGame, parse_deck, parse_layout
from sakura.tournament.balance import SakuraCollector
from sakura.tournament.compare import compare_figures, in_words
from sakura.tournament.compare_report import write_comparison
from sakura.tournament.configs import sakura_config
from sakura.tournament.play import GameSetup
from sakura.tournament.progress import GameProgress
from sakura.tournament.runner import default_jobs, run_games

console = Console()
err = Console(stderr=True, soft_wrap=True)


def file_kind(path: Path) -> str:
    """``deck`` or ``garden``: what the file reads as (``ValueError`` if neither, saying why)."""
    text = path.read_text(encoding="utf-8")
    problems = []
    for kind, parse in (("deck", parse_deck), ("garden", parse_layout)):
        try:
            parse(text)
            return kind
        except (GameError, ValueError) as exc:
            problems.append(f"as a {kind}: {exc}")
    raise ValueError(f"{path.name} is neither a deck nor a garden file ({'; '.join(problems)})")


def compare(
    a: Annotated[Path, typer.Argument(help="edition A: a deck or garden file", exists=True, dir_okay=False)],
    b: Annotated[Path, typer.Argument(help="edition B: the same kind of file", exists=True, dir_okay=False)],
    players: Annotated[int, typer.Option("--players", "-p", help="2 to 6 players")] = 4,
    variant: Annotated[str | None, typer.Option(help="two players: court (default) or tactical")] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=2, help="games a side (deals)")] = 1000,
    bots: Annotated[list[str] | None, typer.Option("--bot", "-b", help=(
        "bot spec for the seats (repeat for a mix, which rotates seats); default greedy"))] = None,
    deck: Annotated[Path | None, typer.Option(help="comparing gardens: the deck both sides use",
                                              exists=True, dir_okay=False)] = None,
    garden: Annotated[Path | None, typer.Option(help="comparing decks: the garden both sides use",
                                                exists=True, dir_okay=False)] = None,
    seed: Annotated[int, typer.Option(help="master seed: same seed, same games")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=0, help="worker processes (0: all cores)")] = 0,
    out: Annotated[Path, typer.Option(help="folder for compare.md, compare.json and the plot")] = Path(
        "compare"),
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress (bar or lines)")] = False,
) -> None:
    """Play A and B on the same deals, seats and bot seeds (common random numbers) and report
    every figure of both, B − A with its 95% interval, and whether it differs."""
    specs = bots or ["greedy"]
    try:
        kind = file_kind(a)
        if file_kind(b) != kind:
            raise ValueError(f"{a.name} is a {kind} file but {b.name} is not: compare like with like")
        if (kind == "deck" and deck is not None) or (kind == "garden" and garden is not None):
            raise ValueError(f"comparing {kind}s, --{kind} would replace both sides")
        configs = [sakura_config(players, variant, side if kind == "deck" else deck,
                                 side if kind == "garden" else garden) for side in (a, b)]
        tables = [SakuraGame.from_config(config) for config in configs]
        for spec in specs:
            for table in tables:
                make_bot(spec, table, 0)
    except (BotError, GameError, ValueError) as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2) from None
    sides = [balance_setups(config, specs, games, seed, players) for config in configs]
    setups = sides[0] + [GameSetup(s.index + games, s.deal, s.game, s.config_json, s.seats, s.seed,
                                   s.bot_seeds) for s in sides[1]]
    started = time.perf_counter()
    with GameProgress("compare", len(setups), quiet=quiet) as progress:
        results = run_games(setups, jobs=jobs or default_jobs(), collector=SakuraCollector,
                            on_result=lambda _: progress.advance())
    elapsed = time.perf_counter() - started
    rows = compare_figures(results[:games], results[games:], tables[0], tables[1])
    notes = [f"A: {a} ({kind}); B: {b} ({kind})",
             f"{players} players ({tables[0].variant}); bots {', '.join(specs)}; seed {seed}; "
             f"{2 * games} games in {elapsed:.0f} s"]
    path = write_comparison(rows, out, title=f"Sakura: {a.name} against {b.name}", notes=notes, deals=games)
    for line in in_words(rows, games):
        console.print(line, highlight=False, markup=False, soft_wrap=True)
    console.print(f"report: {path}")
