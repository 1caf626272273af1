"""``sakura compare A B``: two decks (or two gardens, or two of the card game's data files)
played on the same deals and seats, and one report with both columns, the difference and its
interval, and a verdict per figure."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from sakura.bots import BotError, make_bot
from sakura.cli.analyze import balance_setups
from sakura.cli.extras import require
from sakura.cli.messages import error
from sakura.engine import GameError, make_game
from sakura.engine.games.cards import parse_cards
from sakura.engine.games.sakura import SakuraGame, parse_deck, parse_layout
from sakura.tournament.configs import cards_config, sakura_config
from sakura.tournament.play import GameResult, GameSetup
from sakura.tournament.progress import GameProgress
from sakura.tournament.runner import default_jobs, run_games
from sakura.tournament.schedule import derive_seed

if TYPE_CHECKING:
    from sakura.tournament.compare import Row

Figures = Callable[[Sequence[GameResult], Sequence[GameResult]], "list[Row]"]

console = Console(markup=False)
err = Console(stderr=True, soft_wrap=True, markup=False)


def file_kind(path: Path) -> str:
    """``deck``, ``garden`` or ``cards`` (the card game's data file): what the file reads as
    (``ValueError`` if none, saying why)."""
    text = path.read_text(encoding="utf-8")
    problems = []
    parsers = (("deck", parse_deck), ("garden", parse_layout), ("cards", parse_cards))
    for kind, parse in parsers:
        try:
            parse(text, path.name)
            return kind
        except (GameError, ValueError) as exc:
            problems.append(f"as a {kind}: {exc}")
    raise ValueError(
        f"{path.name} is neither a deck nor a garden file nor the card game's cards ({'; '.join(problems)})"
    )


def compare(
    a: Annotated[
        Path,
        typer.Argument(
            help="edition A: a deck or garden file, or the card game's cards", exists=True, dir_okay=False
        ),
    ],
    b: Annotated[Path, typer.Argument(help="edition B: the same kind of file", exists=True, dir_okay=False)],
    players: Annotated[int | None, typer.Option("--players", "-p", help="2 to 6 players (default 4)")] = None,
    variant: Annotated[str | None, typer.Option(help="two players: court (default) or tactical")] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=2, help="games a side (deals)")] = 1000,
    bots: Annotated[
        list[str] | None,
        typer.Option(
            "--bot",
            "-b",
            help=("bot spec for the seats (repeat for a mix, which rotates seats); default greedy"),
        ),
    ] = None,
    deck: Annotated[
        Path | None,
        typer.Option(help="comparing gardens: the deck both sides use", exists=True, dir_okay=False),
    ] = None,
    garden: Annotated[
        Path | None,
        typer.Option(help="comparing decks: the garden both sides use", exists=True, dir_okay=False),
    ] = None,
    seed: Annotated[int, typer.Option(help="master seed: same seed, same games")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=0, help="worker processes (0: all cores)")] = 0,
    out: Annotated[Path, typer.Option(help="folder for compare.md, compare.json and the plot")] = Path(
        "compare"
    ),
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress (bar or lines)")] = False,
    until_decided: Annotated[
        bool,
        typer.Option(
            "--until-decided",
            help=(
                "play --batch deals at a time until every headline figure is decided, --games "
                "at most (always-valid confidence sequences)"
            ),
        ),
    ] = False,
    batch: Annotated[int, typer.Option(min=2, help="--until-decided: deals a batch")] = 200,
    width: Annotated[
        float,
        typer.Option(
            min=0.0, help="--until-decided: a rate's interval narrower than this (points) is decided"
        ),
    ] = 10.0,
    width_mean: Annotated[
        float,
        typer.Option(
            "--width-mean", min=0.0, help="--until-decided: the same for other figures (their unit)"
        ),
    ] = 0.5,
    independent: Annotated[
        bool,
        typer.Option(
            "--independent",
            help=(
                "play B on its own deals and seeds (two-sample intervals): with one file twice, "
                "an A/A check whose verdicts are false positives"
            ),
        ),
    ] = False,
) -> None:
    """Play A and B on the same deals, seats and bot seeds (common random numbers) and report
    every figure of both, B − A with its 95% interval, and whether it differs. Two card data
    files (like the engine's games/cards/data/cards.txt) compare the card game. With
    --independent, each side plays its own deals: A against itself then measures how often
    the lab cries wolf."""
    require("sakura compare", "lab")
    specs = bots or ["greedy"]
    try:
        kind = file_kind(a)
        if file_kind(b) != kind:
            raise ValueError(f"{a.name} is a {kind} file but {b.name} is not: compare like with like")
        if kind == "cards":
            if variant is not None or deck is not None or garden is not None:
                raise ValueError("the card game's cards: --variant, --deck and --garden are Sakura's")
            game_name, players = "sakura-cards", players or 2
            configs = [cards_config(side, players) for side in (a, b)]
        else:
            if (kind == "deck" and deck is not None) or (kind == "garden" and garden is not None):
                raise ValueError(f"comparing {kind}s, --{kind} would replace both sides")
            game_name, players = "sakura", players or 4
            configs = [
                sakura_config(
                    players, variant, side if kind == "deck" else deck, side if kind == "garden" else garden
                )
                for side in (a, b)
            ]
        tables = [make_game(game_name, config) for config in configs]
        for spec in specs:
            for table in tables:
                make_bot(spec, table, 0)
    except (BotError, GameError, ValueError) as exc:
        error(err, exc)
        raise typer.Exit(2) from None
    # the statistics and the charts (scipy, matplotlib) load here, not with every command
    from sakura.tournament.compare import compare_cards_figures, compare_figures

    sakura_a, sakura_b = tables
    if isinstance(sakura_a, SakuraGame) and isinstance(sakura_b, SakuraGame):
        figures: Figures = partial(compare_figures, game_a=sakura_a, game_b=sakura_b)
    else:
        figures = compare_cards_figures
    setups = _setups(configs, specs, games, seed, players, game_name, independent)
    play = partial(_run, game=game_name, jobs=jobs)
    extra: list[str] = []
    if until_decided:
        rows, deals, elapsed, extra = _until_decided(
            setups, games, batch, figures, play, quiet, width, width_mean
        )
    else:
        with GameProgress("compare", len(setups), quiet=quiet) as progress:
            results, elapsed = play(setups, progress)
        rows, deals = figures(results[:games], results[games:]), games
    design = "independent deals" if independent else "the same deals"
    timing = f"bots {', '.join(specs)}; seed {seed}; {design}; {2 * deals} games in {elapsed:.0f} s"
    if isinstance(sakura_a, SakuraGame):
        notes = [f"A: {a} ({kind}); B: {b} ({kind})", f"{players} players ({sakura_a.variant}); {timing}"]
        title = f"Sakura: {a.name} against {b.name}"
    else:
        notes = [f"A: {a} (the card game's cards); B: {b}", f"2 players; {timing}"]
        title = f"Sakura card game: {a.name} against {b.name}"
    _write(rows, out, title, notes + extra, deals)


def _until_decided(
    setups: list[GameSetup],
    games: int,
    batch: int,
    figures: Figures,
    play: Callable[[list[GameSetup], GameProgress], tuple[list[GameResult], float]],
    quiet: bool,
    width: float,
    width_mean: float,
) -> tuple[list[Row], int, float, list[str]]:
    """Play both sides ``batch`` deals at a time until every headline figure is decided (its
    confidence sequence leaves out 0 or is narrower than the width) or ``games`` deals are
    played; the rows, the deals played, the seconds, and the report's note."""
    from sakura.tournament.sequential import HEADLINE, METHOD, sequential_rows

    a: list[GameResult] = []
    b: list[GameResult] = []
    elapsed, deals, undecided = 0.0, 0, 0
    rows: list[Row] = []
    with GameProgress("compare", 2 * games, quiet=quiet) as progress:
        for low in range(0, games, batch):
            high = min(games, low + batch)
            results, seconds = play(setups[low:high] + setups[games + low : games + high], progress)
            a += results[: high - low]
            b += results[high - low :]
            elapsed, deals = elapsed + seconds, high
            rows, undecided = sequential_rows(figures(a, b), deals, games, width / 100, width_mean)
            if not undecided:
                break
    stopped = (
        f"every headline figure decided after {deals} deals"
        if not undecided
        else f"the cap of {games} deals reached with {undecided} headline figures undecided"
    )
    note = (
        f"Played until decided, {batch} deals at a time: {stopped}. The headline figures "
        f"({', '.join(s for s in HEADLINE if any(r.section == s for r in rows))}) carry the {METHOD}, "
        f"tightest at {games} deals: 95% sure at every look at once, so valid however the run stopped. "
        f"Decided: the interval leaves out 0, or is narrower than {width:g} points (rates) or "
        f"{width_mean:g} (other figures). The other figures' intervals are fixed-sample ones."
    )
    return rows, deals, elapsed, [note]


def _setups(
    configs: list[dict[str, object]],
    specs: list[str],
    games: int,
    seed: int,
    players: int,
    game: str,
    independent: bool,
) -> list[GameSetup]:
    """Both sides' games, side A's then side B's, on the same deals, seats and bot seeds (or,
    ``independent``, B on deals of its own: other deal numbers, seeds from another master
    seed)."""
    seeds = [seed, derive_seed(seed, "independent B") if independent else seed]
    sides = [
        balance_setups(config, specs, games, side_seed, players, game)
        for config, side_seed in zip(configs, seeds, strict=True)
    ]
    shift = games if independent else 0
    return sides[0] + [
        GameSetup(s.index + games, s.deal + shift, s.game, s.config_json, s.seats, s.seed, s.bot_seeds)
        for s in sides[1]
    ]


def _run(
    setups: list[GameSetup], progress: GameProgress, *, game: str, jobs: int
) -> tuple[list[GameResult], float]:
    """Play ``setups`` (in schedule order back) and the seconds they took."""
    from sakura.tournament.balance import SakuraCollector
    from sakura.tournament.cards_balance import CardsCollector

    collector = CardsCollector if game == "sakura-cards" else SakuraCollector
    started = time.perf_counter()
    results = run_games(
        setups, jobs=jobs or default_jobs(), collector=collector, on_result=lambda _: progress.advance()
    )
    return results, time.perf_counter() - started


def _write(rows: list[Row], out: Path, title: str, notes: list[str], games: int) -> None:
    from sakura.tournament.compare import in_words
    from sakura.tournament.compare_report import write_comparison

    path = write_comparison(rows, out, title=title, notes=notes, deals=games)
    for line in in_words(rows, games):
        console.print(line, highlight=False, markup=False, soft_wrap=True)
    console.print(f"report: {path}")
