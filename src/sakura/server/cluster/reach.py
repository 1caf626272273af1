"""Reaching Redis when a process starts: it serves at once, Redis or not (issue #30, item 6).

A process started before Redis answers (a machine booting, Redis restarting, a typo in the
firewall) used to wait in its start-up and say nothing. Now :meth:`Reach.until_reached` tries
again with a growing pause (``BACKOFF``), logs why every ``LOG_SECONDS``, and only then starts
what needs Redis; meanwhile the process answers HTTP, and ``/readyz`` says 503 with the reason
(:meth:`Reach.unready`), so a load balancer sends it nobody.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from sakura.server.database import one_line

log = logging.getLogger("sakura.server")

BACKOFF = (0.1, 2.0)  # seconds between tries: the first, and the most
LOG_SECONDS = 5.0  # while Redis is not reached, why is logged this often
PING_SECONDS = 2.0  # /readyz waits this long for Redis to answer


class Reach:
    """Whether Redis has been reached, and why not yet (``reason``)."""

    def __init__(self) -> None:
        self.reason: str | None = "connecting"
        self.reached = asyncio.Event()

    async def until_reached(self, attempt: Callable[[], Awaitable[object]]) -> None:
        """Call ``attempt`` until it succeeds (see the module docstring)."""
        loop = asyncio.get_running_loop()
        pause, said, failed = BACKOFF[0], -LOG_SECONDS, False
        while True:
            try:
                await attempt()
                break
            except Exception as exc:
                self.reason, failed = one_line(exc), True
                if loop.time() - said >= LOG_SECONDS:
                    said = loop.time()
                    log.warning(
                        "Redis is not reachable (%s): retrying; /readyz answers 503 until it is", self.reason
                    )
                await asyncio.sleep(pause)
                pause = min(BACKOFF[1], pause * 2)
        if failed:
            log.warning("Redis reached: serving")
        self.reason = None
        self.reached.set()

    async def unready(self, ping: Callable[[], Awaitable[object]]) -> str | None:
        """Why Redis cannot be used now (not reached yet, or not answering ``ping``), or None."""
        if not self.reached.is_set():
            return f"not reached yet ({self.reason})"
        try:
            async with asyncio.timeout(PING_SECONDS):
                await ping()
        except Exception as exc:
            return f"not answering ({one_line(exc) if str(exc) else type(exc).__name__})"
        return None
