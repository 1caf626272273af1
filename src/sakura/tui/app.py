"""``sakura play``: the Textual app and its entry points."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen, Screen

from sakura.records import GameRecord
from sakura.tui.cards_screens import CardsReplayScreen, CardsScreen
from sakura.tui.game_screen import GameScreen
from sakura.tui.i18n import N_, RTL, set_language
from sakura.tui.local_play import local_play, new_play
from sakura.tui.navigation import OpenGame, OpenStart, OpenTable, OpenTutorial, TableJoined
from sakura.tui.pace import Pace
from sakura.tui.play import Play, Settings
from sakura.tui.remote_play import remote_play
from sakura.tui.remote_screens import ConnectScreen
from sakura.tui.sakura_screens import SakuraReplayScreen, SakuraScreen
from sakura.tui.session import CARDS, Session, Setup
from sakura.tui.start import StartScreen
from sakura.tui.tutorial_screen import TutorialScreen

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
    slow, step or fast); without it, ``delay`` is the pause between its steps (0 in tests).

    The app is where the screens are put together: a screen that leads to another posts a
    message (:mod:`sakura.tui.navigation`), and the app builds the next screen with its play
    session (:mod:`sakura.tui.play`)."""

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
        self.settings = Settings(
            Pace(pace) if pace is not None else Pace.from_delay(delay), save_dir or Path.cwd()
        )

    @property
    def pace(self) -> Pace:
        return self.settings.pace

    @property
    def save_dir(self) -> Path:
        return self.settings.save_dir

    @property
    def last_saved(self) -> Path | None:
        """The file a save wrote last (the command says it on leaving)."""
        return self.settings.last_saved

    @last_saved.setter
    def last_saved(self, path: Path | None) -> None:
        self.settings.last_saved = path

    @property
    def join_error(self) -> str | None:
        """Why ``join`` failed, once it has."""
        return self.settings.join_error

    @join_error.setter
    def join_error(self, reason: str | None) -> None:
        self.settings.join_error = reason

    def action_quit_or_ask(self) -> None:
        """Ctrl+Q: a game under way asks first (:meth:`GameScreen.action_quit_game`); any
        other screen, the dialog included, quits."""
        if isinstance(self.screen, GameScreen):
            self.screen.action_quit_game()
        else:
            self.exit()

    def on_mount(self) -> None:
        if self.lang in RTL:  # running text starts on the right (the board stays left to right)
            self.add_class("rtl")
        if self.join is not None:
            self.push_screen(ConnectScreen(self.join, self.settings, watch=self.spectate))
        elif self.record is not None:
            self.push_screen(replay_screen(self.record))
        elif self.session is not None:
            self.push_screen(game_screen(local_play(self.session), self.settings))
        elif self.setup is not None:
            self.push_screen(game_screen(new_play(self.setup), self.settings))
        else:
            self.push_screen(StartScreen(self.start))

    # ------------------------------------------------------------------ where screens lead

    def replace_screen(self, screen: Screen[Any]) -> None:
        """``screen`` in the place of the one under the dialogs (an end panel, help)."""
        while isinstance(self.screen, ModalScreen):
            self.pop_screen()
        self.switch_screen(screen)

    def on_open_start(self, message: OpenStart) -> None:
        self.replace_screen(StartScreen(message.setup))

    def on_open_game(self, message: OpenGame) -> None:
        self.replace_screen(game_screen(new_play(message.setup), self.settings))

    def on_open_tutorial(self, message: OpenTutorial) -> None:
        self.replace_screen(TutorialScreen(self.settings))

    def on_open_table(self, message: OpenTable) -> None:
        self.replace_screen(ConnectScreen(message.url, self.settings))

    def on_table_joined(self, message: TableJoined) -> None:
        self.replace_screen(game_screen(remote_play(message.link), self.settings))


def game_screen(play: Play[Any], settings: Settings) -> Screen[None]:
    """The screen of the game ``play`` plays: each game has its own board."""
    if play.setup.game == CARDS:
        return CardsScreen(play, settings)
    return SakuraScreen(play, settings)


def replay_screen(record: GameRecord) -> Screen[None]:
    """The replay screen for the record's game."""
    if record.game == CARDS:
        return CardsReplayScreen(record)
    return SakuraReplayScreen(record)
