"""``sakura play``: the terminal app (Textual), against bots or hot-seat on one keyboard, or a
seat at a web table (``--join URL``); Sakura or the card game (``--game sakura-cards``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.console import Console

from sakura.cli.extras import require
from sakura.cli.messages import error

if TYPE_CHECKING:
    from sakura.tui import Setup

err = Console(stderr=True, soft_wrap=True, markup=False)
DEFAULT_BOTS = "greedy"


def play(
    game: Annotated[
        str | None,
        typer.Option(
            help="'sakura' (default) or 'sakura-cards' (the card game: two players; skips the start screen)"
        ),
    ] = None,
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="2 to 6 (Sakura); skips the start screen")
    ] = None,
    variant: Annotated[str | None, typer.Option(help="two players: 'court' (default) or 'tactical'")] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            help="what plays the other seats: a level (beginner, casual, club, expert, "
            "master) or a bot spec (random, greedy, mcts:300); default greedy"
        ),
    ] = None,
    seat: Annotated[int | None, typer.Option(help="your seat, 1 to the number of players; default 1")] = None,
    hot_seat: Annotated[
        bool, typer.Option("--hot-seat", help="every seat is a human at this keyboard")
    ] = False,
    seed: Annotated[int | None, typer.Option(help="deal from this seed (a replayable game)")] = None,
    resume: Annotated[
        Path | None, typer.Option(help="resume a saved game (a record file)", exists=True, dir_okay=False)
    ] = None,
    save_dir: Annotated[Path, typer.Option(help="where S saves the game")] = Path("."),
    lang: Annotated[
        str | None, typer.Option(help="en, es or fa; default: LANGUAGE/LC_ALL/LC_MESSAGES/LANG")
    ] = None,
    join: Annotated[
        str | None,
        typer.Option(help="take a seat at a web table: its link, http://HOST/t/ID or .../t/ID#token=..."),
    ] = None,
    watch: Annotated[
        bool, typer.Option("--watch", help="with --join: watch the table, take no seat (a spectator)")
    ] = False,
    pace: Annotated[
        str,
        typer.Option(
            help="how a round unfolds: normal, slow, step (Space for each next step) or fast; "
            "P changes it during the game"
        ),
    ] = "normal",
) -> None:
    """Play Sakura or its card game in the terminal: a full-screen app; ? shows the rules and keys.

    With --players (or --game sakura-cards) the game starts at once; otherwise the start
    screen opens, filled in with the other options given (--bots, --seat, --hot-seat,
    --variant, --seed), and Enter starts."""
    require("sakura play", "tui")
    from sakura.records import GameRecord, InvalidRecordError, ReplayDivergenceError
    from sakura.tui import SakuraApp, Session
    from sakura.tui.i18n import detect_language
    from sakura.tui.pace import PACES
    from sakura.tui.session import CARDS, GAMES

    try:
        language = detect_language(lang)
    except ValueError as exc:
        fail(str(exc))
    if pace not in PACES:
        fail(f"unknown pace {pace!r}; choose one of {', '.join(PACES)}")
    if game is not None and game not in GAMES:
        fail(f"unknown game {game!r}; the terminal app plays {' and '.join(GAMES)} (--game {CARDS})")
    if watch and join is None:
        fail("--watch watches a web table: give its link with --join")
    if join is not None:  # the table's game decides
        from sakura.tui.remote import JoinError, parse_join_url

        try:
            parse_join_url(join)  # a link that is none is said before the app starts
        except JoinError as exc:
            fail(str(exc))
        remote = SakuraApp(join=join, watch=watch, lang=language, save_dir=save_dir, pace=pace)
        remote.run()
        if remote.join_error is not None:  # said on the app's screen, and here for the shell
            error(err, f"cannot join the table: {remote.join_error}")
            raise typer.Exit(1)
        return
    session: Session[Any] | None = None
    setup: Setup | None = None
    if resume is not None:
        try:
            session = Session.resume(GameRecord.loads(resume.read_text(encoding="utf-8")))
        except (InvalidRecordError, ReplayDivergenceError, ValueError, UnicodeDecodeError) as exc:
            fail(f"{resume}: {exc}")
        if game is not None and session.setup.game != game:
            fail(f"{resume} is a game of {session.setup.game}, not {game}")
    elif game == CARDS:
        if variant is not None or players not in (None, 2):
            fail(
                "the card game (--game sakura-cards) is for two players and has no variants: "
                "leave out --players and --variant"
            )
        setup = _setup(CARDS, 2, None, bots or DEFAULT_BOTS, seat or 1, hot_seat, seed)
    elif players is not None:
        setup = _setup("sakura", players, variant, bots or DEFAULT_BOTS, seat or 1, hot_seat, seed)
    elif any(option is not None for option in (bots, seat, variant, seed)) or hot_seat:
        # no --players: the start screen, filled in with what was asked (Enter starts)
        table = 2 if variant is not None else max(3, seat or 1)
        prefill = _setup("sakura", table, variant, bots or DEFAULT_BOTS, seat or 1, hot_seat, seed)
        SakuraApp(start=prefill, lang=language, save_dir=save_dir, pace=pace).run()
        return
    SakuraApp(setup=setup, session=session, lang=language, save_dir=save_dir, pace=pace).run()


def fail(message: str) -> NoReturn:
    """A usage error: said in red on stderr, exit code 2, nothing started."""
    error(err, message)
    raise typer.Exit(2)


def _setup(
    game: str, players: int, variant: str | None, bots: str, seat: int, hot_seat: bool, seed: int | None
) -> Setup:
    """The table the options describe (you on ``seat``, ``bots`` elsewhere), checked by the
    engine and the bot registry before the app starts."""
    from sakura.bots import BotError, make_bot
    from sakura.engine import GameError, make_game
    from sakura.tui import SeatSpec, Setup

    if not 1 <= seat <= players:
        fail(f"--seat is 1 to {players}")
    kinds = ["human" if hot_seat or i == seat - 1 else bots for i in range(players)]
    try:
        setup = Setup(players, variant, tuple(SeatSpec(k) for k in kinds), seed, game)
        table = make_game(game, setup.config())
        make_bot(bots, table, 0)  # a spec can fit one table and not another (a trained policy)
    except (ValueError, GameError, BotError) as exc:
        fail(str(exc))
    return setup


def replay_tui(record: object) -> None:
    """``sakura replay FILE --tui``: check the record, then step through it in the app."""
    require("sakura replay --tui", "tui")
    from sakura.records import GameRecord, ReplayDivergenceError, replay
    from sakura.tui import SakuraApp
    from sakura.tui.i18n import detect_language

    assert isinstance(record, GameRecord)
    try:
        replay(record)
    except ReplayDivergenceError as exc:
        error(err, exc)
        raise typer.Exit(1) from None
    SakuraApp(record=record, lang=detect_language()).run()
