"""The game screen's shared half: whose turn it is, bots, hot-seat, saving, help and the end.

Every game's screen (Sakura's in :mod:`sakura.tui.sakura_screens`, the card game's in
:mod:`sakura.tui.cards_screens`) subclasses :class:`GameScreen` and adds its board, its keys
and its log sentences. The flow here speaks only the game protocol: the engine says who must
act (``current_players``), bots act from their own views off the UI thread, a human's key
becomes an action only if the view lists it in ``legal_actions``, and a hot-seat game shows
the pass-the-keyboard screen before a human other than the one at the keyboard acts.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from rich.console import RenderableType
from textual import events
from textual.binding import Binding, BindingType
from textual.css.query import NoMatches
from textual.widgets import Static

from sakura.engine import Event, GameError, View
from sakura.tui.dialogs import EndScreen, HelpScreen, LogScreen, PassScreen, seat_names
from sakura.tui.i18n import N_, lt, ltn, paragraph, tr, translate_bindings
from sakura.tui.pace import LABELS
from sakura.tui.session import GameSource, Session, Setup

if TYPE_CHECKING:
    from sakura.tui.app import SakuraApp

V = TypeVar("V", bound=View)


class GameScreen(LogScreen, Generic[V]):
    """A game being played. ``mode`` is ``wait`` (someone else acts, or keys are locked),
    ``over``, or one of the game's own modes in which ``actor``'s keys count."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "help", N_("Help")),
        Binding("s", "save", N_("Save")),
        Binding("h", "hint", N_("Hint")),
        Binding("p", "pace", N_("Pace")),
        Binding("space", "step", N_("Next step"), show=False),
        Binding("ctrl+q", "quit_game", N_("Quit")),
    ]
    SAVE_PREFIX: ClassVar[str] = "sakura"

    def __init__(self, setup: Setup | None = None, session: GameSource[V] | None = None) -> None:
        super().__init__()
        translate_bindings(self)
        if session is None:
            assert setup is not None
            seed = setup.seed if setup.seed is not None else random.SystemRandom().randrange(10**9)
            session = Session(setup, seed=seed)
        self.session: GameSource[V] = session
        self.names = seat_names(session.setup)
        self.mode = "wait"
        self.actor: int | None = None  # whose keys count now
        self.shown: int | None = None  # hot-seat: whose hand may be on screen
        self.busy = False
        self.prompt_said = ""  # what the prompt says (a hint's progress shows there meanwhile)
        from sakura.tui.hints import Hinter

        self.hinter = Hinter(self)

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
        """What the log says when a local game starts (after the seed)."""

    # ------------------------------------------------------------------ showing

    @property
    def sakura_app(self) -> SakuraApp:
        from sakura.tui.app import SakuraApp

        assert isinstance(self.app, SakuraApp)
        return self.app

    @property
    def local(self) -> Session[V]:
        """The session played here (the flow's bots, applying and saving need it)."""
        assert isinstance(self.session, Session), "a game at a web table is played by the server"
        return self.session

    @property
    def log_viewer(self) -> int | None:
        """Whose eyes the log is written for: the one human, or nobody's (hot-seat)."""
        humans = self.session.humans
        return humans[0] if len(humans) == 1 else None

    @property
    def acting(self) -> bool:
        return self.actor is not None and self.mode not in ("wait", "over")

    def who(self, seat: int) -> str:
        return self.names[seat]

    def away(self) -> frozenset[int]:
        """The seats whose player has left the table (a web table's presence; none here)."""
        return frozenset()

    def hidden_caption(self) -> str:
        """What the hand's place says when no hand may be shown."""
        if self.session.hot_seat:
            return lt("(the hand is hidden until its player takes the keyboard)")
        return lt("(you are watching: every hand is hidden)")

    def prompt(self, text: str) -> None:
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
            self.__dict__.setdefault("_unwritten", []).append(text)
            return
        for early in self.__dict__.pop("_unwritten", []):
            log.say(early)
        log.say(text)

    # ------------------------------------------------------------------ flow

    def on_mount(self) -> None:
        moves = len(self.local.recorder.moves)
        if moves:  # a resumed game goes on; it is not new
            self.earlier_log()
            self.write(
                ltn(
                    "The saved game of seed {seed} goes on after {n} move.",
                    "The saved game of seed {seed} goes on after {n} moves.",
                    moves,
                    seed=self.session.seed,
                )
            )
        else:
            self.write(lt("A new game: seed {seed}.", seed=self.session.seed))
        self.start()
        self.refresh_board()
        self.run_worker(self.advance(), exclusive=True)

    def earlier_log(self) -> None:
        """A resumed game's log up to now, as its viewer saw it: the record's moves played
        again from its first position, each event told as :meth:`play_events` tells it."""
        session = self.local
        state = session.game.state_from_json(session.recorder.initial)
        for move in session.recorder.moves:
            for event in state.apply_action(move.player, session.game.parse_action(move.action)):
                self.write(self.sentence(event.seen_by(self.log_viewer).to_dict(), self.log_viewer))

    async def play_events(self, events: list[Event], snapshots: list[V]) -> None:
        """Write the events of one action into the log, as the log's viewer may see them."""
        for event in events:
            self.write(self.sentence(event.seen_by(self.log_viewer).to_dict(), self.log_viewer))
        self.refresh_board()

    async def advance(self) -> None:
        """Let bots act until a human must, then wait for that human's keys."""
        self.busy = True
        try:
            session = self.local
            while not session.terminal():
                bots = session.due_bots()
                if bots:
                    seat = bots[0]
                    self.mode = "wait"
                    if session.hot_seat:
                        self.actor = None
                    self.prompt(lt("{name} is thinking…", name=self.who(seat)))
                    action = await asyncio.to_thread(session.bot_action, seat)
                    snaps: list[V] = []
                    events = session.apply(seat, action, snaps, self.log_viewer)
                    await self.play_events(events, snaps)
                    await self.after_bot()
                    continue
                seat = session.due_humans()[0]
                if session.hot_seat and seat != self.shown:
                    self.actor, self.mode = None, "wait"
                    self.refresh_board()
                    self.prompt("")
                    self.app.push_screen(
                        PassScreen(self.who(seat)), lambda _, seat=seat: self.begin_turn(seat)
                    )
                    return
                self.begin_turn(seat)
                return
            self.game_over()
        finally:
            self.busy = False

    async def after_bot(self) -> None:
        """A pause after a bot's action, for the eye (none in tests)."""

    async def submit(self, action: str) -> None:
        """Play ``action`` for the actor if its view lists it; then let the game go on."""
        seat = self.actor
        assert seat is not None
        session = self.local
        if action not in self.legal(seat):
            self.write(lt("That is not possible now."))
            return
        self.busy = True
        self.mode = "wait"
        if session.hot_seat:
            self.actor = None
        snaps: list[V] = []
        events = session.apply(seat, action, snaps, self.log_viewer)
        # Told in a worker: a key handler that waited for the round's steps would hold the
        # screen's queue, and the Space that lets a step go on would never be read.
        self.run_worker(self.tell_then_advance(events, snaps), exclusive=True)

    async def tell_then_advance(self, events: list[Event], snapshots: list[V]) -> None:
        await self.play_events(events, snapshots)
        self.busy = False
        await self.advance()

    def legal(self, seat: int) -> tuple[str, ...]:
        return tuple(self.session.view(seat).legal_actions)

    def play_again(self) -> None:
        """From the end screen: the start screen, set up as this game was (a new deal)."""
        from sakura.tui.start import StartScreen

        setup = replace(self.session.setup, seed=None)
        self.app.pop_screen()
        self.app.switch_screen(StartScreen(setup))

    def game_over(self) -> None:
        self.mode, self.actor = "over", None
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
        """Ctrl+Q: a local game under way asks first (save and quit, quit, or go on); a game
        that is over, or one at a web table (the server keeps it), quits at once."""
        from sakura.tui.dialogs import QuitScreen

        if self.mode == "over" or not isinstance(self.session, Session) or self.session.terminal():
            self.app.exit()
            return
        self.app.push_screen(QuitScreen(self))

    def action_hint(self) -> None:
        """Each legal action's estimated chance of winning, from the acting seat's view."""
        self.hinter.ask()

    def action_pace(self) -> None:
        """P: the next pace (normal, slow, step by step, fast), said in the log."""
        pace = self.sakura_app.pace
        pace.cycle()
        self.write(tr(LABELS[pace.name]))

    def action_step(self) -> None:
        """Space, step by step: the round goes on to its next step."""
        self.sakura_app.pace.step()

    async def beat(self) -> None:
        """The pause after one step of a round (the app's pace); step by step, the prompt
        says which key goes on while it waits."""
        pace = self.sakura_app.pace
        if pace.stepping:
            self.prompt_line(lt("Space: the next step · P: the pace"))
        await pace.beat()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.rules()))

    def save_round(self) -> int:
        return self.session.view(None).progress.round

    def action_save(self) -> None:
        session = self.local
        path = self.sakura_app.save_dir / f"{self.SAVE_PREFIX}-{session.seed}-r{self.save_round()}.json"
        try:
            session.save(path)
        except OSError as exc:
            self.write(lt("Could not save: {error}", error=str(exc)))
            return
        self.sakura_app.last_saved = path
        self.write(lt("Saved to {path}.", path=str(path)))
