"""The screens of ``sakura play --join URL``: connecting, a failed join, and the game screens
fed by a :class:`~sakura.tui.remote.RemoteSession` (the server's views and events).

:class:`RemoteFlow` replaces the local flow (bots, applying, saving, playing again) by the
server's messages; each game's remote screen is that flow over the game's own local screen
(board, keys, log sentences, help and end screen), picked by the table's ``game``.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any, ClassVar, TypeVar

import httpx
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Footer, Static

from sakura.engine import View
from sakura.engine.games.cards import CardsView
from sakura.engine.games.sakura import SakuraView
from sakura.tui.cards_screens import CardsScreen
from sakura.tui.dialogs import seat_names
from sakura.tui.game_screen import GameScreen
from sakura.tui.i18n import N_, lt, ltn, paragraph, t, translate_bindings
from sakura.tui.pace import STEPS
from sakura.tui.remote import JoinError, JoinTarget, Message, RemoteSession, parse_join_url
from sakura.tui.sakura_screens import SakuraScreen
from sakura.tui.session import CARDS

V = TypeVar("V", bound=View)


class JoinFailedScreen(Screen[None]):
    """The reason a table could not be joined; any of Enter, Esc, Q leaves the app, with exit
    code 1 (``sakura play --join`` says the reason again, on stderr, and exits 1 too)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,escape,q,ctrl+q", "leave", N_("Quit"))]

    def __init__(self, reason: str) -> None:
        super().__init__()
        translate_bindings(self)
        self.reason = reason

    def compose(self) -> ComposeResult:
        with Vertical(id="pass"):
            yield Static(t("Cannot join the table."), id="pass-title")
            yield Static(paragraph(self.reason), id="join-error")  # logical (lt), shaped here
            yield Static(t("Press Enter to quit."))
        yield Footer()

    def on_mount(self) -> None:
        from sakura.tui.app import SakuraApp

        if isinstance(self.app, SakuraApp):  # for the command, which says it again on leaving
            self.app.join_error = self.reason

    def action_leave(self) -> None:
        self.app.exit(return_code=1)


class ConnectScreen(Screen[None]):
    """Take a seat (when the link has no token), connect, and open the game screen."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+q", "app.quit", N_("Quit"))]

    def __init__(self, url: str, *, watch: bool = False) -> None:
        super().__init__()
        translate_bindings(self)
        self.url = url
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
            session: RemoteSession[Any] = RemoteSession(parse_join_url(self.url), watch=self.spectate)
            await session.claim()
            await session.connect()
        except JoinError as exc:
            self.app.switch_screen(JoinFailedScreen(str(exc)))
            return
        screen = RemoteCardsScreen(session) if session.game == CARDS else RemoteGameScreen(session)
        self.app.switch_screen(screen)


class RemoteFlow(GameScreen[V]):
    """A game screen fed by the server (mixed in before the game's own screen).

    Nothing here decides a rule: a turn opens when the server's view lists legal actions,
    the log is the server's events, and the board is the server's view.
    """

    def __init__(self, session: RemoteSession[V]) -> None:
        super().__init__(session=session)
        self.remote = session
        self.sent = False  # an action is on its way and not answered yet
        self.prompt_text = ""
        self.present: frozenset[int] = frozenset()  # the seats away, as last told in the log
        self.name_seats()

    def name_seats(self) -> None:
        self.names = [self.remote.seat_name(i) or n for i, n in enumerate(seat_names(self.remote.setup))]

    def on_mount(self, event: events.Mount | None = None) -> None:
        if event is not None:
            event.prevent_default()  # not the local game's start (a seed, a bot loop)
        seat = self.remote.seat
        self.present = self.remote.away()
        if seat is None:
            if self.remote.no_free_seat:
                self.write(lt("Every seat of table {table} is taken.", table=self.remote.target.table))
            self.write(
                lt(
                    "You are watching table {table}: the hands are hidden, the keys play nothing.",
                    table=self.remote.target.table,
                )
            )
        else:
            self.write(lt("Table {table}: you play seat {n}.", table=self.remote.target.table, n=seat + 1))
        if self.remote.claimed and self.remote.token is not None:
            self.write(
                lt(
                    "Your personal link (to come back to this seat): {link}",
                    link=self.remote.target.personal_link(self.remote.token),
                )
            )
        self.refresh_board()
        self.follow()
        self.run_worker(self.remote.listen(self.handle_live, self.write), group="network")
        self.set_interval(1, self.tick)  # the move timer's countdown, if the table has one

    async def on_unmount(self) -> None:
        await self.remote.close()

    # ------------------------------------------------------------------ the server's messages

    async def handle_live(self, message: Message) -> None:
        """:meth:`handle`, unless the screen is being taken down (the app closing while a
        message is on its way): its widgets are gone then, and the message has no one to show."""
        try:
            await self.handle(message)
        except NoMatches:
            if self.whole():  # a real fault
                raise

    def tick(self) -> None:
        """The countdown's second: the prompt again, unless the screen is being taken down."""
        if self.whole():
            self.show_prompt()

    def whole(self) -> bool:
        """Whether the screen's widgets are there: not while the app closes, whose widgets go
        one by one before the socket's listener and the countdown's timer stop (CI saw both
        find widgets gone)."""
        return bool(self.query("#log")) and bool(self.query("#prompt"))

    async def handle(self, message: Message) -> None:
        kind = message.get("type")
        if kind == "welcome":
            self.remote.welcome(message)
            self.sent = False
            self.name_seats()
            if self.mode != "over":
                self.mode = "wait"
        elif kind == "update":
            self.busy = True  # keys wait until the update is shown and its view taken
            try:
                await self.play_update(message)
            finally:
                self.busy = False
            if message.get("seat") == self.remote.seat:
                self.sent = False
                if message.get("by") == "timer":
                    self.write(lt("Time is up: a bot played for you."))
        elif kind == "table":
            self.remote.table = message.get("table") or self.remote.table
            self.name_seats()
            self.tell_presence()
        elif kind == "rematch":
            self.to_rematch(message)
            return
        elif kind == "hint_progress":
            self.hinter.progress(message)
            return
        elif kind == "hint":
            self.hinter.answer(message)
            return
        elif kind == "error":
            self.hinter.refused()
            self.write(lt("The server says: {reason}", reason=str(message.get("message") or "")))
            self.sent = False
            if self.mode != "over":
                self.mode = "wait"
        else:
            return
        self.refresh_board()
        self.follow()

    def away(self) -> frozenset[int]:
        return self.remote.away()

    def tell_presence(self) -> None:
        """A line in the log when a player leaves the table or comes back."""
        away = self.remote.away()
        for seat in sorted(away - self.present):
            self.write(lt("{name} is away.", name=self.who(seat)))
        for seat in sorted(self.present - away):
            self.write(lt("{name} is back.", name=self.who(seat)))
        self.present = away

    async def play_update(self, message: Message) -> None:
        """Log the update's events (as the server sent them for this seat), take its view."""
        for event in message.get("events") or ():
            self.write(self.sentence(event, self.remote.seat))
        if message.get("seat") != self.remote.seat:
            await self.beat()
        self.remote.take(message)

    def prompt(self, text: str) -> None:
        self.prompt_text = text
        self.show_prompt()

    def show_prompt(self) -> None:
        """The prompt, and while this seat is due at a table with a move timer, the time left
        (from the server's ``deadline``, a Unix time: a wrong local clock shows it wrong)."""
        text = self.prompt_text
        deadline = self.remote.deadline
        if deadline is not None and self.acting:
            left = max(0, int(deadline - time.time() + 0.999))
            text += "\n" + ltn("{n} second left to decide.", "{n} seconds left to decide.", left)
        super().prompt(text)

    def stale_turn(self, view: V) -> bool:
        """Whether the turn on screen no longer matches the server's view of it (a game's
        screen with several kinds of decision says which)."""
        return False

    def follow(self) -> None:
        """Open this seat's turn when the server's view lists actions for it; else wait."""
        if self.remote.terminal():
            if self.mode != "over":
                self.game_over()
            return
        due = self.remote.due_humans()
        if due and not self.sent:
            if self.mode == "wait" or self.actor is None or self.stale_turn(self.remote.view(due[0])):
                self.begin_turn(due[0])
            return
        self.actor = None
        if not self.sent:
            self.mode = "wait"
        view = self.remote.view(None)
        waiting = [s for s in view.current_players if s != self.remote.seat] or list(view.current_players)
        self.prompt(lt("{name} is thinking…", name=", ".join(self.who(s) for s in waiting)))

    async def advance(self) -> None:
        self.follow()

    async def submit(self, action: str) -> None:
        seat = self.actor
        assert seat is not None
        if action not in self.remote.view(seat).legal_actions:
            self.write(lt("That is not possible now."))
            return
        self.mode, self.sent = "wait", True
        self.refresh_board()
        if not await self.remote.act(action):
            self.sent = False
            self.write(lt("The connection was lost; connecting again…"))

    def play_again(self) -> None:
        """From the end screen: ask the server for the rematch table (same seats)."""
        if self.remote.seat is None:
            self.app.notify(t("You watched this game: a rematch is for its players."))
            return
        self.run_worker(self.remote.send({"type": "rematch"}), group="rematch")

    def to_rematch(self, message: Message) -> None:
        table, token = message.get("table"), message.get("token")
        if not isinstance(table, str) or not isinstance(token, str):
            self.write(lt("The server says: {reason}", reason=f"rematch {table}"))
            return
        link = JoinTarget(self.remote.target.base, table, token).personal_link(token)
        while self.app.screen is not self:
            self.app.pop_screen()
        self.app.switch_screen(ConnectScreen(link))

    def action_save(self) -> None:
        if not self.remote.terminal():
            self.write(lt("The record can be saved once the game is over."))
            return
        self.run_worker(self.save_record(), group="save")

    async def save_record(self) -> None:
        path = self.sakura_app.save_dir / f"{self.SAVE_PREFIX}-{self.remote.target.table}.json"
        try:
            text = await self.remote.record_text()
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        except (OSError, httpx.HTTPError) as exc:
            self.write(lt("Could not save: {error}", error=str(exc)))
            return
        self.sakura_app.last_saved = path
        self.write(lt("Saved to {path}.", path=str(path)))


class RemoteGameScreen(RemoteFlow[SakuraView], SakuraScreen):
    """Sakura at a web table: during an update's events the pieces move to the places the
    events name, then the update's view is drawn; a choice is asked without a preview."""

    async def play_update(self, message: Message) -> None:
        """Log the update's events; with a delay, move the pieces event by event."""
        board = self.remote.view(None)
        you = self.remote.seat
        for event in message.get("events") or ():
            self.write(self.sentence(event, you))
            kind = event.get("type")
            if kind == "emperor_moved":
                board = replace(board, emperor=int(event["end"]))
            elif kind in ("painter_moved", "bumped") and isinstance(event.get("seat"), int):
                painters = list(board.painters)
                painters[event["seat"]] = int(event["end"])
                board = replace(board, painters=tuple(painters))
            if kind in STEPS and self.sakura_app.pace.name != "fast":
                self.refresh_board(board)
                await self.beat()
        self.remote.take(message)

    def stale_turn(self, view: SakuraView) -> bool:
        return (self.mode == "choice") != (view.pending is not None)

    def show_choice(self) -> None:
        """The choice as the server's view states it (no preview: the engine is at the server)."""
        assert self.actor is not None
        view = self.remote.view(self.actor)
        assert view.pending is not None
        _, card, part = view.pending
        self.refresh_board(view)
        self.prompt(self.choice_head(card, part))


class RemoteCardsScreen(RemoteFlow[CardsView], CardsScreen):
    """The card game at a web table: the local card screen, fed by the server."""

    def stale_turn(self, view: CardsView) -> bool:
        return (self.mode == "give") != (view.phase == "give")
