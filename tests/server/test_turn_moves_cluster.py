""" "Your move" across processes: two cluster lobbies (each its own Redis connections, relay and
keeper) on one SQLite file and the real Redis, a turn-based table owned by each. Either process
lists both games, of the seats' tokens and of the account, each entry built by the table's
owner for that seat; a token that opens nothing elsewhere is left out there too. What happened
since a player last looked is answered by the table's owner as well."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from tests.server.cluster_site import REDIS
from tests.server.conftest import eventually

from sakura.server.errors import TableError
from sakura.server.table_request import NewTable
from sakura.server.turns import FakeClock, Pace

T0 = 1_800_000_000.0
DAY = 86_400.0


@contextlib.asynccontextmanager
async def site_process(prefix: str, path: Path) -> AsyncIterator[Any]:
    """A started :class:`ClusterLobby` (relay and keeper running), stopped after."""
    from sakura.server.cluster.owner import ClusterLobby
    from sakura.server.db import Store

    store = Store(f"sqlite:///{path}")
    lobby = ClusterLobby(store, None, REDIS, prefix=prefix)
    lobby.turns.clock = FakeClock(start=T0)
    await lobby.start()
    try:
        assert await eventually(lobby.relay.subscribed.is_set), "the relay never subscribed"
        yield lobby
    finally:
        tables = list(lobby.tables.values())
        await lobby.stop()
        for table in tables:
            await table.close()
        await lobby.turns.stop()
        await lobby.writer.aclose()
        lobby.db.close()
        store.close()


async def listed_ids(lobby: Any, claims: list[tuple[str, str | None]], account: str | None) -> set[str]:
    return {game["id"] for game in (await lobby.moves(claims, account))["games"]}


async def listed_soon(lobby: Any, account: str, expected: set[str], seconds: float = 60.0) -> set[str]:
    """The games listed for ``account``, read again until they are ``expected`` or time is up."""
    deadline = time.monotonic() + seconds
    while (found := await listed_ids(lobby, [], account)) != expected and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    return found


def test_your_move_lists_the_games_owned_by_every_process(prefix: str, tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite"

    async def run() -> None:
        async with site_process(prefix, path) as a, site_process(prefix, path) as b:
            at_a, _, token_a = await a.create(NewTable(players=2, pace=Pace.DAY), account="ada")
            at_b, _, token_b = await b.create(NewTable(players=2, pace=Pace.DAY), account="ada")
            assert at_a.id in a.tables and at_a.id not in b.tables  # each owned by its maker
            assert await eventually(lambda: at_a.seq >= 1 and at_b.seq >= 1)  # the bots' cards in
            assert token_a is not None and token_b is not None

            # the seats' tokens: the other process's game comes from its owner, as its seat sees it
            listed = await b.moves([(at_a.id, token_a), (at_b.id, token_b)], None)
            games = {g["id"]: g for g in listed["games"]}
            assert set(games) == {at_a.id, at_b.id} and listed["your_move"] == 2
            there = games[at_a.id]
            assert (there["seat"], there["your_move"], there["to_move"]) == (0, True, [0])
            assert there["deadline"] == at_a.deadline == T0 + DAY and there["pace"] == "1d"
            assert there["seq"] == at_a.seq

            # a token that opens nothing at the other process's table: left out there too
            assert await listed_ids(b, [(at_a.id, "not-its-token"), ("nosuchtable", token_a)], None) == set()

            # what happened since the player last looked, asked of the other process: its owner's
            remote = await b.front(at_a.id)
            assert remote is not None and at_a.id not in b.tables
            seen = await remote.since(token_a, None, 0)
            assert [u["seq"] for u in seen["updates"]] == list(range(1, at_a.seq + 1))
            assert all(u["view"]["player"] == 0 for u in seen["updates"])  # the seat's own view
            with pytest.raises(TableError) as refused:
                await remote.since(None, "bob", 0)
            assert refused.value.code == "not_seated"

            # the account's games, from either process (the site's lists: a keeper round old)
            assert await listed_soon(a, "ada", {at_a.id, at_b.id}) == {at_a.id, at_b.id}
            assert await listed_soon(b, "ada", {at_a.id, at_b.id}) == {at_a.id, at_b.id}
            assert await listed_ids(a, [], "bob") == set()  # another account: none of them

    asyncio.run(run())
