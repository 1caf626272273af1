"""The game screen's shared half: the turn on screen, hot-seat's hand-over, help, the end.

Every game's screen (Sakura's in :mod:`sakura.tui.sakura_screens`, the card game's in
:mod:`sakura.tui.cards_screens`) subclasses :class:`GameScreen` and adds its board, its keys
and its log sentences. The screen is *given* its play session (:mod:`sakura.tui.play`: a
game here, hot-seat, a web table's seat or a watched table), which decides who acts and
where an action goes; the screen is the session's :class:`~sakura.tui.play.Display`. A
human's key becomes an action only if the view lists it in ``legal_actions``.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Sequence
from enum import StrEnum
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar

from rich.console import RenderableType
from textual import events
from textual.binding import Binding, BindingType
from textual.css.query import NoMatches
from textual.widgets import Static

from sakura.engine import GameError, View
from sakura.tui.deadline import due_in
from sakura.tui.dialogs import EndScreen, HelpScreen, LogScreen, PassScreen, QuitScreen
from sakura.tui.hints import Hinter
from sakura.tui.i18n import N_, lt, ltn, paragraph, tr, translate_bindings
from sakura.tui.pace import LABELS
from sakura.tui.play import EventData, Play, Settings

V = TypeVar("V", bound=View)
M = TypeVar("M", bound=StrEnum)


class Flow(StrEnum):
    """The screen's state outside a turn: someone else acts (or keys are locked), or the
    game is over. In a turn, the state is one of the game's own steps (``M``)."""

    WAIT = "wait"
    OVER = "over"


class GameScreen(LogScreen, Generic[V, M]):
    """A game being played, by the play session it is given. ``mode`` is a :class:`Flow`, or
    in ``actor``'s turn one of the game's steps ``M`` (whose keys count then)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "help", N_("Help")),
        Binding("s", "save", N_("Save")),
        Binding("h", "hint", N_("Hint")),
        Binding("p", "pace", N_("Pace")),
        Binding("space", "step", N_("Next step"), show=False),
        Binding("ctrl+q", "quit_game", N_("Quit")),
    ]

    def __init__(self, play: Play[V], settings: Settings) -> None:
        super().__init__()
        translate_bindings(self)
        self.play = play
        self.settings = settings
        self.names = play.names()
        self.mode: Flow | M = Flow.WAIT
        self.actor: int | None = None  # whose keys count now
        self.shown: int | None = None  # whose hand was last on screen
        self.busy = False
        self.prompt_text = ""  # the prompt as the flow set it
        self.prompt_said = ""  # what the prompt says (a hint's progress shows there meanwhile)
        self._hinter = Hinter(self)
        self._unwritten: list[str | None] = []

    # ------------------------------------------------------------------ what a game adds

    def refresh_board(self, view: V | None = None) -> None:
        """Redraw the board, the hand and the status from a view (the actor's by default)."""
        raise NotImplementedError

    def begin_turn(self, seat: int) -> None:
        """``seat``'s keys count from now: set the mode and the prompt from its view."""
        raise NotImplementedError

    async def game_key(self, key: str, char: str | None) -> None:
        """A key pressed while ``actor`` may act (``mode`` is one of the game's)."""
        raise NotImplementedError

    def sentence(self, event: dict[str, Any], you: int | None) -> str | None:
        """One event (its dict form, as ``you`` may see it) in words, or ``None``."""
        raise NotImplementedError

    def rules(self) -> RenderableType:
        """The help screen's text: the rules in brief and the keys."""
        raise NotImplementedError

    def standings(self) -> tuple[RenderableType, str]:
        """The end screen's table of final standings and its line naming the winner(s), in
        logical order (:func:`~sakura.tui.i18n.lt`: it is shaped where it is shown)."""
        raise NotImplementedError

    def start(self) -> None:
        """What the log says when a game here starts (after the seed)."""

    def stale_turn(self, view: V) -> bool:
        """Whether the turn on screen no longer matches ``view``'s decision (a web table's
        update may ask another kind of decision of the same seat)."""
        return False

    async def tell(self, events: Sequence[EventData], snapshots: list[V] | None, *, others: bool) -> None:
        """One action's events in the log, as the log's viewer may see them; the board
        after them where the game is played here (a web table's view comes after)."""
        for event in events:
            self.write(self.sentence(dict(event), self.log_viewer))
        if snapshots is not None:
            self.refresh_board()
        if others:
            await self.after_other()

    async def after_other(self) -> None:
        """After a move not made at this keyboard: a pause for the eye, if the game wants one."""

    # ------------------------------------------------------------------ showing

    @property
    def hinter(self) -> Hinter:
        return self._hinter

    @property
    def log_viewer(self) -> int | None:
        """Whose eyes the log is written for: the one human, or nobody's (hot-seat)."""
        return self.play.viewer

    @property
    def acting(self) -> bool:
        return self.actor is not None and self.mode not in (Flow.WAIT, Flow.OVER)

    def who(self, seat: int) -> str:
        return self.names[seat]

    def away(self) -> frozenset[int]:
        """The seats whose player has left the table (a web table's presence; none here)."""
        return self.play.away()

    def hidden_caption(self) -> str:
        """What the hand's place says when no hand may be shown."""
        if self.play.hot_seat:
            return lt("(the hand is hidden until its player takes the keyboard)")
        return lt("(you are watching: every hand is hidden)")

    def prompt(self, text: str) -> None:
        self.prompt_text = text
        self.prompt_again()

    def prompt_again(self) -> None:
        """The prompt, and while this seat is due at a table with a move timer, the time left
        (at a turn-based table: when the move is due, in hours or days)."""
        text = self.prompt_text
        left = self.play.time_left() if self.acting else None
        if left is not None and self.play.turn_based:
            text += "\n" + due_in(left)
        elif left is not None:
            text += "\n" + ltn("{n} second left to decide.", "{n} seconds left to decide.", left)
        self.prompt_said = text
        self.prompt_line(text)

    def prompt_line(self, text: str) -> None:
        """Show ``text`` (logical order, :func:`lt`) in the prompt for a moment (a hint's
        progress) without it being the prompt; shaped once, after wrapping."""
        self.query_one("#prompt", Static).update(paragraph(text, "bold"))

    def write(self, text: str | None) -> None:
        """A line in the log. A line that arrives before the log is mounted (a web table's
        presence news can come first) waits and is written with the next one."""
        try:
            log = self.log_widget
        except NoMatches:
            self._unwritten.append(text)
            return
        for early in self._unwritten:
            log.say(early)
        self._unwritten.clear()
        log.say(text)

    def whole(self) -> bool:
        """Whether the screen's widgets are there: not while the app closes, whose widgets go
        one by one before the socket's listener and the countdown's timer stop (CI saw both
        find widgets gone)."""
        return bool(self.query("#log")) and bool(self.query("#prompt"))

    def tick(self) -> None:
        """The countdown's second: the prompt again, unless the screen is being taken down."""
        if self.whole():
            self.prompt_again()

    def work(self, job: Coroutine[Any, Any, object], *, group: str, exclusive: bool = False) -> None:
        self.run_worker(job, group=group, exclusive=exclusive)

    def every_second(self, callback: Callable[[], None]) -> None:
        self.set_interval(1, callback)

    def saved(self, path: Path) -> None:
        self.settings.last_saved = path
        self.write(lt("Saved to {path}.", path=str(path)))

    # ------------------------------------------------------------------ the turn on screen

    def on_mount(self) -> None:
        self.play.open(self)

    async def on_unmount(self) -> None:
        await self.play.close()

    def offer_turn(self, seat: int) -> None:
        if self.mode == Flow.WAIT or self.actor is None or self.stale_turn(self.play.view(seat)):
            self.begin_turn(seat)

    def hand_over(self, seat: int) -> None:
        self.hold_keys(keep_actor=False)
        self.refresh_board()
        self.prompt("")
        self.app.push_screen(PassScreen(self.who(seat)), lambda _: self.begin_turn(seat))

    def hold_keys(self, *, keep_actor: bool) -> None:
        if self.mode != Flow.OVER:
            self.mode = Flow.WAIT
        if not keep_actor:
            self.actor = None

    def wait(self, seats: Sequence[int], *, keep_actor: bool) -> None:
        self.hold_keys(keep_actor=keep_actor)
        self.prompt(lt("{name} is thinking…", name=", ".join(self.who(s) for s in seats)))

    async def submit(self, action: str) -> None:
        """Play ``action`` for the actor if its view lists it, through the play session."""
        seat = self.actor
        assert seat is not None
        if action not in self.legal(seat):
            self.write(lt("That is not possible now."))
            return
        await self.play.submit(self, seat, action)

    def legal(self, seat: int) -> tuple[str, ...]:
        return tuple(self.play.view(seat).legal_actions)

    def play_again(self) -> None:
        """From the end screen: another game, as the play session offers it."""
        self.play.again(self)

    def game_over(self) -> None:
        if self.mode == Flow.OVER:
            return
        self.mode, self.actor = Flow.OVER, None
        self.refresh_board()
        self.prompt(lt("The game is over."))
        self.app.push_screen(EndScreen(self))

    # ------------------------------------------------------------------ keys

    async def on_key(self, event: events.Key) -> None:
        if self.busy or not self.acting or event.key in self.active_bindings:
            return  # a bound key (help, save, quit) goes on to its binding
        # The game takes the key: it must not bubble on to the app's bindings, which by then
        # may be the end screen's (Enter there means "play again").
        event.stop()
        event.prevent_default()
        try:
            await self.game_key(event.key, event.character)
        except GameError as exc:
            self.write(str(exc))

    def action_quit_game(self) -> None:
        """Ctrl+Q: a game under way here asks first (save and quit, quit, or go on); a game
        that is over, or one at a web table (the server keeps it), quits at once."""
        if self.mode == Flow.OVER or not self.play.asks_before_quit():
            self.app.exit()
            return
        self.app.push_screen(QuitScreen(self))

    def action_hint(self) -> None:
        """Each legal action's estimated chance of winning, from the acting seat's view."""
        self.hinter.ask()

    def action_pace(self) -> None:
        """P: the next pace (normal, slow, step by step, fast), said in the log."""
        pace = self.settings.pace
        pace.cycle()
        self.write(tr(LABELS[pace.name]))

    def action_step(self) -> None:
        """Space, step by step: the round goes on to its next step."""
        self.settings.pace.step()

    async def beat(self) -> None:
        """The pause after one step of a round (the app's pace); step by step, the prompt
        says which key goes on while it waits."""
        pace = self.settings.pace
        if pace.stepping:
            self.prompt_line(lt("Space: the next step · P: the pace"))
        await pace.beat()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.rules()))

    def action_save(self) -> None:
        self.play.save(self)
