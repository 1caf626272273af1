"""How many turn-based games one person may play at once: a bound per account, and per client
address for anonymous players (``Limits.turn_games_per_account``, ``turn_games_per_address``).

A turn-based game asks a person for a move now and then over days, so one may play many at
once; but every unfinished table is held in memory and has a deadline in the schedule, so one
person (or one script) must not open thousands. Each seat taken at a turn-based table is a row
of ``sakura_turn_seats`` (revision 0011) naming its account, or for a player who is not logged
in the client address's mark (hashed, :func:`sakura.server.farm.mark`); the seats of tables
still being played are counted there, so the bound holds across restarts and across the
processes of a site, and a finished game frees its slot with nothing deleted. Real-time tables
are not counted: they have bounds of their own (``creates_per_minute``, ``live_tables``).

Taking a seat past the bound is refused (``too_many_games``) before anything is made. In one
process a person's requests are counted one at a time (:class:`PersonLocks`: the count, the
seat taken and its row, then the next request's count), so the bound is exact; with many
processes two requests of one person reaching two processes at the very same moment may both
pass the count: the bound may be overrun by the requests in flight at once, never more.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy import func, insert, select
from sqlalchemy.exc import IntegrityError

from sakura.server.db import Store
from sakura.server.errors import TableError
from sakura.server.farm import mark
from sakura.server.limits import Limits
from sakura.server.models import TableRow, TurnSeatRow
from sakura.server.names import name_key

CODE = "too_many_games"


def holder(account: str | None, address: str) -> tuple[str | None, str | None]:
    """Whom a seat counts for: ``(account key, None)`` for a logged-in player, else ``(None,
    address mark)``.

    >>> holder("Ada", "192.0.2.1")
    ('ada', None)
    >>> holder(None, "192.0.2.1")[1] == mark("address", "192.0.2.1")
    True
    """
    return (name_key(account), None) if account is not None else (None, mark("address", address))


def count(store: Store, account: str | None, address: str | None) -> int:
    """The seats ``account`` (a key), or else anonymous seats from ``address`` (a mark), hold at
    turn-based tables still being played."""
    who = TurnSeatRow.account == account if account is not None else TurnSeatRow.address == address
    query = (
        select(func.count())
        .select_from(TurnSeatRow)
        .join(TableRow, TableRow.id == TurnSeatRow.table_id)
        .where(who, TableRow.status == "playing")
    )
    with store.engine.connect() as conn:
        return int(conn.scalar(query) or 0)


def note(store: Store, table_id: str, seat: int, account: str | None, address: str | None) -> None:
    """A seat taken at a turn-based table, counted from now on (once: a seat is taken once)."""
    try:
        with store.engine.begin() as conn:
            row = {"table_id": table_id, "seat": seat, "account": account, "address": address}
            conn.execute(insert(TurnSeatRow), row)
    except IntegrityError:
        pass


def refusal(limits: Limits, account: str | None, held: int) -> TableError | None:
    """The refusal for one more seat when ``held`` are held already, or None: room left.

    >>> limits = Limits(turn_games_per_account=2)
    >>> refusal(limits, "ada", 1) is None, str(refusal(limits, "ada", 2)).split(";")[0]
    (True, 'your account has 2 turn-based games in progress, as many as one may have at once')
    """
    bound = limits.turn_games_per_account if account is not None else limits.turn_games_per_address
    if held < bound:
        return None
    whose = "your account has" if account is not None else "players from your address have"
    return TableError(
        f"{whose} {held} turn-based games in progress, as many as one may have at once; "
        "finish one before starting or joining another",
        CODE,
    )


class PersonLocks:
    """One lock per person (an account key or an address mark) while a request of theirs takes
    a turn-based seat; a person's lock is forgotten once nobody holds or waits for it."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}  # the lock and its holders and waiters

    @asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (None, 0))
        lock = lock or asyncio.Lock()
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            users = self._locks[key][1] - 1
            if users:
                self._locks[key] = (lock, users)
            else:
                del self._locks[key]

    def __len__(self) -> int:
        return len(self._locks)
