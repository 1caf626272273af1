"""A turn-based table's pace: a move may take hours or days, and a seat that runs out of time
gets what the table stated at creation.

A table created with a :class:`Pace` (``"1h"``, ``"12h"``, ``"1d"``, ``"3d"`` a move) has a
:class:`PaceClock` where a real-time table has its :class:`~sakura.server.table.clock.Clock`.
It has the same face (``seconds``, ``deadline``, ``arm``, ``stop``, ``close``), but its
deadline is a row of the process's one :class:`~.schedule.Schedule` rather than a timer of its
own, and it is per decision: a seat's deadline does not move when another seat plays, and a
restarted server keeps it. When it passes, a bot plays that move for each seat still due
(stored as the timer's move, as on a real-time table); a seat that has run out of time
``timeouts`` times is handed to the bot for good (:func:`hand_over`), and at a rated table it
counts as a leaver (``forfeit``: ranked last). Before its deadline nobody may have a bot
replace an absent player: being away for a day is how this game is played.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from enum import StrEnum
from typing import TYPE_CHECKING

from sakura.engine import Progress
from sakura.server.deadlines import DeadlineWrite
from sakura.server.turns.schedule import Schedule

if TYPE_CHECKING:
    from sakura.server.table import Table

log = logging.getLogger("sakura.server")

DEFAULT_TIMEOUTS = 3  # a seat's timeouts before a bot takes it over for good


class Pace(StrEnum):
    """The time a move may take at a turn-based table."""

    HOUR = "1h"
    HALF_DAY = "12h"
    DAY = "1d"
    THREE_DAYS = "3d"

    @property
    def seconds(self) -> float:
        """
        >>> Pace("12h").seconds, Pace.THREE_DAYS.seconds
        (43200.0, 259200.0)
        """
        return {"1h": 3600.0, "12h": 43_200.0, "1d": 86_400.0, "3d": 259_200.0}[self.value]


def decision_key(progress: Progress) -> str:
    """The decision a deadline belongs to, as stored: round, kind and the seats due.

    >>> decision_key(Progress(4, "selection", (0, 2)))
    '4:selection:0,2'
    """
    return f"{progress.round}:{progress.decision}:{','.join(map(str, progress.players))}"


def continues(old: str | None, new: str) -> bool:
    """Whether decision ``new`` is ``old`` still pending (the same round and kind, no seat newly
    due): its deadline stays.

    >>> continues("4:selection:0,2", "4:selection:2"), continues("4:selection:2", "5:selection:0,2")
    (True, False)
    """
    if old is None:
        return False
    old_round, old_kind, old_seats = old.split(":")
    new_round, new_kind, new_seats = new.split(":")
    return (old_round, old_kind) == (new_round, new_kind) and set(new_seats.split(",")) <= set(
        old_seats.split(",")
    )


class PaceClock:
    """A turn-based table's clock (see the module docstring)."""

    replaces_absent = False  # no bot for an absent player before their deadline
    keeps_deadline = True  # stored in the database: a failover goes on to it (no Redis needed)

    def __init__(self, table: Table, pace: Pace, schedule: Schedule) -> None:
        self.table = table
        self.seconds: float | None = pace.seconds
        self.schedule = schedule
        self.on_change: Callable[[], None] | None = None
        stored = schedule.stored(table.id)
        self._decision: str | None = None if stored is None else stored[1]
        self._fired: float | None = None  # the deadline last fired (fired once)
        self._task: asyncio.Task[None] | None = None

    @property
    def deadline(self) -> float | None:
        return self.schedule.deadline(self.table.id)

    def plan(self, runs: bool, after: Progress, before: Progress | None) -> DeadlineWrite | None:
        """The deadline row as a write leaves it, to be stored in that write's transaction: an
        action from decision ``before`` to ``after`` (``before`` None: a seat change, the
        decision the same), after which the clock ``runs`` or not. A new decision gets a full
        pace from now (:meth:`arm` takes it when the write is stored); None: the row stays."""
        if not runs:
            return DeadlineWrite(None) if self.deadline is not None else None
        if self.deadline is not None and (
            before is None or continues(decision_key(before), decision_key(after))
        ):
            return None  # the decision pending goes on: its deadline stays
        return DeadlineWrite((self.schedule.clock.now() + (self.seconds or 0.0), decision_key(after)))

    def arm(self, runs: bool, seconds: float | None = None, planned: DeadlineWrite | None = None) -> None:
        """For the decision now pending: its deadline kept if it is the one pending before (a
        seat played, or the server restarted), else the one ``planned`` and stored with the
        write that began it, else a full pace from now; ``seconds``: that long from now
        instead when the deadline has passed (a failed timeout's retry)."""
        if not runs:
            self.stop(stored=planned is not None and planned.due is None)
            return
        decision = decision_key(self.table.state.progress())
        now = self.schedule.clock.now()
        kept = self.deadline
        if kept is not None and continues(self._decision, decision) and (seconds is None or kept > now):
            when = kept  # the stored deadline is the truth (a failover's ``seconds`` agree with it)
        elif seconds is None and planned is not None and planned.due and planned.due[1] == decision:
            when = planned.due[0]  # begun by the write just stored, its deadline stored with it
        elif seconds is not None:
            when = now + seconds
        else:
            when = now + (self.seconds or 0.0)
        self._decision = decision
        # held while it has a deadline: a finished table swept from memory is let go
        self.schedule.hold(self.table.id, self._due)
        stored = planned is not None and planned.due == (when, decision)
        self.schedule.set(self.table.id, when, decision, stored=stored)
        if when != kept and self.on_change is not None:
            self.on_change()

    def stop(self, stored: bool = False) -> None:
        """No deadline now; ``stored``: the write that ended the decision removed its row."""
        had = self.deadline
        self.schedule.clear(self.table.id, stored=stored)
        self.schedule.release(self.table.id)
        self._decision = None
        if had is not None and self.on_change is not None:
            self.on_change()

    def close(self) -> None:
        self.schedule.release(self.table.id)

    def _due(self) -> None:
        deadline = self.deadline
        if deadline is None or deadline == self._fired or deadline > self.schedule.clock.now():
            return
        self._fired = deadline
        self._task = asyncio.get_running_loop().create_task(self._timeout())

    async def _timeout(self) -> None:
        await self.table.bots.timeout()  # a bot plays the move of each seat still due ("timer")
        await hand_over(self.table)


def timeouts_of(table: Table) -> Counter[int]:
    """How many times each seat ran out of time: its moves a bot made for it (event-sourced)."""
    return Counter(table.commits.actions[i][0] for i in table.commits.timed)


async def hand_over(table: Table) -> list[int]:
    """Give to the bot, for good, each seat that has run out of time as often as the table
    allows; at a rated table it counts as a leaver. Returns the seats handed over."""
    allowed = int(table.options.get("timeouts", DEFAULT_TIMEOUTS))
    handed = []
    async with table.lock:
        for seat, count in sorted(timeouts_of(table).items()):
            was = table.seats[seat]
            if count >= allowed and was.kind == "human" and not was.handed:
                await table.change_seat(
                    seat, replace(was, replaced=True, handed=True, forfeit=was.forfeit or table.rated)
                )
                handed.append(seat)
                log.info("table %s: seat %d handed to a bot after %d timeouts", table.id, seat + 1, count)
        if handed:
            table.broadcast_table()
    if handed:
        table.bots.kick()
        table.arm_clock()
    return handed
