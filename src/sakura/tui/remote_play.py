"""A web table in the terminal: :class:`RemotePlay` (a seat) and :class:`WatchPlay` (none),
both fed by a :class:`~sakura.tui.remote.RemoteSession` (the connection).

Nothing here decides a rule: a turn opens when the server's view lists legal actions, the
log is the server's events as this seat may see them, and the board is the server's view.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import httpx
from textual.css.query import NoMatches

from sakura.bots import Advice
from sakura.engine import Event, View
from sakura.records import GameRecord
from sakura.tui.dialogs import seat_names
from sakura.tui.i18n import lt, t
from sakura.tui.navigation import OpenTable
from sakura.tui.play import Display, Play
from sakura.tui.remote import JoinTarget, Message, RemoteSession
from sakura.tui.session import Setup

V = TypeVar("V", bound=View)


class RemotePlay(Generic[V]):
    """One seat at a web table: its keys send actions, the server's messages move the game."""

    hot_seat = False

    def __init__(self, link: RemoteSession[V]) -> None:
        self.link = link
        self.sent = False  # an action is on its way and not answered yet
        self.present: frozenset[int] = frozenset()  # the seats away, as last told in the log
        self.display: Display[V] | None = None

    @property
    def setup(self) -> Setup:
        return self.link.setup

    @property
    def seed(self) -> str:
        return self.link.seed

    @property
    def humans(self) -> tuple[int, ...]:
        return self.link.humans

    @property
    def viewer(self) -> int | None:
        return self.link.seat

    @property
    def turn_based(self) -> bool:
        """The table has a pace (``table.pace``, docs/turn-based.md): a deadline hours or days away."""
        return self.link.table.get("pace") is not None

    def names(self) -> list[str]:
        return [self.link.seat_name(i) or n for i, n in enumerate(seat_names(self.setup))]

    def view(self, seat: int | None) -> V:
        return self.link.view(seat)

    def terminal(self) -> bool:
        return self.link.terminal()

    def away(self) -> frozenset[int]:
        return self.link.away()

    # ------------------------------------------------------------------ opening

    def open(self, display: Display[V]) -> None:
        self.display = display
        self.present = self.link.away()
        self.greet(display)
        if self.link.claimed and self.link.token is not None:
            display.write(
                lt(
                    "Your personal link (to come back to this seat): {link}",
                    link=self.link.target.personal_link(self.link.token),
                )
            )
        display.refresh_board()
        self.follow(display)
        display.work(self.link.listen(self.handle_live, display.write), group="network")
        display.every_second(self.tick)  # the move timer's countdown, if the table has one

    def greet(self, display: Display[V]) -> None:
        assert self.link.seat is not None
        display.write(
            lt("Table {table}: you play seat {n}.", table=self.link.target.table, n=self.link.seat + 1)
        )
        if self.turn_based:
            display.write(
                lt(
                    "A turn-based table: each move has a deadline hours or days away; you may "
                    "leave and come back with your personal link before it."
                )
            )

    async def close(self) -> None:
        await self.link.close()

    # ------------------------------------------------------------------ the server's messages

    async def handle_live(self, message: Message) -> None:
        """:meth:`handle`, unless the screen is being taken down (the app closing while a
        message is on its way): its widgets are gone then, and the message has no one to show."""
        try:
            await self.handle(message)
        except NoMatches:
            if self.display is None or self.display.whole():  # a real fault
                raise

    def tick(self) -> None:
        """The countdown's second: the prompt again, unless the screen is being taken down."""
        if self.display is not None and self.display.whole():
            self.display.prompt_again()

    async def handle(self, message: Message) -> None:
        display = self.display
        assert display is not None, "a message before the screen opened"
        kind = message.get("type")
        if kind == "welcome":
            self.link.welcome(message)
            self.sent = False
            display.names = self.names()
            display.hold_keys(keep_actor=True)
        elif kind == "update":
            display.busy = True  # keys wait until the update is shown and its view taken
            try:
                others = message.get("seat") != self.link.seat
                await display.tell(message.get("events") or (), None, others=others)
                self.link.take(message)
            finally:
                display.busy = False
            if message.get("seat") == self.link.seat:
                self.sent = False
                if message.get("by") == "timer":
                    display.write(lt("Time is up: a bot played for you."))
        elif kind == "table":
            self.link.table = message.get("table") or self.link.table
            display.names = self.names()
            self.tell_presence(display)
        elif kind == "rematch":
            self.to_rematch(display, message)
            return
        elif kind == "hint_progress":
            display.hinter.progress(message)
            return
        elif kind == "hint":
            display.hinter.answer(message)
            return
        elif kind == "error":
            display.hinter.refused()
            display.write(lt("The server says: {reason}", reason=str(message.get("message") or "")))
            self.sent = False
            display.hold_keys(keep_actor=True)
        else:
            return
        display.refresh_board()
        self.follow(display)

    def tell_presence(self, display: Display[V]) -> None:
        """A line in the log when a player leaves the table or comes back."""
        away = self.link.away()
        for seat in sorted(away - self.present):
            display.write(lt("{name} is away.", name=display.who(seat)))
        for seat in sorted(self.present - away):
            display.write(lt("{name} is back.", name=display.who(seat)))
        self.present = away

    def follow(self, display: Display[V]) -> None:
        """Open this seat's turn when the server's view lists actions for it; else wait."""
        if self.link.terminal():
            display.game_over()
            return
        due = self.link.due_humans()
        if due and not self.sent:
            display.offer_turn(due[0])
            return
        view = self.link.view(None)
        waiting = [s for s in view.current_players if s != self.link.seat] or list(view.current_players)
        display.wait(waiting, keep_actor=False)

    # ------------------------------------------------------------------ this seat's keys

    async def submit(self, display: Display[V], seat: int, action: str) -> None:
        self.sent = True
        display.hold_keys(keep_actor=True)
        display.refresh_board()
        if not await self.link.act(action):
            self.sent = False
            display.write(lt("The connection was lost; connecting again…"))

    def preview(self, seat: int, action: str) -> list[Event] | None:
        return None  # the engine is at the server: a choice is asked as its view states it

    async def advise(
        self, seat: int, view: V, spec: str, progress: Callable[[int, int], None]
    ) -> Advice | None:
        """The server works it out: its progress and answer come as messages."""
        await self.link.send({"type": "hint"})
        return None

    def time_left(self) -> int | None:
        """From the server's ``deadline``, a Unix time (a wrong local clock shows it wrong)."""
        deadline = self.link.deadline
        return None if deadline is None else max(0, int(deadline - time.time() + 0.999))

    def record(self) -> GameRecord | None:
        return None  # the server keeps it (saved with S once the game is over)

    def save(self, display: Display[V]) -> None:
        if not self.link.terminal():
            display.write(lt("The record can be saved once the game is over."))
            return
        display.work(self.save_record(display), group="save")

    async def save_record(self, display: Display[V]) -> None:
        path = display.settings.save_dir / f"{self.link.game}-{self.link.target.table}.json"
        try:
            text = await self.link.record_text()
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        except (OSError, httpx.HTTPError) as exc:
            display.write(lt("Could not save: {error}", error=str(exc)))
            return
        display.saved(path)

    def again(self, display: Display[V]) -> None:
        """Ask the server for the rematch table (same seats)."""
        display.work(self.link.send({"type": "rematch"}), group="rematch")

    def to_rematch(self, display: Display[V], message: Message) -> None:
        table, token = message.get("table"), message.get("token")
        if not isinstance(table, str) or not isinstance(token, str):
            display.write(lt("The server says: {reason}", reason=f"rematch {table}"))
            return
        display.post_message(OpenTable(JoinTarget(self.link.target.base, table, token).personal_link(token)))

    def asks_before_quit(self) -> bool:
        return False  # the server keeps the game


class WatchPlay(RemotePlay[V]):
    """A web table watched: the spectator's view and events; no key plays, no hint, no rematch."""

    def greet(self, display: Display[V]) -> None:
        table = self.link.target.table
        if self.link.no_free_seat:
            display.write(lt("Every seat of table {table} is taken.", table=table))
        display.write(
            lt("You are watching table {table}: the hands are hidden, the keys play nothing.", table=table)
        )

    def again(self, display: Display[V]) -> None:
        display.notify(t("You watched this game: a rematch is for its players."))


def remote_play(link: RemoteSession[Any]) -> Play[Any]:
    """The play session of a connected table: the seat's, or a watcher's."""
    return WatchPlay(link) if link.seat is None else RemotePlay(link)
