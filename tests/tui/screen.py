"""What a test reads of the terminal: the whole screen as text (and as SVG), as Textual draws it."""

from __future__ import annotations

import io

from rich.console import Console
from textual.app import App


def _console(app: App[None]) -> Console:
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console


def screen_text(app: App[None]) -> str:
    """The screen as plain text, one line per terminal row (trailing blanks removed)."""
    text = _console(app).export_text(styles=False)
    return "\n".join(line.rstrip() for line in text.split("\n"))


def screen_svg(app: App[None]) -> str:
    """The screen as an SVG screenshot: what ``App.export_screenshot`` writes, colours and all."""
    return _console(app).export_svg(title=app.title)
