"""The database, seen from the event loop: every call runs in a worker thread, with a deadline.

The store's calls (:class:`~sakura.server.db.Store`) are synchronous SQLAlchemy. Called on the
event loop, one slow call froze every table of the server: a PostgreSQL connection that stopped
answering held one ``POST /api/tables`` (and every other table with it) for 15 seconds. Here each
call runs in a small pool of threads, and the request that made it waits at most
``Limits.db_timeout`` seconds; then it gets a ``storage`` error (HTTP 503, "try again") while
the event loop goes on serving everyone else. A call still waiting in the pool when its request
gives up is skipped, so a database that comes back does not replay requests long answered.

The hot path, actions, does not come here: :class:`~sakura.server.db.GroupCommit` stores them in
groups from its own thread, and a client hears of an action only once it is committed. Small
writes that come in crowds (chat messages) go through :meth:`Database.batched`: one writer task
per kind gathers what is waiting and stores it in one transaction, so a hundred people chatting
cost a few commits a second, not a hundred threads' worth of round trips fighting the event loop
for the GIL (``benchmarks/crowds.py`` measured it on PostgreSQL).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sakura.server.db import Store
from sakura.server.errors import TableError

log = logging.getLogger("sakura.server")
T = TypeVar("T")
BATCH_MOST = 256  # items one batched write stores at most


@dataclass
class _Batch:
    """The items waiting for one batched writer, with their futures; its task while it runs."""

    waiting: list[tuple[Any, asyncio.Future[Any]]] = field(default_factory=list)
    task: asyncio.Task[None] | None = None


NOT_ANSWERING = "the database is not answering just now, so nothing was done; please try again in a moment"
FAILED = "the server could not save this change, so it did not happen; please try again"


class Database:
    """:class:`Store` calls for coroutines: ``await db.call(store.load, table_id)``."""

    def __init__(
        self, store: Store, *, timeout: float, threads: int, observe: Callable[[float], None] | None = None
    ) -> None:
        self.store = store
        self.timeout = timeout
        self.observe = observe  # each call's seconds, waiting included (the metrics' histogram)
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="sakura-db-call")
        self._batches: dict[Callable[..., Any], _Batch] = {}

    async def call(self, fn: Callable[..., T], *args: Any, what: str = "database call", **kwargs: Any) -> T:
        """``fn(*args, **kwargs)`` in a worker thread; a :class:`TableError` (code ``storage``) when it
        fails or takes longer than the timeout. Database errors are logged without their
        parameters (the engine hides them), never sent to the client."""
        gave_up = threading.Event()

        def run() -> T:
            if gave_up.is_set():
                raise TimeoutError("skipped: the request gave up waiting")
            return fn(*args, **kwargs)

        loop = asyncio.get_running_loop()
        future, started = loop.run_in_executor(self._pool, run), loop.time()
        try:
            async with asyncio.timeout(self.timeout):  # not wait_for: it can lose a cancel on 3.11 (tasks.py)
                return await future
        except TimeoutError:
            gave_up.set()
            log.error("%s: the database did not answer within %.1f s", what, self.timeout)
            raise TableError(NOT_ANSWERING, "storage", retry_after=self.timeout) from None
        except TableError:
            raise
        except Exception as exc:
            log.error("%s failed: %s", what, one_line(exc))
            raise TableError(FAILED, "storage") from None
        finally:
            if self.observe is not None:
                self.observe(loop.time() - started)

    async def batched(
        self, fn: Callable[[Store, Sequence[Any]], Sequence[T]], item: Any, *, what: str = "database write"
    ) -> T:
        """``fn(store, items)[i]`` for this ``item``, ``items`` being every item handed to ``fn``
        while the previous batch was being written (at most :data:`BATCH_MOST`): one worker
        thread call, one transaction, for a crowd of small writes. A failure or timeout is each
        waiting caller's :class:`TableError`, as with :meth:`call`."""
        batch = self._batches.get(fn)
        if batch is None:
            batch = self._batches[fn] = _Batch()
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        batch.waiting.append((item, future))
        if batch.task is None or batch.task.done():
            batch.task = asyncio.get_running_loop().create_task(self._write(fn, batch, what))
        return await future

    async def _write(
        self, fn: Callable[[Store, Sequence[Any]], Sequence[Any]], batch: _Batch, what: str
    ) -> None:
        while batch.waiting:
            taken, batch.waiting = batch.waiting[:BATCH_MOST], batch.waiting[BATCH_MOST:]
            try:
                results = await self.call(fn, self.store, [item for item, _ in taken], what=what)
            except TableError as exc:
                for _, future in taken:
                    if not future.done():
                        future.set_exception(TableError(str(exc), exc.code, retry_after=exc.retry_after))
                continue
            for (_, future), result in zip(taken, results, strict=True):
                if not future.done():
                    future.set_result(result)

    def close(self) -> None:
        for batch in self._batches.values():
            if batch.task is not None:
                batch.task.cancel()
        self._pool.shutdown(wait=False, cancel_futures=True)


def one_line(exc: BaseException) -> str:
    """An error's first line: SQLAlchemy's text repeats the statement (its parameters are
    hidden by ``hide_parameters``) and a link; the log needs what went wrong."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"
