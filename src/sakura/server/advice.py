"""Hints while playing and post-game analyses, searched in worker processes.

Both are CPU-bound searches (:mod:`sakura.bots.advice`, :mod:`sakura.bots.analysis`) that
would freeze every table if they ran on the event loop, and would compete with the bots'
threads for the GIL if they ran in a thread. So the app owns one bounded
:class:`~concurrent.futures.ProcessPoolExecutor` (``Limits.advice_workers`` processes, made on
first use) and this module is its front desk:

* **bounded**: at most ``Limits.advice_queue`` searches are queued or running at once (each
  holds a *slot*); a request beyond that gets a clear ``busy`` error with a retry time. One
  hint at a time per connection, ``Limits.analyses_running`` analyses at a time, and an
  analysis leaves a slot free for hints between its steps;
* **progress**: each slot is a cell of a shared array the worker writes its progress into
  (0..1); the event loop reads it while it waits and tells the client;
* **views only**: a hint is searched from ``state.view(seat)`` of the asking seat, the only
  thing sent to the worker; an analysis is made of independent jobs (one a decision, one a
  round start), run one after another so that progress is the count of jobs done, and
  stored with the table (``analyses``) once complete.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import resource_tracker
from typing import Any

from sakura.bots import analysis, resolve_spec, workers
from sakura.server.errors import TableError
from sakura.server.limits import Limits

log = logging.getLogger("sakura.server")

BUSY = "the server is busy working out hints and analyses for others just now; please try again in a moment"
POLL_SECONDS = 0.2  # how often the event loop reads a running search's progress

# ---------------------------------------------------------------------- on the event loop


def hint_seed(table_id: str, seq: int, seat: int) -> int:
    """The same question (table, position, seat) gets the same answer, asked twice."""
    return int.from_bytes(hashlib.sha256(f"{table_id}:{seq}:{seat}".encode()).digest()[:4], "big")


class Advisor:
    """The app's hints and analyses (one per app; see the module docstring)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._pool: ProcessPoolExecutor | None = None
        self._cells: Any = None
        self._free = list(range(max(1, limits.advice_queue)))
        self._hinting: set[int] = set()  # connections (by id) with a hint under way
        self.running: dict[tuple[str, int], dict[str, Any]] = {}  # (table, seat) -> progress
        self._tasks: set[asyncio.Task[None]] = set()
        # The pool's locks need multiprocessing's resource tracker: start it now, while the
        # process's standard streams are its own (a host that later swaps them, as a terminal
        # UI in the same process does, would make starting it then fail).
        try:
            resource_tracker.ensure_running()
        except (OSError, ValueError) as exc:
            log.warning("the resource tracker of the advice processes did not start: %s", exc)

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            context = multiprocessing.get_context("spawn")  # no fork of a threaded server
            self._cells = context.Array("d", len(self._free) + 1, lock=False)
            self._pool = ProcessPoolExecutor(
                max(1, self.limits.advice_workers), context, initializer=workers.init, initargs=(self._cells,)
            )
        return self._pool

    def _slot(self, spare: int = 0) -> int:
        """A free slot, keeping ``spare`` free for others; a ``busy`` error if there is none."""
        if len(self._free) <= spare:
            raise TableError(BUSY, "busy", retry_after=2.0)
        return self._free.pop()

    async def _run(
        self,
        slot: int,
        fn: Callable[[int, workers.Work], Any],
        work: workers.Work,
        on_progress: Callable[[float], None] | None = None,
    ) -> Any:
        """``fn(slot, work)`` in a worker process; ``on_progress(0..1)`` while it runs. Frees the slot."""
        try:
            pool = self._executor()
            self._cells[slot] = 0.0
            future = asyncio.wrap_future(pool.submit(fn, slot, work))
            while True:
                done, _ = await asyncio.wait({future}, timeout=POLL_SECONDS)
                if done:
                    return future.result()
                if on_progress is not None:
                    on_progress(float(self._cells[slot]))
        finally:
            self._free.append(slot)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ hints

    def start_hint(self, table: Any, conn: Any) -> None:
        """Check that ``conn``'s seat may have a hint now, then work it out in the background:
        ``hint_progress`` messages, then ``hint`` (or an ``error``). Raises a TableError, and
        starts nothing, when it may not."""
        seat = conn.seat
        if seat is None:
            raise TableError("spectators get no hints; take a seat to play", "not_seated")
        info = table.info()
        if info.get("rated") or not info.get("hints", True):
            raise TableError("hints are off at this table (rated games have none)", "no_hints")
        if table.status != "playing":
            raise TableError(
                "the game is over: hints are for a game in play (try Analyse on its replay)", "not_playing"
            )
        view = table.state.view(seat)
        if view.terminal or not view.legal_actions:
            raise TableError("nothing to decide now: a hint comes when it is your turn", "not_your_turn")
        if id(conn) in self._hinting:
            raise TableError("a hint is already being worked out for you; it comes in a moment", "busy")
        slot = self._slot()
        self._hinting.add(id(conn))
        work = {
            "game": table.game.name,
            "config": table.game.config_json(),
            "view": view,
            "spec": self.limits.hint_spec,
            "seed": hint_seed(table.id, table.seq, seat),
        }
        self._spawn(self._hint(slot, work, conn, table.id, seat, table.seq))

    async def _hint(self, slot: int, work: workers.Work, conn: Any, *ids: Any) -> None:
        table_id, seat, seq = ids
        last = [-1.0]

        def progress(value: float) -> None:
            if value >= last[0] + 0.05:
                last[0] = value
                conn.push({"type": "hint_progress", "seq": seq, "progress": round(value, 2)})

        try:
            result = await self._run(slot, workers.hint_work, work, on_progress=progress)
        except Exception:
            log.exception("table %s: a hint for seat %d failed", table_id, seat)
            conn.push({"type": "error", "code": "hint_failed", "message": "the hint could not be worked out"})
        else:
            conn.push(dict(result, type="hint", seq=seq, seat=seat))
        finally:
            self._hinting.discard(id(conn))

    # ------------------------------------------------------------------ analyses

    async def status(self, table: Any, seat: int) -> dict[str, Any]:
        """``done`` (with the analysis), ``running`` (with progress), ``failed`` or ``none``."""
        self._check_seat(table, seat)
        running = self.running.get((table.id, seat))
        if running is not None and running["status"] == "running":
            return dict(running)
        stored = await table.db.call(
            table.store.load_analysis, table.id, seat, what=f"table {table.id}: loading an analysis"
        )
        if stored is not None:
            return {"status": "done", "seat": seat, "analysis": stored}
        return dict(running) if running is not None else {"status": "none", "seat": seat}

    @staticmethod
    def _check_seat(table: Any, seat: int) -> None:
        if not 0 <= seat < len(table.seats):
            raise TableError(f"there is no seat {seat + 1} at this table", "bad_seat")

    async def start_analysis(self, table: Any, seat: int) -> dict[str, Any]:
        """Start analysing ``seat`` of a finished game (or say how far it is, or give it)."""
        self._check_seat(table, seat)
        if table.status != "finished":
            raise TableError(
                "the game is still being played: it can be analysed once it is over", "not_finished"
            )
        now = await self.status(table, seat)
        if now["status"] in ("done", "running"):
            return now
        if sum(1 for r in self.running.values() if r["status"] == "running") >= self.limits.analyses_running:
            raise TableError(BUSY, "busy", retry_after=5.0)
        slot = self._slot(spare=1)
        key = (table.id, seat)
        self.running[key] = {"status": "running", "seat": seat, "done": 0, "total": 0, "progress": 0.0}
        self._spawn(self._analyse(slot, table, seat, key))
        return dict(self.running[key])

    async def _analyse(self, slot: int, table: Any, seat: int, key: tuple[str, int]) -> None:
        run = self.running[key]
        base = {"game": table.game.name, "config": table.game.config_json()}
        spec = self.limits.analysis_spec
        try:
            stored = await table.db.call(table.store.load, table.id, what=f"loading table {table.id}")
            assert stored is not None
            todo = dict(base, seed=stored.seed, actions=list(stored.actions), seat=seat)
            jobs = await self._run(slot, workers.jobs_work, todo)
            run["total"] = len(jobs)
            results = []
            for job in jobs:
                while True:  # one step at a time, a slot kept free for hints
                    try:
                        step = self._slot(spare=1)
                        break
                    except TableError:
                        await asyncio.sleep(POLL_SECONDS)
                results.append(await self._run(step, workers.job_work, dict(base, job=job, spec=spec)))
                run["done"] = len(results)
                run["progress"] = round(len(results) / len(jobs), 3)
            names = [s.name or "" for s in table.seats]
            used = resolve_spec(spec, table.game.name)
            data = analysis.Analysis.assemble(table.game, seat, used, names, results).to_json()
            await table.db.call(
                table.store.save_analysis,
                table.id,
                seat,
                data["spec"],
                data,
                what=f"table {table.id}: storing an analysis",
            )
            del self.running[key]
        except Exception as exc:
            log.exception("table %s: analysing seat %d failed", table.id, seat)
            self.running[key] = {
                "status": "failed",
                "seat": seat,
                "message": str(exc)
                if isinstance(exc, TableError)
                else "the analysis could not be completed; please try again",
            }

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
