"""The screens every game shares: help, pass the keyboard, end of game; and seat names.

They know nothing of a game's rules: the help text, the final standings and the winner's
line come from the game's own screen (``rules()``, ``standings()``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, RichLog, Static

from sakura.tui.i18n import N_, justify, lt, paragraph, t, tr, translate_bindings
from sakura.tui.session import HUMAN, Setup, level_of

if TYPE_CHECKING:
    from sakura.tui.game_screen import GameScreen


class GameLog(RichLog):
    """The log. It never takes the keyboard (its scroll keys would eat the game's): the
    screen's PageUp/PageDown scroll it (:class:`LogScreen`). It follows new lines until it
    is scrolled back, and again once it is paged down to its end."""

    def __init__(self, **options: Any) -> None:
        super().__init__(id="log", **options)
        self.can_focus = False
        self.follow = True

    def say(self, text: str | None) -> None:
        """Write a sentence (of one or more lines) in logical order (:func:`lt`): each line
        is wrapped to the log's width before it is shaped (:func:`paragraph`)."""
        side = justify()
        for line in text.split("\n") if text else ():
            self.write(paragraph(line), expand=side == "right", scroll_end=self.follow)

    def page(self, pages: int) -> None:
        """Scroll back (``pages`` < 0) or forward by a page."""
        for _ in range(abs(pages)):
            if pages < 0:
                self.scroll_page_up(animate=False)
            else:
                self.scroll_page_down(animate=False)
        self.follow = self.scroll_y >= self.max_scroll_y

    def first(self) -> None:
        self.follow = False
        self.scroll_home(animate=False)

    def last(self) -> None:
        self.follow = True
        self.scroll_end(animate=False)


def make_log(**options: Any) -> GameLog:
    return GameLog(**options)


class LogScreen(Screen[None]):
    """A screen with the log: PageUp/PageDown page through it by keyboard."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("pageup", "log_page(-1)", N_("Log back")),
        Binding("pagedown", "log_page(1)", N_("Log on"), show=False),
    ]

    @property
    def log_widget(self) -> GameLog:
        return self.query_one(GameLog)

    def action_log_page(self, pages: int) -> None:
        self.log_widget.page(pages)


def level_name(level: str) -> str:
    """A seat's kind in words: a strength (``beginner``...), ``human``, or a bot spec as given."""
    return {
        HUMAN: tr("human"),
        "beginner": tr("beginner bot"),
        "casual": tr("casual bot"),
        "club": tr("club bot"),
        "expert": tr("expert bot"),
        "master": tr("master bot"),
    }.get(level, level)


def kind_name(kind: str, game: str) -> str:
    """A seat's bot spec in words (``mcts:50`` in the card game is the expert bot)."""
    return level_name(level_of(kind, game) or kind)


def seat_names(setup: Setup) -> list[str]:
    return names_of_seats([spec.human for spec in setup.seats])


def names_of_seats(humans: Sequence[bool]) -> list[str]:
    """ "Player 1", "Bot 2", ...: what the game and its replay call the seats."""
    return [
        tr("Player {n}").format(n=i + 1) if human else tr("Bot {n}").format(n=i + 1)
        for i, human in enumerate(humans)
    ]


def styled_lines(lines: list[tuple[str, str]]) -> RenderableType:
    """Help text from (line, style) pairs of logical text (:func:`lt`): each line wrapped to
    the help's width, then shaped (a Persian line cut after it is reordered would lose its
    first words to the next line)."""
    if justify() == "left":
        out = Text()
        for text, style in lines:
            out.append(text + "\n", style=style)
        return out
    return Group(*(paragraph(text, style) for text, style in lines))


class HelpScreen(ModalScreen[None]):
    """The rules in brief and the keys, as the game's screen writes them."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,question_mark,q", "app.pop_screen", N_("Close"))]

    def __init__(self, text: RenderableType) -> None:
        super().__init__()
        translate_bindings(self)
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(self.text, id="help-text")
        yield Footer()


class PassScreen(Screen[None]):
    """Hot-seat: the board and hand stay hidden until the next player is at the keyboard."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space", "ready", N_("Ready"))]

    def __init__(self, name: str) -> None:
        super().__init__()
        translate_bindings(self)
        self.player_name = name

    def compose(self) -> ComposeResult:
        with Vertical(id="pass"):
            # a name is text, never markup (a web table's names are anyone's)
            name = self.player_name
            yield Static(Text(t("Pass the keyboard to {name}.", name=name)), id="pass-title")
            yield Static(Text(t("Press Enter when {name} is ready; the others look away.", name=name)))
        yield Footer()

    def action_ready(self) -> None:
        self.dismiss(None)


class QuitScreen(ModalScreen[None]):
    """Ctrl+Q in a game under way: save it and quit, quit without saving, or go on (a game
    is never lost to one key)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "save_and_quit", N_("Save and quit")),
        Binding("q,ctrl+q", "app.quit", N_("Quit")),
        Binding("escape,n", "app.pop_screen", N_("Go on")),
    ]

    def __init__(self, game: GameScreen[Any, Any]) -> None:
        super().__init__()
        translate_bindings(self)
        self.game = game

    def compose(self) -> ComposeResult:
        with Vertical(id="end"):
            yield Static(paragraph(lt("Quit the game under way?"), "bold"))
            yield Static(paragraph(lt("S: save it and quit · Q: quit without saving · Esc: go on playing")))
        yield Footer()

    def action_save_and_quit(self) -> None:
        """Save as S does; quit only once it is saved (a failed save stays, and the log says why)."""
        settings = self.game.settings
        before, settings.last_saved = settings.last_saved, None
        self.game.action_save()
        saved = settings.last_saved
        if saved is None:
            settings.last_saved = before
            self.app.pop_screen()
            return
        self.app.exit(message=lt("Saved to {path}.", path=str(saved)))


class EndScreen(ModalScreen[None]):
    """The final standings (the game's own table), the winner, and what to do next."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n,enter", "again", N_("Play again")),
        Binding("s", "save", N_("Save")),
        Binding("q,ctrl+q", "app.quit", N_("Quit")),
    ]

    def __init__(self, game: GameScreen[Any, Any]) -> None:
        super().__init__()
        translate_bindings(self)
        self.game = game

    def compose(self) -> ComposeResult:
        table, winner = self.game.standings()
        body: RenderableType = table
        with VerticalScroll(id="end"):
            yield Static(paragraph(winner), id="winner")  # first: the answer, then the sheet
            yield Static(body)
            yield Static(t("N or Enter: play again · S: save the record · Q: quit"))
        yield Footer()

    def action_again(self) -> None:
        self.game.play_again()

    def action_save(self) -> None:
        self.game.action_save()
        self.notify(t("Saved."))
