"""``sakura play``: the Textual app and its entry points."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.screen import Screen

from sakura.records import GameRecord
from sakura.tui.i18n import N_, RTL, set_language
from sakura.tui.pace import Pace
from sakura.tui.session import CARDS, Session, Setup
from sakura.tui.start import StartScreen

CSS = """
#prompt { height: auto; min-height: 1; padding: 0 1; color: $accent; }
#log { height: 1fr; min-height: 3; border-top: solid $primary-darken-2; }
#start { padding: 0 2; }
#start-title, #pass-title { text-style: bold; color: magenta; padding: 1 0; }
#start-title { padding: 1 0 0 0; }
#start-keys { color: $text-muted; padding: 0 0 1 0; }
.row { height: 1; }
.row Label { width: 16; padding: 0 1; }
.row Select { width: 46; height: 1; }
.row Select > SelectCurrent { border: none; height: 1; padding: 0 1; background: $boost; }
.row Select:focus > SelectCurrent { border: none; background: $accent; color: $text; text-style: bold; }
.row Select > SelectOverlay { width: 46; }
.row Input { width: 46; height: 1; border: none; padding: 0 1; background: $boost; }
.row Input:focus { border: none; background: $accent; }
.row.-focused Label { color: $accent; text-style: bold; }
#go { margin: 1 0 0 0; min-width: 20; height: 3; }
#go:focus { text-style: bold reverse; }
#start-error { color: red; }
#pass { align: center middle; padding: 4 4; }
HelpScreen { background: $background; }
#help { background: $panel; padding: 1 2; margin: 1 2; }
EndScreen { align: center bottom; }
/* the end panel leaves the final garden in sight above it */
#end { background: $panel; padding: 1 2; margin: 0; width: 100%; height: auto; max-height: 78vh; }
#winner { text-style: bold; color: yellow; padding: 1 0; }
.rtl #prompt, .rtl #help-text, .rtl #pass { text-align: right; }
#play-real { margin: 1 2; min-width: 24; height: 3; }
.lit { border: heavy $accent; }
.rtl #lesson { text-align: right; }
"""


class SakuraApp(App[None]):
    """``setup`` given: start playing at once; ``session``: resume; ``record``: replay;
    ``join``: a seat at a web table (its link; ``watch``: watch it, no seat); ``start``: the
    start screen filled in with that table (the command line's options without ``-p``);
    none: the start screen. ``pace`` is how a round unfolds (:mod:`sakura.tui.pace`: normal,
    slow, step or fast); without it, ``delay`` is the pause between its steps (0 in tests)."""

    CSS = CSS
    TITLE = "Sakura"
    # Textual's own Ctrl+Q quits at once, before any screen sees the key: a game under way asks
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit_or_ask", N_("Quit"), show=False, priority=True)
    ]

    def __init__(
        self,
        *,
        setup: Setup | None = None,
        session: Session[Any] | None = None,
        record: GameRecord | None = None,
        lang: str = "en",
        delay: float = 0.35,
        pace: str | None = None,
        save_dir: Path | None = None,
        join: str | None = None,
        watch: bool = False,
        start: Setup | None = None,
    ) -> None:
        set_language(lang)
        super().__init__()
        self.lang = lang
        self.setup, self.session, self.record = setup, session, record
        self.join, self.spectate = join, watch  # ("watch" is a Textual method's name)
        self.start = start
        self.pace = Pace(pace) if pace is not None else Pace.from_delay(delay)
        self.save_dir = save_dir or Path.cwd()
        self.last_saved: Path | None = None
        self.join_error: str | None = None  # why ``join`` failed, once it has

    def action_quit_or_ask(self) -> None:
        """Ctrl+Q: a game under way asks first (:meth:`GameScreen.action_quit_game`); any
        other screen, the dialog included, quits."""
        from sakura.tui.game_screen import GameScreen

        if isinstance(self.screen, GameScreen):
            self.screen.action_quit_game()
        else:
            self.exit()

    def on_mount(self) -> None:
        if self.lang in RTL:  # running text starts on the right (the board stays left to right)
            self.add_class("rtl")
        if self.join is not None:
            from sakura.tui.remote_screens import ConnectScreen

            self.push_screen(ConnectScreen(self.join, watch=self.spectate))
        elif self.record is not None:
            self.push_screen(replay_screen(self.record))
        elif self.session is not None:
            self.push_screen(game_screen(session=self.session))
        elif self.setup is not None:
            self.push_screen(game_screen(self.setup))
        else:
            self.push_screen(StartScreen(self.start))


def game_screen(setup: Setup | None = None, session: Session[Any] | None = None) -> Screen[None]:
    """The screen of the game ``setup`` (or ``session``) plays: each game has its own board."""
    game = session.setup.game if session is not None else setup.game if setup is not None else None
    if game == CARDS:
        from sakura.tui.cards_screens import CardsScreen

        return CardsScreen(setup, session)
    from sakura.tui.sakura_screens import SakuraScreen

    return SakuraScreen(setup, session)


def replay_screen(record: GameRecord) -> Screen[None]:
    """The replay screen for the record's game."""
    if record.game == CARDS:
        from sakura.tui.cards_screens import CardsReplayScreen

        return CardsReplayScreen(record)
    from sakura.tui.sakura_screens import SakuraReplayScreen

    return SakuraReplayScreen(record)
