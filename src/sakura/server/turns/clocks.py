"""The time a turn-based schedule reads: the wall clock, or a fake one that tests move by hand.

A turn-based table's deadline is days away, so its tests cannot wait for it; they give the
server a :class:`FakeClock` (``create_app(turn_clock=...)``) and move it forward, from their own
thread, by a day at a time. The schedule asks its clock two things only: ``now()`` (seconds
since the epoch, as ``time.time()``) and ``sleep_until(when, wake)``: return at ``when`` (None:
never) or as soon as ``wake`` is set, whichever comes first.

>>> clock = FakeClock(start=100.0)
>>> clock.advance(86_400)
>>> clock.now()
86500.0
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from typing import Protocol


class TurnClock(Protocol):
    def now(self) -> float: ...

    async def sleep_until(self, when: float | None, wake: asyncio.Event) -> None: ...


class SystemClock:
    """The wall clock: ``time.time()``, and a sleep that the event loop's timer ends."""

    def now(self) -> float:
        return time.time()

    async def sleep_until(self, when: float | None, wake: asyncio.Event) -> None:
        timeout = None if when is None else max(0.0, when - time.time())
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await wake.wait()


class FakeClock:
    """A clock that moves only when told (:meth:`advance`, from any thread); a sleep ends when
    the clock passes its time or its ``wake`` is set."""

    def __init__(self, start: float | None = None) -> None:
        self._now = time.time() if start is None else start
        self._lock = threading.Lock()
        self._sleepers: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()

    def now(self) -> float:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._now += seconds
            sleepers = list(self._sleepers)
        for loop, wake in sleepers:  # each sleeper looks at the time again
            with contextlib.suppress(RuntimeError):  # its loop has closed
                loop.call_soon_threadsafe(wake.set)

    async def sleep_until(self, when: float | None, wake: asyncio.Event) -> None:
        if when is not None and when <= self.now():
            return
        me = (asyncio.get_running_loop(), wake)
        with self._lock:
            self._sleepers.add(me)
        try:
            await wake.wait()
        finally:
            with self._lock:
                self._sleepers.discard(me)
