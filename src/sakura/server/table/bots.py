"""A table's bot driver: the bots play whatever is theirs to play, one driver task at a time,
and a bot plays for each player whose time ran out (the clock's ``timeout``).

A bot decides from its seat's view of the head (every accepted action), then its action takes
the same commit path as a player's (:class:`~.commit.Commits`). A bot that searches (its spec
has a limit: iterations or seconds, :func:`sakura.bots.parse_spec`) thinks in a thread, so the
event loop stays free for every other table; the bots that decide in one pass play on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from functools import cache
from typing import TYPE_CHECKING

from sakura.bots import Bot, BotError, make_bot, parse_spec
from sakura.server.errors import TableError

if TYPE_CHECKING:
    from sakura.server.table.table import Table

log = logging.getLogger("sakura.server")

FALLBACK_BOT = "greedy"  # plays for a timed-out or absent player: quick and sensible
STORAGE_RETRY = 1.0  # seconds before a bot or the timer tries again after a failed write
ONE_PASS = frozenset({"random", "greedy", "softmax"})  # the registry's bots that never search


@cache
def searches(spec: str) -> bool:
    """Whether the bot ``spec`` names searches (and so thinks off the event loop): any bot with a
    limit, and any the registry does not know to decide in one pass (a search's default limit,
    a plug-in's policy network).

    >>> searches("mcts:200"), searches("expert"), searches("greedy"), searches("softmax:2")
    (True, True, False, False)
    """
    try:
        name, limit, _ = parse_spec(spec)
    except BotError:
        return False  # a bad spec plays as FALLBACK_BOT
    return limit is not None or name not in ONE_PASS


class BotDriver:
    """The bots of one table (see the module docstring)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._bots: dict[tuple[int, str], Bot] = {}
        self._task: asyncio.Task[None] | None = None

    def kick(self) -> None:
        """Let the bots play whatever is theirs to play (one driver task at a time)."""
        if not self.table.seating.bot_seats():  # no task for humans only
            return
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._drive())

    async def _drive(self) -> None:
        table, commits = self.table, self.table.commits
        while True:
            async with table.lock:
                bots = table.seating.bot_seats()
                due = [s for s in commits.head.current_players() if s in bots]
                if not due:
                    return
                seat = due[0]
                spec = table.seating.seats[seat].bot or FALLBACK_BOT
                view = commits.head.view(seat)
                seq = commits.head_seq
            bot = self.bot(seat, spec)
            action = await asyncio.to_thread(bot.act, view) if searches(spec) else bot.act(view)
            async with table.lock:
                if commits.head_seq != seq and seat not in commits.head.current_players():
                    continue
                try:
                    stored = table.apply(seat, str(action), "bot")
                except TableError:  # the situation moved on while the bot thought
                    continue
            try:
                await commits.wait(stored)
            except TableError:  # the database is failing: try again a little later
                await asyncio.sleep(STORAGE_RETRY)
            await asyncio.sleep(0)

    def bot(self, seat: int, spec: str) -> Bot:
        key = (seat, spec)
        if key not in self._bots:
            game = self.table.game
            try:
                self._bots[key] = make_bot(spec, game, secrets.randbits(32))
            except BotError:
                log.exception("table %s: bad bot spec %r; using %s", self.table.id, spec, FALLBACK_BOT)
                self._bots[key] = make_bot(FALLBACK_BOT, game, secrets.randbits(32))
        return self._bots[key]

    async def timeout(self) -> None:
        """The clock ran out: a bot plays for each player still due (stored, or the clock
        runs again and retries)."""
        table, commits = self.table, self.table.commits
        async with table.lock:
            bots = table.seating.bot_seats()
            writes = []
            for seat in [s for s in commits.head.current_players() if s not in bots]:
                if seat not in commits.head.current_players():
                    continue
                action = self.bot(seat, FALLBACK_BOT).act(commits.head.view(seat))
                writes.append(table.apply(seat, str(action), "timer"))
        try:
            for stored in writes:
                await commits.wait(stored)
        except TableError:  # not stored: the timer runs again and retries
            table.arm_clock(STORAGE_RETRY)
        self.kick()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
