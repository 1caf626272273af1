"""``sakura``: the command line. Until the web app exists, the main job is ``sakura simulate``."""

from __future__ import annotations

import json
import random
import statistics
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from sakura.cli.board import draw_cards, draw_position
from sakura.cli.messages import error
from sakura.engine import Game, GameError, Outcome, make_game
from sakura.engine.games.cards import CardsState
from sakura.engine.games.sakura import Position, SakuraGame, SakuraState, parse_deck
from sakura.records import GameRecord, InvalidRecordError, Recorder, ReplayDivergenceError, replay
from sakura.records.playout import random_action
from sakura.tournament.configs import cards_config

app = typer.Typer(
    help="Sakura: the race through the Emperor's garden. Simulate, replay and show games.",
    no_args_is_help=True,
    add_completion=False,
    # Help as plain text: Rich's markup would read a help's brackets as tags (it printed
    # pip install 'sakura' for 'sakura[cluster]') and its option table shows <bool> on every flag.
    rich_markup_mode=None,
)
console = Console(markup=False)
err = Console(stderr=True, soft_wrap=True, markup=False)


def _print_version(value: bool) -> None:
    if value:
        from sakura import __version__
        from sakura._build import build_info

        typer.echo(f"sakura {__version__}: {build_info().describe()}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_print_version,
            is_eager=True,
            help="Print the version and which build of the engine runs (compiled or pure Python), then exit.",
        ),
    ] = False,
) -> None:
    """Sakura: the race through the Emperor's garden. Simulate, replay and show games."""


def _game(players: int, variant: str | None, deck: Path | None = None) -> SakuraGame:
    try:
        cards = parse_deck(deck.read_text(encoding="utf-8"), deck.name) if deck is not None else None
        return SakuraGame(players, variant, cards)
    except (GameError, ValueError) as exc:
        error(err, exc)
        raise typer.Exit(2) from None


@app.command()
def simulate(
    players: Annotated[int | None, typer.Option("--players", "-p", help="2 to 6 players (default 4)")] = None,
    games: Annotated[int, typer.Option("--games", "-n", help="how many games", min=1)] = 1000,
    seed: Annotated[int, typer.Option(help="first seed; game i uses seed + i")] = 0,
    variant: Annotated[
        str | None,
        typer.Option(help="two players: 'court' (default) or 'tactical'; three or more: 'standard'"),
    ] = None,
    records: Annotated[
        Path | None, typer.Option(help="save every game's record (JSON) in this folder")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar")] = False,
    game_name: Annotated[
        str, typer.Option("--game", help="sakura, or sakura-cards (the three-area card game: two players)")
    ] = "sakura",
    deck: Annotated[
        Path | None,
        typer.Option(
            help="a deck file instead of the published deck (format of data/deck.txt; the card game: "
            "of its data/cards.txt)",
            exists=True,
            dir_okay=False,
        ),
    ] = None,
) -> None:
    """Play random games and print a summary: rounds, bumps, tokens and winners by seat (the
    card game: points, discards and winners by seat)."""
    if game_name == "sakura-cards":
        if variant is not None or players not in (None, 2):
            error(err, "the card game is for two players and has no variant")
            raise typer.Exit(2)
        try:
            cards_game = make_game("sakura-cards", cards_config(deck))
        except (GameError, ValueError) as exc:
            error(err, exc)
            raise typer.Exit(2) from None
        _simulate_cards(cards_game, games, seed, records, quiet, deck)
        return
    if game_name != "sakura":
        error(err, f"unknown game {game_name!r}; games: sakura, sakura-cards")
        raise typer.Exit(2)
    players = players or 4
    game = _game(players, variant, deck)
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    rounds: list[int] = []
    bumps: list[int] = []
    winner_tokens: list[int] = []
    tokens: list[float] = []
    wins: dict[int, float] = dict.fromkeys(range(players), 0.0)  # shared wins split
    with _progress(quiet) as progress:
        task = progress.add_task("games", total=games)
        for i in range(games):
            game_seed = seed + i
            recorder, n_bumps = _random_game(game, game_seed, "bumped")
            state = recorder.state
            assert isinstance(state, SakuraState)
            outcome = state.outcome()
            assert outcome is not None
            rounds.append(state.round)
            bumps.append(n_bumps)
            for w in outcome.winners:
                wins[w] += 1 / len(outcome.winners)
            winner_tokens.append(max(outcome.scores))
            tokens.append(statistics.fmean(outcome.scores))
            if records is not None:
                (records / f"game-{game_seed}.json").write_text(recorder.finish().dumps())
            progress.advance(task)
    edition = f", deck {deck.name}" if deck is not None else ""
    table = Table(title=f"{games} random games, {players} players ({game.variant}){edition}")
    table.add_column("measure")
    table.add_column("mean", justify="right")
    table.add_column("min", justify="right")
    table.add_column("max", justify="right")
    for name, values in (
        ("rounds per game", rounds),
        ("bumps per game", bumps),
        ("winner's tokens", winner_tokens),
    ):
        table.add_row(name, f"{statistics.fmean(values):.2f}", str(min(values)), str(max(values)))
    table.add_row("tokens per player", f"{statistics.fmean(tokens):.2f}", "", "")
    console.print(table)
    _print_wins(wins, games)


def _random_game(game: Game[Any], seed: int, kind: str) -> tuple[Recorder, int]:
    """One game of random legal actions (seeded), recorded; and how many ``kind`` events it had."""
    rng = random.Random(seed)
    recorder = Recorder(game, seed)
    state = recorder.state
    count = 0
    while not state.is_terminal():
        player = state.current_players()[0]
        events = recorder.apply(player, random_action(state, player, rng))
        count += sum(1 for e in events if e.kind == kind)
    return recorder, count


def _progress(quiet: bool) -> Progress:
    return Progress(
        TextColumn("simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=quiet,
        transient=True,
    )


def _print_wins(wins: dict[int, float], games: int) -> None:
    seats = Table(title="wins by seat (shared wins split)")
    seats.add_column("seat")
    seats.add_column("wins", justify="right")
    seats.add_column("share", justify="right")
    for seat, won in wins.items():
        seats.add_row(str(seat + 1), f"{won:.1f}", f"{won / games:.1%}")
    console.print(seats)


def _simulate_cards(
    game: Game[Any], games: int, seed: int, records: Path | None, quiet: bool, deck: Path | None
) -> None:
    """Random games of the card game: points a player and the winner's, discards, draws."""
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    points: list[int] = []
    winner_points: list[int] = []
    discards: list[int] = []
    draws = 0
    wins = dict.fromkeys(range(2), 0.0)
    with _progress(quiet) as progress:
        task = progress.add_task("games", total=games)
        for i in range(games):
            recorder, n_discards = _random_game(game, seed + i, "card_discarded")
            outcome = recorder.state.outcome()
            assert outcome is not None
            points += list(outcome.scores)
            winner_points.append(max(outcome.scores))
            discards.append(n_discards)
            draws += len(outcome.winners) == 2
            for w in outcome.winners:
                wins[w] += 1 / len(outcome.winners)
            if records is not None:
                (records / f"game-{seed + i}.json").write_text(recorder.finish().dumps())
            progress.advance(task)
    edition = f", cards {deck.name}" if deck is not None else ""
    table = Table(title=f"{games} random games of the card game{edition}")
    for column in ("measure", "mean", "min", "max"):
        table.add_column(column, justify="left" if column == "measure" else "right")
    for name, values in (
        ("points per player", points),
        ("winner's points", winner_points),
        ("discards per game", discards),
    ):
        table.add_row(name, f"{statistics.fmean(values):.2f}", str(min(values)), str(max(values)))
    table.add_row("draws", f"{draws / games:.1%}", "", "")
    console.print(table)
    _print_wins(wins, games)


@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(help="a game record (JSON)", exists=True, dir_okay=False)],
    positions: Annotated[
        bool, typer.Option(help="print the position (text form) after every resolved card and every choice")
    ] = False,
    board: Annotated[bool, typer.Option(help="draw the final garden (or the card game's areas)")] = False,
    tui: Annotated[bool, typer.Option("--tui", help="step through the game in the terminal app")] = False,
    analyse: Annotated[
        bool,
        typer.Option("--analyse", "--analyze", help="score one seat's decisions and the win chance by round"),
    ] = False,
    seat: Annotated[int, typer.Option(help="the seat to analyse (from 1)", min=1)] = 1,
    spec: Annotated[str, typer.Option(help="the analysing bot (a search spec or level)")] = "expert",
    png: Annotated[
        Path | None, typer.Option(help="write the win-chance graph to this PNG", dir_okay=False)
    ] = None,
    samples: Annotated[
        int,
        typer.Option(help="samples each decision's cards are played out on (0: the measured default)", min=0),
    ] = 0,
) -> None:
    """Re-run a game record through the engine; fail loudly where it diverges (with --analyse:
    then score a seat's decisions with the analysing bot)."""
    try:
        record = GameRecord.loads(file.read_text(encoding="utf-8"))
    except (InvalidRecordError, UnicodeDecodeError) as exc:
        error(err, f"{file}: {exc}")
        raise typer.Exit(2) from None
    if tui:
        from sakura.cli.play import replay_tui

        replay_tui(record)
        return
    if positions:
        try:
            first = record.make_game().state_from_json(record.initial)
        except (GameError, ValueError) as exc:
            error(err, f"{file}: bad initial state: {exc}")
            raise typer.Exit(1) from None
        print(first.text())
    try:
        final = replay(record, on_step=(lambda s: print(s.text())) if positions else None)
    except ReplayDivergenceError as exc:
        error(err, f"{file}: {exc}")
        raise typer.Exit(1) from None
    outcome = final.outcome()
    if board and isinstance(final, SakuraState):
        typer.echo(draw_position(final.position(), final.game))
    elif board and isinstance(final, CardsState):
        typer.echo(draw_cards(final.view(None)))
    sys.stdout.flush()  # the board (stdout) is out, whole, before the summary (stderr) comes
    err.print(f"replayed {len(record.moves)} moves: identical to the record; {outcome_words(outcome)}")
    if analyse:
        _analyse(record, seat, spec, png, samples)


def outcome_words(outcome: Outcome | None) -> str:
    """The end of a game for a person, seats counted from 1 (the record's JSON counts them
    from 0).

    >>> outcome_words(Outcome((0,), (12, 5, 10), "most tokens"))
    'seat 1 won (most tokens); scores by seat: 12, 5, 10'
    >>> outcome_words(Outcome((1, 2), (3, 4, 4), "shared"))
    'seats 2 and 3 share the win (shared); scores by seat: 3, 4, 4'
    """
    if outcome is None:
        return "the game is unfinished"
    seats = [str(w + 1) for w in outcome.winners]
    who = (
        f"seat {seats[0]} won"
        if len(seats) == 1
        else f"seats {', '.join(seats[:-1])} and {seats[-1]} share the win"
    )
    why = f" ({outcome.reason})" if outcome.reason else ""
    return f"{who}{why}; scores by seat: {', '.join(map(str, outcome.scores))}"


def _analyse(record: GameRecord, seat: int, spec: str, png: Path | None, samples: int) -> None:
    from sakura.bots import BotError
    from sakura.cli import analysis
    from sakura.cli.extras import require

    if png is not None:
        require("sakura replay --analyse --png", "lab")
    if seat > len(record.players):
        error(err, f"there is no seat {seat}: the game has {len(record.players)} players")
        raise typer.Exit(2)
    try:
        analysis.run(record, seat - 1, spec, png, err, console, samples)
    except BotError as exc:
        error(err, exc)
        raise typer.Exit(2) from None


@app.command()
def show(
    position: Annotated[
        str,
        typer.Argument(
            help="a position in text form, or a JSON file: a position, or a saved state of either game"
        ),
    ],
) -> None:
    """Print a position: Sakura's garden, painters, Emperor and tokens, or the card game's table
    (from its saved state, a JSON file)."""
    path = Path(position)
    if path.is_dir():
        _show_fails(f"{position} is a folder, not a position")
    if path.is_file():
        typer.echo(_draw_file(path))
        return
    if len(position.split()) == 1 and (path.suffix or "/" in position):  # a file's name, not a position
        _show_fails(f"no such file: {position}")
    if "|" in position:  # CardsState.text(): one way, for reading
        _show_fails(
            "the card game's one-line text form is not read back: give its saved state "
            "(a JSON file, as CardsState.to_json writes it)"
        )
    try:
        pos = Position.from_text(position)
        game = SakuraGame(pos.players, pos.variant)
        pos.validate(game)
    except (GameError, ValueError) as exc:
        alone = "" if len(position.split()) > 1 else " (and there is no file of that name)"
        _show_fails(f"{exc}{alone}")
    typer.echo(draw_position(pos, game))


def _draw_file(path: Path) -> str:
    """The drawing of what ``path`` holds: a Sakura position (``Position.to_json``), or a saved
    state of Sakura or of the card game (``state.to_json()``); a record is refused with the
    command that shows it."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        _show_fails(f"{path} is not a JSON file: {exc}")
    if isinstance(data, dict) and ("moves" in data or str(data.get("format")).startswith("sakura-record")):
        _show_fails(
            f"{path} is a game record, not a position: sakura replay {path} --board draws "
            "its end, --positions prints every position on the way"
        )
    try:
        if isinstance(data, dict) and data.get("game") == "sakura-cards":
            from sakura.engine.games.cards import state_from_json as cards_state

            cards = cards_state(data)
            hands = [
                f"hand of player {seat + 1}: {' '.join(hand) or '-'}" for seat, hand in enumerate(cards.hands)
            ]
            return "\n".join([draw_cards(cards.view(None)), *hands])
        if isinstance(data, dict) and data.get("game") == "sakura":
            from sakura.engine.games.sakura import state_from_json as sakura_state

            state = sakura_state(data)
            return draw_position(state.position(), state.game)
        pos = Position.from_json(data)
        game = SakuraGame(pos.players, pos.variant)
        pos.validate(game)
    except (GameError, ValueError) as exc:
        _show_fails(f"{path}: {exc}")
    return draw_position(pos, game)


def _show_fails(message: str) -> NoReturn:
    error(err, message)
    raise typer.Exit(2)


from sakura.cli.analyze import analyze  # noqa: E402  (commands of their own modules)
from sakura.cli.compare import compare  # noqa: E402
from sakura.cli.tournament import tournament  # noqa: E402

app.command("tournament")(tournament)
app.command("analyze")(analyze)
app.command("compare")(compare)

from sakura.cli.serve import serve  # noqa: E402  (the web app's command)

app.command("serve")(serve)

from sakura.cli.play import play  # noqa: E402  (the terminal app's command)

app.command("play")(play)

from sakura.cli.admin import admin_app  # noqa: E402  (the site's moderators)
from sakura.cli.db import db_app  # noqa: E402  (the database's schema)

app.add_typer(db_app, name="db")
app.add_typer(admin_app, name="admin")


if __name__ == "__main__":  # pragma: no cover
    app()
