"""``sakura tournament``: bots against bots over many games, rated with 95% intervals."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from sakura.bots import BotError, make_bot, parse_spec
from sakura.cli.extras import require
from sakura.cli.messages import error, note
from sakura.engine import GameError, make_game
from sakura.tournament.configs import cards_config, sakura_config
from sakura.tournament.on_ray import RayMissingError, target
from sakura.tournament.play import GameResult
from sakura.tournament.progress import GameProgress
from sakura.tournament.runner import default_jobs, run_games
from sakura.tournament.schedule import GAUNTLET, MODES, TournamentPlan

err = Console(stderr=True, soft_wrap=True, markup=False)


def _console() -> Console:
    """Standard output; wide enough for the whole table when it goes to a file or a pipe."""
    console = Console(markup=False)
    return console if console.is_terminal else Console(width=140, markup=False)


def _fail(message: str) -> typer.Exit:
    error(err, message)
    return typer.Exit(2)


def _print_head_to_head(console: Console, data: dict[str, Any]) -> None:
    """The head-to-head matrix: the share of meetings in which the row finished ahead of the
    column (95% interval by deal); nothing to show for a single bot."""
    rows = data["head_to_head"]
    specs = list(dict.fromkeys(r["row"] for r in rows))
    if len(specs) < 2:
        return
    cells = {(r["row"], r["column"]): r for r in rows}
    matrix = Table(title="head to head: row finished ahead of column (95% interval by deal)")
    matrix.add_column("row \\ column")
    for spec in specs:
        matrix.add_column(spec, justify="right")
    for a in specs:
        line = []
        for b in specs:
            r = cells.get((a, b))
            line.append(
                "—" if r is None else f"{r['ahead']:.0%} ({100 * r['ci_low']:.0f}–{100 * r['ci_high']:.0f})"
            )
        matrix.add_row(a, *line)
    console.print(matrix)


def tournament(
    bots: Annotated[
        list[str],
        typer.Argument(
            help="bot specs, e.g. greedy random, or mcts:200 greedy (gauntlet: the first against each other)"
        ),
    ],
    players: Annotated[int | None, typer.Option("--players", "-p", help="2 to 6 players (Sakura: 4)")] = None,
    variant: Annotated[str | None, typer.Option(help="two players: court (default) or tactical")] = None,
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, help="games to play (rounded up to whole duplicate blocks)")
    ] = 100,
    seed: Annotated[int, typer.Option(help="master seed: same seed, same games")] = 0,
    mode: Annotated[str, typer.Option(help=f"{' or '.join(MODES)}")] = GAUNTLET,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=0, help="worker processes (0: all cores)")] = 0,
    ray: Annotated[
        bool,
        typer.Option(
            "--ray",
            help=("play on a Ray cluster (pip install 'sakura[cluster]'): a local one, or --ray-address"),
        ),
    ] = False,
    ray_address: Annotated[
        str | None,
        typer.Option(
            "--ray-address", help="the Ray cluster for --ray (implies it): auto, or ray://HOST:10001"
        ),
    ] = None,
    out: Annotated[Path, typer.Option(help="folder for tournament.json and standings.csv")] = Path(
        "tournament"
    ),
    records: Annotated[
        Path | None, typer.Option(help="save every game's record (JSON) in this folder")
    ] = None,
    plot: Annotated[Path | None, typer.Option(help="draw the win rates to this PNG")] = None,
    deck: Annotated[
        Path | None,
        typer.Option(
            help=(
                "a deck file instead of the published deck (the card game: a file like its data/cards.txt)"
            ),
            exists=True,
            dir_okay=False,
        ),
    ] = None,
    garden: Annotated[
        Path | None,
        typer.Option(help="a garden file instead of the published garden", exists=True, dir_okay=False),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress (bar or lines)")] = False,
    game_name: Annotated[str, typer.Option("--game", "-g", help="sakura, or sakura-cards (two players)")] = (
        "sakura"
    ),
) -> None:
    """Play bots against each other with seat rotation and duplicate deals; print and save
    win rates (95% intervals clustered by deal, fair share 1/players) and openskill ratings."""
    if plot is not None:
        require("sakura tournament --plot", "lab")
    try:
        if game_name == "sakura":
            config = sakura_config(players or 4, variant, deck, garden)
        elif game_name == "sakura-cards" and variant is None and garden is None:
            config = cards_config(deck, players)
        elif variant is not None or deck is not None or garden is not None:
            raise ValueError(f"--variant and --garden are Sakura's options, not {game_name}'s")
        else:
            config = make_game(game_name, {} if players is None else {"players": players}).config_json()
        plan = TournamentPlan(game_name, config, tuple(bots), games=games, seed=seed, mode=mode)
        game = make_game(game_name, config)
        for spec in bots:
            parse_spec(spec)
            make_bot(spec, game, 0)
        on_ray = target(ray, ray_address)
    except (BotError, GameError, ValueError, RayMissingError) as exc:
        raise _fail(str(exc)) from None
    setups = plan.setups()
    warning = plan.warning()  # said once, under the standings it qualifies
    started = time.perf_counter()
    with GameProgress("tournament", len(setups), quiet=quiet) as progress:

        def advance(_: GameResult) -> None:
            progress.advance()

        results = run_games(
            setups, jobs=jobs or default_jobs(), records=records, on_result=advance, ray=on_ray
        )
    elapsed = time.perf_counter() - started
    # the ratings and their intervals (openskill, scipy) load here, not with every command
    from sakura.tournament.ratings import lineup_win_rates, standings
    from sakura.tournament.report import summary, write_results

    data = summary(plan, results, elapsed)
    json_path, csv_path = write_results(out, data)
    table_name = f"({config['variant']})" if "variant" in config else game_name
    title = f"{len(results)} games, {plan.players} players {table_name}, {plan.mode}, seed {seed}"
    console = _console()
    table = Table(title=title)
    score = "points" if game_name == "sakura-cards" else "tokens"  # what each game's score counts
    for column in (
        "bot",
        "seat-games",
        "deals",
        "win rate",
        "95% interval",
        "× fair share (95%)",
        score,
        "openskill μ±σ",
        "ms/decision",
    ):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for s in standings(results):
        table.add_row(
            s.spec,
            str(s.seat_games),
            str(s.deals),
            f"{s.win_rate:.1%}",
            f"{s.ci_low:.1%}–{s.ci_high:.1%}",
            f"{s.ratio:.2f} ({s.ratio_low:.2f}–{s.ratio_high:.2f})",
            f"{s.mean_tokens:.2f}",
            f"{s.mu:.1f}±{s.sigma:.1f}",
            f"{s.think_ms:.1f}",
        )
    console.print(table)
    lineups = lineup_win_rates(results)
    if len(lineups) > 1:
        by_lineup = Table(title="by line-up (each bot's win rate at that table)")
        for column in ("line-up", "games", "deals", "bot", "win rate", "95% interval"):
            by_lineup.add_column(column, justify="left" if column in ("line-up", "bot") else "right")
        for name, count, rates in lineups:
            for i, (spec, e) in enumerate(rates.items()):
                by_lineup.add_row(
                    name if i == 0 else "",
                    str(count) if i == 0 else "",
                    str(e.clusters) if i == 0 else "",
                    spec,
                    f"{e.value:.1%}",
                    f"{e.low:.1%}–{e.high:.1%}",
                )
        console.print(by_lineup)
    _print_head_to_head(console, data)
    console.print(
        f"fair share {1 / plan.players:.1%}; {data['deals']} deals (the intervals count deals, "
        f"not games); {elapsed:.0f} s; saved {json_path}, {csv_path} and "
        f"{json_path.parent / 'head_to_head.csv'}"
    )
    if warning:
        note(console, warning)
    if plot is not None:
        from sakura.tournament.plots import plot_standings  # matplotlib: only for a chart

        plot_standings(standings(results), plot, title)
        console.print(f"plot: {plot}")
