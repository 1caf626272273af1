"""What a test reads of the terminal app: the whole screen as text (and as SVG), as Textual
draws it, and the log; waiting for a live server and making a table there; a card game set
up from a situation."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import httpx
from rich.console import Console
from textual.app import App
from textual.pilot import Pilot

from sakura.engine import State
from sakura.tui import Session, Setup


def _console(app: App[None]) -> Console:
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        record=True,
        legacy_windows=False,
        safe_box=False,
    )
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console


def screen_text(app: App[None]) -> str:
    """The screen as plain text, one line per terminal row (trailing blanks removed)."""
    text = _console(app).export_text(styles=False)
    return "\n".join(line.rstrip() for line in text.split("\n"))


def screen_svg(app: App[None]) -> str:
    """The screen as an SVG screenshot: what ``App.export_screenshot`` writes, colours and all."""
    return _console(app).export_svg(title=app.title)


def log_text(screen: Any) -> str:
    """The log of a game or replay screen, line by line."""
    return "\n".join(str(line.text) for line in screen.query_one("#log").lines)


def create_table(server: str, seats: list[str], **extra: Any) -> dict[str, Any]:
    """A table made through the live server's HTTP API: ``human`` seats and bots by level
    (``easy``, ``medium``...); ``extra`` as the API takes it (``game``, ``variant``, ``timer``).
    The API's answer: the table, and the creator's token for seat 1."""
    body = {
        "players": len(seats),
        "seats": [{"kind": "human"} if s == "human" else {"kind": "bot", "level": s} for s in seats],
        **extra,
    }
    response = httpx.post(f"{server}/api/tables", json=body, timeout=60)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


async def wait_for(pilot: Pilot[None], done: Callable[[], object], limit: int = 3000) -> None:
    """Let the app run (a live server's messages come in) until ``done()`` holds."""
    for _ in range(limit):
        await pilot.pause(0.02)
        if done():
            return
    raise AssertionError("waited too long")


async def play_until(
    app: App[None], pilot: Pilot[None], done: Callable[[Any], object], key: str = "1", limit: int = 400
) -> Any:
    """Press ``key`` (the first card, or forward) until ``done(game screen)`` holds; that screen."""
    from sakura.tui.game_screen import GameScreen

    for _ in range(limit):
        await pilot.pause()
        game = next(s for s in reversed(app.screen_stack) if isinstance(s, GameScreen))
        if done(game):
            return game
        await pilot.press(key)
    raise AssertionError(f"pressed {key!r} {limit} times and it did not come")


def session_at(state: State[Any], kinds: tuple[str, str], seed: int = 1) -> Session[Any]:
    """A card-game session that starts from a situation set up by hand; its record starts
    there too (a record stores its initial state, so it replays from the situation)."""
    session: Session[Any] = Session(Setup.cards(kinds, seed), seed=seed)
    session.recorder.state = state
    session.recorder.initial = state.to_json()
    return session


async def until_end(app: App[None], pilot: Pilot[None]) -> None:
    """Wait until the end panel is up (a finished game resumed reaches it by itself)."""
    from sakura.tui.dialogs import EndScreen

    for _ in range(200):
        if isinstance(app.screen, EndScreen):
            return
        await pilot.pause(0.02)
    raise AssertionError("the end panel did not come")
