"""``sakura analyze``: simulate a deck and garden with bots and write a designer's balance report
(``--game sakura-cards``: the three-area card game's own report)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from sakura.bots import BotError, make_bot
from sakura.cli.extras import require
from sakura.cli.messages import error
from sakura.engine import GameError, make_game
from sakura.engine.games.cards import CardsGame
from sakura.engine.games.sakura import SakuraGame
from sakura.tournament.configs import cards_config, sakura_config
from sakura.tournament.on_ray import RayMissingError, target
from sakura.tournament.play import GameSetup
from sakura.tournament.progress import GameProgress
from sakura.tournament.runner import RayTarget, default_jobs, run_games
from sakura.tournament.schedule import derive_seed

console = Console(markup=False)
err = Console(stderr=True, soft_wrap=True, markup=False)


def balance_setups(
    config: dict[str, object], bots: list[str], games: int, seed: int, players: int, game: str = "sakura"
) -> list[GameSetup]:
    """Game ``i`` deals from its own seed; a mix of bots rotates one seat a game."""
    line = [bots[s % len(bots)] for s in range(players)]
    text = json.dumps(config, sort_keys=True)
    out = []
    for i in range(games):
        shift = i % players if len(set(line)) > 1 else 0
        seats = tuple(line[(s - shift) % players] for s in range(players))
        out.append(
            GameSetup(
                i,
                i,
                game,
                text,
                seats,
                derive_seed(seed, "deal", i),
                tuple(derive_seed(seed, "bot", i, s) for s in range(players)),
            )
        )
    return out


def analyze(
    players: Annotated[int | None, typer.Option("--players", "-p", help="2 to 6 players (default 4)")] = None,
    variant: Annotated[str | None, typer.Option(help="two players: court (default) or tactical")] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="games to simulate")] = 1000,
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
        typer.Option(
            help=("a deck file (format of the engine's data/deck.txt; the card game: of its data/cards.txt)"),
            exists=True,
            dir_okay=False,
        ),
    ] = None,
    garden: Annotated[
        Path | None,
        typer.Option(help="a garden file (format of data/garden.txt)", exists=True, dir_okay=False),
    ] = None,
    seed: Annotated[int, typer.Option(help="master seed: same seed, same games")] = 0,
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
    out: Annotated[Path, typer.Option(help="folder for report.md and its PNG plots")] = Path("balance"),
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress (bar or lines)")] = False,
    game_name: Annotated[
        str, typer.Option("--game", help="sakura, or sakura-cards (the three-area card game)")
    ] = "sakura",
) -> None:
    """Simulate games and report win rate by seat, game length, bumps, who wins each sakura
    and each card's effect, as Markdown with PNG plots. With --game sakura-cards: win rates
    (and the first player's), points by round starter and area, the combinations that score,
    discards and gifts."""
    require("sakura analyze", "lab")
    specs = bots or ["greedy"]
    if game_name == "sakura-cards":
        _analyze_cards(
            players,
            variant,
            deck,
            garden,
            games,
            specs,
            seed,
            jobs,
            out,
            quiet,
            _ray_target(ray, ray_address),
        )
        return
    if game_name != "sakura":
        error(err, f"unknown game {game_name!r}; games: sakura, sakura-cards")
        raise typer.Exit(2)
    players = players or 4
    on_ray = _ray_target(ray, ray_address)
    try:
        config = sakura_config(players, variant, deck, garden)
        game = SakuraGame.from_config(config)
        for spec in specs:
            make_bot(spec, game, 0)
    except (BotError, GameError, ValueError) as exc:
        error(err, exc)
        raise typer.Exit(2) from None
    # the statistics and the charts (scipy, matplotlib) load here, not with every command
    from sakura.tournament.balance import SakuraCollector, balance
    from sakura.tournament.balance_report import in_words, write_report

    setups = balance_setups(config, specs, games, seed, players)
    started = time.perf_counter()
    with GameProgress("analyze", games, quiet=quiet) as progress:
        results = run_games(
            setups,
            jobs=jobs or default_jobs(),
            collector=SakuraCollector,
            on_result=lambda _: progress.advance(),
            ray=on_ray,
        )
    elapsed = time.perf_counter() - started
    notes = [
        f"deck: {deck or 'the published deck'}; garden: {garden or 'the published garden'}",
        f"variant {game.variant}; seed {seed}; {elapsed:.0f} s",
    ]
    data = balance(results, game)
    path = write_report(data, out, title="Sakura balance report", notes=notes)
    for line in in_words(data):
        console.print(f"- {line}", highlight=False, markup=False, soft_wrap=True)
    console.print(f"report: {path}")


def _ray_target(flag: bool, address: str | None) -> RayTarget | None:
    try:
        return target(flag, address)
    except RayMissingError as exc:
        error(err, exc)
        raise typer.Exit(2) from None


def _analyze_cards(
    players: int | None,
    variant: str | None,
    deck: Path | None,
    garden: Path | None,
    games: int,
    specs: list[str],
    seed: int,
    jobs: int,
    out: Path,
    quiet: bool,
    on_ray: RayTarget | None = None,
) -> None:
    options = (("--variant", variant), ("--garden", garden))
    wrong = [name for name, given in options if given]
    if players not in (None, 2):
        wrong.append("--players (it is for two)")
    if wrong:
        error(err, f"the card game has no {', '.join(wrong)}")
        raise typer.Exit(2)
    try:
        config = cards_config(deck)
        game = make_game("sakura-cards", config)
        for spec in specs:
            make_bot(spec, game, 0)
    except (BotError, GameError, ValueError) as exc:
        error(err, exc)
        raise typer.Exit(2) from None
    assert isinstance(game, CardsGame)
    from sakura.tournament.cards_balance import (
        CardsCollector,
        cards_balance,
        cards_in_words,
        write_cards_report,
    )

    setups = balance_setups(config, specs, games, seed, 2, game="sakura-cards")
    started = time.perf_counter()
    with GameProgress("analyze", games, quiet=quiet) as progress:
        results = run_games(
            setups,
            jobs=jobs or default_jobs(),
            collector=CardsCollector,
            on_result=lambda _: progress.advance(),
            ray=on_ray,
        )
    notes = [f"cards: {deck or 'the published cards'}; seed {seed}; {time.perf_counter() - started:.0f} s"]
    title = "Sakura card game: balance report"
    data = cards_balance(results)
    path = write_cards_report(data, out, title=title, notes=notes, deck=game.deck)
    for line in cards_in_words(data):
        console.print(f"- {line}", highlight=False, markup=False, soft_wrap=True)
    console.print(f"report: {path}")
