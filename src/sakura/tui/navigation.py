"""Where a screen asks the app to go next, as Textual messages.

A screen that leads to another (the start screen to a game, a game's end to the start
screen, a rematch to its table) posts one of these; it bubbles up to the app
(:class:`~sakura.tui.app.SakuraApp`), which closes the dialogs over the screen, builds the
next screen and its play session, and puts it in that screen's place. So no screen imports
the app or another game's screens: the app is the one place that knows them all.
"""

from __future__ import annotations

from typing import Any

from textual.message import Message

from sakura.tui.remote import RemoteSession
from sakura.tui.session import Setup


class OpenStart(Message):
    """The start screen, filled in with ``setup`` (the defaults when ``None``)."""

    def __init__(self, setup: Setup | None = None) -> None:
        super().__init__()
        self.setup = setup


class OpenGame(Message):
    """A new game here, as ``setup`` says."""

    def __init__(self, setup: Setup) -> None:
        super().__init__()
        self.setup = setup


class OpenTutorial(Message):
    """The tutorial ("Learn to play")."""


class OpenTable(Message):
    """A web table's link (a rematch's): take the seat, connect, play."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url


class TableJoined(Message):
    """A web table connected (``link``): its game's screen, playing the seat or watching."""

    def __init__(self, link: RemoteSession[Any]) -> None:
        super().__init__()
        self.link = link
