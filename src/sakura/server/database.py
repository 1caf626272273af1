"""The database, seen from the event loop: every call runs in a worker thread, with a deadline.

The store's calls (:class:`~sakura.server.db.Store`) are synchronous SQLAlchemy. Called on the
event loop, one slow call froze every table of the server: a PostgreSQL connection that stopped
answering held one ``POST /api/tables`` (and every other table with it) for 15 seconds. Here each
call runs in a small pool of threads, and the request that made it waits at most
``Limits.db_timeout`` seconds; then it gets a ``storage`` error (HTTP 503, "try again") while
the event loop goes on serving everyone else. A call still waiting in the pool when its request
gives up is skipped, so a database that comes back does not replay requests long answered.

The hot path, actions, does not come here: :class:`~sakura.server.db.GroupCommit` stores them in
groups from its own thread, and a client hears of an action only once it is committed.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sakura.server.db import Store
from sakura.server.errors import TableError

log = logging.getLogger("sakura.server")
T = TypeVar("T")

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
            return await asyncio.wait_for(future, self.timeout)
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

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def one_line(exc: BaseException) -> str:
    """An error's first line: SQLAlchemy's text repeats the statement (its parameters are
    hidden by ``hide_parameters``) and a link; the log needs what went wrong."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"
