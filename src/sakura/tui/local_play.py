"""A game played here: :class:`LocalPlay` (one human against bots) and :class:`HotSeatPlay`
(several humans passing the keyboard), both over a :class:`~sakura.tui.session.Session`.

The flow speaks only the game protocol: the engine says who must act (``current_players``),
bots act from their own views off the UI thread, and a human's action is applied once the
screen has checked that the view lists it. A hot-seat game hands the keyboard over (the
pass screen) before a human other than the one at it acts.
"""

from __future__ import annotations

import asyncio
import random
import zlib
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Generic, TypeVar

from sakura.bots import Advice, advise
from sakura.engine import Event, View
from sakura.records import GameRecord
from sakura.tui.dialogs import seat_names
from sakura.tui.i18n import lt, ltn
from sakura.tui.navigation import OpenStart
from sakura.tui.play import Display, Play
from sakura.tui.session import Session, Setup

V = TypeVar("V", bound=View)


class LocalPlay(Generic[V]):
    """One human (or none yet: a resumed game's seats as saved) against the bots, here."""

    hot_seat = False
    turn_based = False  # a game here has no pace: only a web table may be turn-based

    def __init__(self, session: Session[V]) -> None:
        self.session = session

    @property
    def setup(self) -> Setup:
        return self.session.setup

    @property
    def seed(self) -> int:
        return self.session.seed

    @property
    def humans(self) -> tuple[int, ...]:
        return self.session.humans

    @property
    def viewer(self) -> int | None:
        humans = self.humans
        return humans[0] if len(humans) == 1 else None

    def names(self) -> list[str]:
        return seat_names(self.setup)

    def view(self, seat: int | None) -> V:
        return self.session.view(seat)

    def terminal(self) -> bool:
        return self.session.terminal()

    def away(self) -> frozenset[int]:
        return frozenset()

    # ------------------------------------------------------------------ the flow

    def open(self, display: Display[V]) -> None:
        moves = len(self.session.recorder.moves)
        if moves:  # a resumed game goes on; it is not new
            self.earlier_log(display)
            display.write(
                ltn(
                    "The saved game of seed {seed} goes on after {n} move.",
                    "The saved game of seed {seed} goes on after {n} moves.",
                    moves,
                    seed=self.seed,
                )
            )
        else:
            display.write(lt("A new game: seed {seed}.", seed=self.seed))
        display.start()
        display.refresh_board()
        display.work(self.advance(display), group="flow", exclusive=True)

    def earlier_log(self, display: Display[V]) -> None:
        """A resumed game's log up to now, as its viewer saw it: the record's moves played
        again from its first position, each event told as the game tells it."""
        session, viewer = self.session, self.viewer
        state = session.game.state_from_json(session.recorder.initial)
        for move in session.recorder.moves:
            for event in state.apply_action(move.player, session.game.parse_action(move.action)):
                display.write(display.sentence(event.seen_by(viewer).to_dict(), viewer))

    async def close(self) -> None:
        """Nothing to let go of: the game lives in this process."""

    async def advance(self, display: Display[V]) -> None:
        """Let bots act until a human must, then open that human's turn."""
        display.busy = True
        try:
            session = self.session
            while not session.terminal():
                bots = session.due_bots()
                if bots:
                    seat = bots[0]
                    display.wait([seat], keep_actor=not self.hot_seat)
                    action = await asyncio.to_thread(session.bot_action, seat)
                    await self.play(display, seat, action, others=True)
                    continue
                self.turn(display, session.due_humans()[0])
                return
            display.game_over()
        finally:
            display.busy = False

    def turn(self, display: Display[V], seat: int) -> None:
        """A human must act: the keyboard is theirs (one human: it always is)."""
        display.begin_turn(seat)

    async def play(self, display: Display[V], seat: int, action: Any, *, others: bool) -> None:
        snapshots: list[V] = []
        events = self.session.apply(seat, action, snapshots, self.viewer)
        await self.tell(display, events, snapshots, others=others)

    async def tell(
        self, display: Display[V], events: list[Event], snapshots: list[V], *, others: bool
    ) -> None:
        seen = [event.seen_by(self.viewer).to_dict() for event in events]
        await display.tell(seen, snapshots, others=others)

    async def submit(self, display: Display[V], seat: int, action: str) -> None:
        display.busy = True
        display.hold_keys(keep_actor=not self.hot_seat)
        snapshots: list[V] = []
        events = self.session.apply(seat, action, snapshots, self.viewer)
        # Told in a worker: a key handler that waited for the round's steps would hold the
        # screen's queue, and the Space that lets a step go on would never be read.
        display.work(self.tell_then_advance(display, events, snapshots), group="flow", exclusive=True)

    async def tell_then_advance(self, display: Display[V], events: list[Event], snapshots: list[V]) -> None:
        await self.tell(display, events, snapshots, others=False)
        display.busy = False
        await self.advance(display)

    # ------------------------------------------------------------------ help around it

    def preview(self, seat: int, action: str) -> list[Event]:
        return self.session.preview(seat, action)

    async def advise(self, seat: int, view: V, spec: str, progress: Callable[[int, int], None]) -> Advice:
        """The hint level's search from ``seat``'s view, in a thread (its seed is the
        deal's and the number of moves made: the same position, the same hint)."""
        moves = len(self.session.recorder.moves)
        return await asyncio.to_thread(
            advise,
            self.session.game,
            view,
            spec,
            seed=zlib.crc32(f"{self.seed}:{moves}".encode()),
            progress=progress,
        )

    def time_left(self) -> int | None:
        return None

    def record(self) -> GameRecord:
        return self.session.record()

    def save(self, display: Display[V]) -> None:
        """The record as it stands, named for the game, its seed and its round."""
        round_ = self.view(None).progress.round
        path = display.settings.save_dir / f"{self.setup.game}-{self.seed}-r{round_}.json"
        try:
            self.session.save(path)
        except OSError as exc:
            display.write(lt("Could not save: {error}", error=str(exc)))
            return
        display.saved(path)

    def again(self, display: Display[V]) -> None:
        """The start screen, set up as this game was (a new deal)."""
        display.post_message(OpenStart(replace(self.setup, seed=None)))

    def asks_before_quit(self) -> bool:
        return not self.terminal()


class HotSeatPlay(LocalPlay[V]):
    """Several humans at one keyboard: the hands stay hidden while a bot thinks, and the
    keyboard is handed over before a human other than the one at it acts."""

    hot_seat = True

    def __init__(self, session: Session[V]) -> None:
        super().__init__(session)
        self.at_keyboard: int | None = None

    def turn(self, display: Display[V], seat: int) -> None:
        if seat == self.at_keyboard:
            display.begin_turn(seat)
            return
        self.at_keyboard = seat
        display.hand_over(seat)


def local_play(session: Session[Any]) -> Play[Any]:
    """The play session of a game played here: hot-seat when several seats are humans'."""
    return HotSeatPlay(session) if session.hot_seat else LocalPlay(session)


def new_play(setup: Setup) -> Play[Any]:
    """A new game of ``setup`` (a random seed when it names none)."""
    seed = setup.seed if setup.seed is not None else random.SystemRandom().randrange(10**9)
    return local_play(Session(setup, seed=seed))
