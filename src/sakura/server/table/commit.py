"""A table's commit path: an action checked by the engine, stored, and only then told.

Two states are kept. ``head`` has every accepted action: the next action is checked and
applied (under the table's lock) to a clone of it, which becomes the new head, and the action is
queued for the database (:class:`~sakura.server.db.GroupCommit`). ``state`` has the stored
actions only: once the action's transaction commits, its clone becomes ``state`` and only then
do clients hear of it. So a table does not wait for one action's commit to accept the next
(four players choosing at once are stored together), and clients never see an action the
database does not hold. If the write fails, the head falls back to ``state`` (and the actions
queued on top of the failed one fail too): the player gets an ``error`` (code ``storage``) and
the table is exactly as it was, in memory and on disk alike, ready for the next try.

At construction the stored actions are replayed through the engine (event sourcing); one that
does not replay leaves the table ``damaged``, playable no more, its record still readable.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sakura.engine import Event, Game, GameError, State
from sakura.server import history
from sakura.server.database import one_line
from sakura.server.db import ActionWrite, GroupCommit, StoredTable
from sakura.server.deadlines import DeadlineWrite
from sakura.server.errors import TableError

log = logging.getLogger("sakura.server")

STORAGE = "the server could not save this move, so it did not happen; please try again"


@dataclass(frozen=True, slots=True)
class Stored:
    """An action once its write has committed: what the table tells everyone."""

    seat: int
    action: str
    by: str  # "player", "bot" or "timer"
    events: list[Event]
    finished: bool  # this action ended the game
    deadline: DeadlineWrite | None = None  # the deadline row stored with it (turn-based), if any


class Commits:
    """The states, the stored actions and the way from one to the next (see the module
    docstring). ``lease``: the lease the table is owned under (many processes), written with
    each action so that the database refuses a stale owner's."""

    def __init__(self, table_id: str, game: Game[Any], stored: StoredTable, writer: GroupCommit) -> None:
        self.table_id, self.game, self.seed, self.writer = table_id, game, stored.seed, writer
        self.state: State[Any] = game.new_initial_state(stored.seed)
        self.seq = 0
        self.damaged: str | None = None  # why its stored actions do not replay, if they do not
        for seat, text in stored.actions:
            try:
                self.state.apply_action(seat, game.parse_action(text))
            except GameError as exc:
                self.damaged = (
                    f"stored action {self.seq + 1} ({text!r} by seat {seat + 1}) does not replay: {exc}"
                )
                break
            self.seq += 1
        self.actions: list[tuple[int, str]] = list(stored.actions[: self.seq])  # stored and replayed
        # the indexes of those actions a bot made when a player's time ran out
        self.timed: set[int] = {i for i, by in enumerate(stored.actors[: self.seq]) if by == "timer"}
        # every accepted action, stored or on its way: never changed in place, so it may share
        self.head, self.head_seq = self.state, self.seq
        self.lease: int | None = None
        self._history: dict[int | None, tuple[int, list[dict[str, Any]]]] = {}  # viewer -> (seq, past)

    def apply(
        self,
        seat: int,
        text: str,
        by: str,
        told: Callable[[Stored], None],
        plan: Callable[[State[Any], State[Any]], DeadlineWrite | None] | None = None,
    ) -> asyncio.Future[None]:
        """Under the table's lock: the engine on a clone of the head (it raises, as an
        ``illegal`` TableError, before changing anything); the clone becomes the head and the
        action is queued for the database, with ``plan(before, after)``: the deadline row it
        leaves (stored in its transaction). ``told`` runs once it is stored; the returned future
        ends then, or when it could not be."""
        try:
            action = self.game.parse_action(text)
            state = self.head.clone()
            events = state.apply_action(seat, action)
        except GameError as exc:
            raise TableError(str(exc), "illegal") from None
        seq = self.head_seq + 1
        deadline = None if plan is None else plan(self.head, state)
        finished = state.is_terminal() and not self.head.is_terminal()
        done = Stored(seat, str(action), by, events, finished, deadline)
        self.head, self.head_seq = state, seq

        def stored(error: BaseException | None) -> None:  # called in order, on the event loop
            if error is not None:
                log.error("table %s: could not store action %d: %s", self.table_id, seq, one_line(error))
                self.head, self.head_seq = self.state, self.seq  # back to what is stored
                return
            self.state, self.seq = state, seq
            self.actions.append((seat, done.action))
            if by == "timer":
                self.timed.add(len(self.actions) - 1)
            told(done)

        write = ActionWrite(self.table_id, seq, seat, done.action, by, done.finished, self.lease, deadline)
        return self.writer.submit(write, stored)

    @staticmethod
    async def wait(stored: asyncio.Future[None]) -> None:
        """Until the action is stored; a ``storage`` TableError if it could not be."""
        try:
            await stored
        except Exception:
            raise TableError(STORAGE, "storage") from None

    def past(self, viewer: int | None) -> list[dict[str, Any]]:
        """The table's past as ``viewer`` sees it, replayed once per viewer and action (a
        thousand spectators arriving share one replay)."""
        hit = self._history.get(viewer)
        if hit is None or hit[0] != self.seq:
            hit = self._history[viewer] = (
                self.seq,
                history.past(self.game, self.seed, self.actions, viewer, self.timed),
            )
        return hit[1]
