"""The screens of ``sakura play --join URL`` before its game: connecting, and a failed join.

Once connected, the app opens the table's game screen with a play session fed by the
server (:mod:`sakura.tui.remote_play`): the same screens as a game played here.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from sakura.tui.i18n import N_, paragraph, t, translate_bindings
from sakura.tui.navigation import TableJoined
from sakura.tui.play import Settings
from sakura.tui.remote import JoinError, RemoteSession, parse_join_url


class JoinFailedScreen(Screen[None]):
    """The reason a table could not be joined; any of Enter, Esc, Q leaves the app, with exit
    code 1 (``sakura play --join`` says the reason again, on stderr, and exits 1 too)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,escape,q,ctrl+q", "leave", N_("Quit"))]

    def __init__(self, reason: str, settings: Settings) -> None:
        super().__init__()
        translate_bindings(self)
        self.reason = reason
        self.settings = settings

    def compose(self) -> ComposeResult:
        with Vertical(id="pass"):
            yield Static(t("Cannot join the table."), id="pass-title")
            yield Static(paragraph(self.reason), id="join-error")  # logical (lt), shaped here
            yield Static(t("Press Enter to quit."))
        yield Footer()

    def on_mount(self) -> None:
        self.settings.join_error = self.reason  # for the command, which says it again on leaving

    def action_leave(self) -> None:
        self.app.exit(return_code=1)


class ConnectScreen(Screen[None]):
    """Take a seat (when the link has no token) and connect; then the app opens the game."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+q", "app.quit", N_("Quit"))]

    def __init__(self, url: str, settings: Settings, *, watch: bool = False) -> None:
        super().__init__()
        translate_bindings(self)
        self.url = url
        self.settings = settings
        self.spectate = watch  # ("watch" is a Textual method's name)

    def compose(self) -> ComposeResult:
        with Vertical(id="pass"):
            # the link without its token: a seat's secret stays off the screen here
            yield Static(Text(t("Joining {url}…", url=self.url.split("#")[0])), id="pass-title")
        yield Footer()

    def on_mount(self) -> None:
        self.run_worker(self.join(), exclusive=True)

    async def join(self) -> None:
        try:
            link: RemoteSession[Any] = RemoteSession(parse_join_url(self.url), watch=self.spectate)
            await link.claim()
            await link.connect()
        except JoinError as exc:
            self.app.switch_screen(JoinFailedScreen(str(exc), self.settings))
            return
        self.post_message(TableJoined(link))
