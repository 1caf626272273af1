"""The command line's messages, printed as text: a file name, a player's name or an exception's
words go out as they are, never read as Rich markup (where ``'sakura[cluster]'`` lost its
brackets and a path with ``[/x]`` in it crashed the message). The command modules' consoles
are made with ``markup=False`` for the same reason; only the label's colour is styled here."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console


def error(console: Console, message: object) -> None:
    """``error: message``, the label in red, the message as plain text."""
    _labelled(console, "error:", "red", message)


def note(console: Console, message: object) -> None:
    """``note: message``, the label in yellow, the message as plain text."""
    _labelled(console, "note:", "yellow", message)


def _labelled(console: Console, label: str, colour: str, message: object) -> None:
    from rich.text import Text

    console.print(Text.assemble((label, colour), " ", str(message)))
