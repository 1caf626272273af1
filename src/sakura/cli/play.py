"""``sakura play``: the terminal app (Textual), against bots or hot-seat on one keyboard, or a
seat at a web table (``--join URL``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

err = Console(stderr=True, soft_wrap=True)


def play(
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="2 to 6; skips the start screen")
    ] = None,
    variant: Annotated[str | None, typer.Option(help="two players: 'court' (default) or 'tactical'")] = None,
    bots: Annotated[
        str, typer.Option(help="what plays the other seats: random, greedy or mcts:300 (with --players)")
    ] = "greedy",
    seat: Annotated[int, typer.Option(help="your seat, 1 to the number of players (with --players)")] = 1,
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
) -> None:
    """Play Sakura in the terminal: a full-screen app; ? shows the rules and keys."""
    from sakura.records import GameRecord, InvalidRecordError, ReplayDivergenceError
    from sakura.tui import SakuraApp, SeatSpec, Session, Setup
    from sakura.tui.i18n import detect_language

    try:
        language = detect_language(lang)
    except ValueError as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2) from None
    if join is not None:
        SakuraApp(join=join, lang=language, save_dir=save_dir).run()
        return
    session = setup = None
    if resume is not None:
        try:
            session = Session.resume(GameRecord.loads(resume.read_text(encoding="utf-8")))
        except (InvalidRecordError, ReplayDivergenceError, ValueError, UnicodeDecodeError) as exc:
            err.print(f"[red]error:[/] {resume}: {exc}")
            raise typer.Exit(2) from None
    elif players is not None:
        if not 1 <= seat <= players:
            err.print(f"[red]error:[/] --seat is 1 to {players}")
            raise typer.Exit(2)
        kinds = ["human" if hot_seat or i == seat - 1 else bots for i in range(players)]
        try:
            setup = Setup(players, variant, tuple(SeatSpec(k) for k in kinds), seed)
            from sakura.bots import parse_spec
            from sakura.engine.games.sakura import SakuraGame

            SakuraGame(players, variant)
            parse_spec(bots)
        except ValueError as exc:
            err.print(f"[red]error:[/] {exc}")
            raise typer.Exit(2) from None
    SakuraApp(setup=setup, session=session, lang=language, save_dir=save_dir).run()


def replay_tui(record: object) -> None:
    """``sakura replay FILE --tui``: check the record, then step through it in the app."""
    from sakura.records import GameRecord, ReplayDivergenceError, replay
    from sakura.tui import SakuraApp
    from sakura.tui.i18n import detect_language

    assert isinstance(record, GameRecord)
    try:
        replay(record)
    except ReplayDivergenceError as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(1) from None
    SakuraApp(record=record, lang=detect_language()).run()
