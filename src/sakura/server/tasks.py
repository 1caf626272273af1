"""Stopping the server's background tasks for sure, within a bound.

``task.cancel()`` then ``await task`` is not enough on Python 3.11: ``asyncio.wait_for`` loses
a cancellation when the future it waits on completes in the same turn of the event loop
(CPython bpo-42130, fixed in 3.12 by a new ``wait_for``), and the database's calls went
through it. A loop cancelled at that moment carries on as if nothing happened, and whoever
awaits it waits for ever: that is how a cluster process outlived SIGTERM until the hard exit
(its lease renewer, cancelled at shutdown, went on renewing; seen in the tasks' stacks that
:func:`stacks` writes at the hard exit). So :func:`halt` cancels, waits a moment, cancels again
what still runs (a second cancel reaches it at its next ``await``), and gives up after a bound.
The server's own timeouts now use ``asyncio.timeout`` (3.11's, which ``wait_for`` is built on
from 3.12), which does not lose a cancel; :func:`halt` stays for what the libraries underneath
may still do, and as the bound on a stop.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

log = logging.getLogger("sakura.server")

RETRY_SECONDS = 0.25  # between two cancels of a task that carried on after the first


async def halt(tasks: Iterable[asyncio.Task[Any] | None], seconds: float = 5.0) -> list[asyncio.Task[Any]]:
    """Cancel ``tasks`` (None entries skipped) and wait until they are done, cancelling again
    any that carried on, for at most ``seconds``; the tasks still running then (logged)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    pending = {task for task in tasks if task is not None}
    everything = set(pending)
    while pending:
        for task in pending:
            task.cancel()
        left = deadline - loop.time()
        if left <= 0:
            break
        _, pending = await asyncio.wait(pending, timeout=min(RETRY_SECONDS, left))
    for task in everything - pending:  # an error on the way out is the log's, not the caller's
        if not task.cancelled() and task.exception() is not None:
            log.warning("task %s ended with %r while stopping", task.get_name(), task.exception())
    for task in pending:
        log.error("task %s still running %.1f s after it was cancelled", task.get_name(), seconds)
    return list(pending)


def stacks(loop: asyncio.AbstractEventLoop | None) -> str:
    """Every task of ``loop`` and where it waits: what a process that will not stop is doing.
    Read from another thread at the hard exit, when the loop's own thread is stuck or idle."""
    if loop is None:
        return ""
    lines = []
    for task in list(asyncio.all_tasks(loop)):
        frames = task.get_stack(limit=3)
        where = "; ".join(
            f"{frame.f_code.co_filename.rsplit('/', 2)[-1]}:{frame.f_lineno} {frame.f_code.co_name}"
            for frame in frames
        )
        lines.append(f"{task.get_name()} ({'cancelling' if task.cancelling() else 'pending'}): {where}")
    return "\n".join(sorted(lines))
