"""Turn-based deadlines across a failover: the table's owner is gone, another process takes it
over and goes on to the deadline stored in the database (to the second), or fires it at once
if it passed meanwhile. Two cluster lobbies in this process on one SQLite file and the real
Redis, each with its own fake clock."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from tests.server.cluster_site import local_lobby
from tests.server.conftest import eventually

from sakura.server.table_request import NewTable
from sakura.server.turns import FakeClock, Pace

T0 = 1_800_000_000.0
HOUR = 3600.0


async def owner_dies(prefix: str, path: Path) -> str:
    """A turn-based table (an hour a move) made by a process that then dies: its deadline
    stored, the table gone from memory, its lease lapsed. Returns its id."""
    async with local_lobby(prefix, path, FakeClock(start=T0)) as first:
        made, _, _ = await first.create(NewTable(players=2, pace=Pace.HOUR))
        assert made.deadline == T0 + HOUR
        assert await eventually(lambda: made.seq >= 1)  # the bot's card is in: the player is due
        await first.turns.flushed()
        await made.close()
        del first.tables[made.id]
        await first.leases.release(made.id)
        return made.id


@pytest.mark.parametrize("later", [HOUR / 2, 3 * HOUR])
def test_the_new_owner_keeps_the_stored_deadline_or_fires_it(
    prefix: str, tmp_path: Path, later: float
) -> None:
    path = tmp_path / "db.sqlite"

    async def run() -> tuple[float | None, list[str]]:
        table_id = await owner_dies(prefix, path)
        async with local_lobby(prefix, path, FakeClock(start=T0 + later)) as second:
            taken = await second._take(table_id)
            assert taken is not None
            deadline = taken.deadline
            if later > HOUR:  # passed while nobody held the table: fired at once by the new owner
                assert await eventually(lambda: bool(taken.commits.timed)), "the deadline never fired"
            bys = ["timer" if i in taken.commits.timed else "other" for i in range(taken.seq)]
            return deadline, bys

    deadline, bys = asyncio.run(run())
    if later < HOUR:
        assert deadline == T0 + HOUR  # to the second, not a new hour from the takeover
        assert "timer" not in bys
    else:
        assert "timer" in bys
