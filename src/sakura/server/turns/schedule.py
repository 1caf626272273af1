"""The turn-based tables' one schedule: every deadline in the database, one task per process.

A turn-based table's move may take days, and a process may hold thousands of such tables. So
no table sleeps on a timer of its own: each deadline is a row (``sakura_deadlines``, ``due_at``
and the decision it is for), and this process keeps, for the tables it holds, a heap of them
and one task that sleeps until the earliest, fires every one that is due, and sleeps again. A
new deadline earlier than the one slept for wakes the task. Memory is a few tuples a table;
an idle process does nothing at all until the next deadline.

A deadline that begins with a write (the action that began its decision, the claim of the
last free seat) is stored in that write's own transaction (:mod:`sakura.server.deadlines`):
the table tells :meth:`Schedule.set` so (``stored=True``), and nothing more is written. The
other changes (a timeout's retry, a seat handed over) are stored in batches by one writer task
(each table's latest value). Either way they are read back when the server starts
(:meth:`Schedule.recall`, every table's; a process taking a table over in cluster mode reads
that table's): a deadline that passed while the server was down fires as soon as it starts.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
from collections.abc import Callable

from sakura.server.database import Database
from sakura.server.tasks import halt
from sakura.server.turns.clocks import SystemClock, TurnClock
from sakura.server.turns.store import Due, load_deadlines, save_deadlines

log = logging.getLogger("sakura.server")

RETRY_SECONDS = 1.0  # a failed write of deadlines is tried again after this


class Schedule:
    """See the module docstring. ``start()`` once the event loop runs, ``stop()`` at the end."""

    def __init__(self, db: Database, clock: TurnClock | None = None) -> None:
        self.db = db
        self.clock: TurnClock = clock or SystemClock()
        self._due: dict[str, Due] = {}  # every known deadline, stored or on its way, by table
        self._held: dict[str, Callable[[], None]] = {}  # the tables held here: what runs when due
        self._heap: list[tuple[float, str]] = []  # (when, table); stale entries are skipped
        self._unsaved: dict[str, Due | None] = {}
        self._writing: dict[str, Due | None] = {}  # the batch the writer is storing just now
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._saver: asyncio.Task[None] | None = None
        self._stopping = False  # stop(): a failed write is not tried again
        self.fired = 0  # deadlines fired, for the curious (and the benchmark)

    # ---------------------------------------------------------------- what the tables call

    def stored(self, table_id: str) -> Due | None:
        """The deadline ``table_id`` had (read by :meth:`recall`), if any."""
        return self._due.get(table_id)

    def hold(self, table_id: str, fire: Callable[[], None]) -> None:
        """``table_id`` is served here: ``fire()`` runs when its deadline comes."""
        if self._held.get(table_id) == fire:  # the same bound method: held already
            return
        self._held[table_id] = fire
        if table_id in self._due:
            self._push(table_id, self._due[table_id][0])

    def release(self, table_id: str) -> None:
        """``table_id`` leaves this process (its deadline stays stored for whoever takes it)."""
        self._held.pop(table_id, None)

    def set(self, table_id: str, when: float, decision: str, *, stored: bool = False) -> None:
        """``table_id``'s deadline is now ``when``, for ``decision``; ``stored``: the transaction
        that began the decision has written it already (else the writer task stores it)."""
        if self._due.get(table_id) == (when, decision):
            return
        self._due[table_id] = (when, decision)
        self._changed(table_id, (when, decision), stored)
        self._push(table_id, when)

    def clear(self, table_id: str, *, stored: bool = False) -> None:
        """``table_id`` has no deadline now; ``stored``: its row is gone already (see :meth:`set`)."""
        if self._due.pop(table_id, None) is not None:
            self._changed(table_id, None, stored)

    def deadline(self, table_id: str) -> float | None:
        due = self._due.get(table_id)
        return None if due is None else due[0]

    # ---------------------------------------------------------------- the task

    async def recall(self, table_ids: list[str] | None = None) -> None:
        """Read the stored deadlines of ``table_ids`` (None: all) before their tables are built."""
        stored = await self.db.call(load_deadlines, self.db.store, table_ids, what="loading deadlines")
        for table_id, due in stored.items():
            self._due.setdefault(table_id, due)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop firing, and store the deadlines not yet stored."""
        if self._task is not None:
            await halt([self._task])  # a cancel may be lost in a database call: tasks.py
            self._task = None
        # Bounded without relying on cancellation: on Python 3.11 a cancel that meets a database
        # call just as it fails can be lost inside ``wait_for`` (the writer would then retry its
        # failing write forever, and ``wait_for`` wait for it). The writer sees ``_stopping``
        # and gives up after its next failure; what it could not store is logged.
        self._stopping = True
        saver = self._saver
        if saver is not None and not saver.done():
            _, pending = await asyncio.wait({saver}, timeout=2 * self.db.timeout)
            if pending:
                saver.cancel()

    async def flushed(self) -> None:
        """Until every deadline changed so far is stored (a benchmark's, a test's wait)."""
        while self._saver is not None and not self._saver.done():
            await asyncio.shield(self._saver)

    def _push(self, table_id: str, when: float) -> None:
        if table_id not in self._held:
            return
        earliest = self._heap[0][0] if self._heap else None
        if len(self._heap) > 2 * len(self._held) + 64:  # superseded entries: rebuilt, not piled up
            self._heap = [(w, t) for t, (w, _) in self._due.items() if t in self._held]
            heapq.heapify(self._heap)
        else:
            heapq.heappush(self._heap, (when, table_id))
        if earliest is None or when < earliest:
            self._wake.set()

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            now = self.clock.now()
            while self._heap and self._heap[0][0] <= now:
                when, table_id = heapq.heappop(self._heap)
                fire = self._held.get(table_id)
                if fire is None or self.deadline(table_id) != when:
                    continue  # superseded, or no longer held here
                self.fired += 1
                try:
                    fire()
                except Exception:
                    log.exception("table %s: its deadline could not be fired", table_id)
            await self.clock.sleep_until(self._heap[0][0] if self._heap else None, self._wake)

    # ---------------------------------------------------------------- storing

    def _changed(self, table_id: str, due: Due | None, stored: bool) -> None:
        """A value stored already needs no write of its own, unless the writer is storing an
        older one for the table just now: that one could land last, so this one goes again."""
        if not stored or table_id in self._writing:
            self._save(table_id, due)
        else:
            self._unsaved.pop(table_id, None)  # an older value not yet written: superseded

    def _save(self, table_id: str, due: Due | None) -> None:
        self._unsaved[table_id] = due
        if self._saver is None or self._saver.done():
            self._saver = asyncio.get_running_loop().create_task(self._store())

    async def _store(self) -> None:
        while self._unsaved:
            batch, self._unsaved = self._unsaved, {}
            self._writing = batch
            try:
                await self.db.call(save_deadlines, self.db.store, batch, what="storing deadlines")
            except Exception:
                if self._stopping:
                    log.warning("storing %d deadlines failed at stop; they were not stored", len(batch))
                    return
                log.warning("storing %d deadlines failed; trying again", len(batch))
                self._unsaved = {**batch, **self._unsaved}  # newer values win
                await asyncio.sleep(RETRY_SECONDS)
            finally:
                self._writing = {}
