"""A table's clock: per decision, when it runs out, a bot plays for each player still due.

The clock runs only while a game is being played by people: none at a table without a timer,
none while an invited seat is still free (``waiting_for_players``), none when only bots are
due. Its end is a wall-clock ``deadline`` (``time.time()``) that every client is told, and
``on_change`` hears of each change (many processes: the owner stores it in Redis so that the
next owner goes on where it was, :mod:`sakura.server.cluster.owner`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from sakura.engine import Progress
    from sakura.server.deadlines import DeadlineWrite


class TableClock(Protocol):
    """What a table asks of its clock: this real-time one, or a turn-based table's
    (:class:`sakura.server.turns.PaceClock`)."""

    seconds: float | None
    on_change: Callable[[], None] | None
    replaces_absent: bool
    keeps_deadline: bool

    @property
    def deadline(self) -> float | None: ...

    def plan(self, runs: bool, after: Progress, before: Progress | None) -> DeadlineWrite | None:
        """The deadline row a write leaves, stored with it (turn-based tables); None: no row."""
        ...

    def arm(self, runs: bool, seconds: float | None = None, planned: DeadlineWrite | None = None) -> None: ...

    def stop(self) -> None: ...

    def close(self) -> None: ...


class Clock:
    """See the module docstring. ``timeout`` is what runs when it runs out."""

    replaces_absent = True  # a bot may replace an absent player (turn-based tables: no, turns/pace.py)
    keeps_deadline = False  # its deadline is not in the database (a failover reads Redis's)

    def __init__(self, seconds: float | None, timeout: Callable[[], Coroutine[Any, Any, None]]) -> None:
        self.seconds = seconds  # a decision's time, or None: no clock at this table
        self.deadline: float | None = None  # wall-clock time of the clock's end
        self.on_change: Callable[[], None] | None = None
        self._timeout = timeout
        self._handle: asyncio.TimerHandle | None = None

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        self.deadline = None
        if self.on_change is not None:
            self.on_change()

    def plan(self, runs: bool, after: Progress, before: Progress | None) -> DeadlineWrite | None:
        """Nothing: a real-time deadline is not in the database (the owner keeps it in Redis)."""
        return None

    def arm(self, runs: bool, seconds: float | None = None, planned: DeadlineWrite | None = None) -> None:
        """Start again for the next decision (``seconds``: less than a full decision's time,
        after a failover or a failed write), if ``runs``; else stop."""
        self.stop()
        if not self.seconds or not runs:
            return
        wait = self.seconds if seconds is None else seconds
        self.deadline = time.time() + wait
        if self.on_change is not None:
            self.on_change()
        loop = asyncio.get_running_loop()
        self._handle = loop.call_later(wait, lambda: loop.create_task(self._timeout()))

    def close(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
