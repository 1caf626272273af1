"""A failed database write changes nothing: the action is applied to a clone of the state,
stored, and the clone swapped in only after the commit. The client gets an ``error`` with code
``storage``, the table stays as it was (in memory and on disk) and plays on once the database
works again. Failures are injected into the real database driver (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event
from sqlalchemy.exc import OperationalError
from tests.server.conftest import ScriptedPlayer, create_table, join, receive, socket

from sakura.records import GameRecord, replay
from sakura.server import create_app
from sakura.server.db import ActionWrite, GroupCommit, Store
from sakura.server.table import bots as table_bots


class Outage:
    """Makes the next ``failures`` statements that start with ``prefix`` (inserts of actions by
    default) fail inside their database transaction."""

    def __init__(self, store: Store, prefix: str = "INSERT INTO SAKURA_ACTIONS") -> None:
        self.failures = 0
        self.failed = 0
        self.prefix = prefix
        event.listen(store.engine, "before_cursor_execute", self._before)

    def _before(self, _conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if self.failures > 0 and statement.lstrip().upper().startswith(self.prefix):
            self.failures -= 1
            self.failed += 1
            raise OperationalError(statement, None, Exception("injected: the disk is full"))


def _outage(client: TestClient, prefix: str = "INSERT INTO SAKURA_ACTIONS") -> Outage:
    return Outage(client.app.state.lobby.store, prefix)  # type: ignore[attr-defined]


@pytest.fixture
def quick_retry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(table_bots, "STORAGE_RETRY", 0.01)
    yield


def test_a_failed_write_leaves_the_table_as_it_was_and_playable(database_url: str) -> None:
    with TestClient(create_app(database_url)) as client:
        created = create_table(client, 2, ["human", "human"])
        table_id, token = created["table"]["id"], created["token"]
        second = join(client, table_id)
        outage = _outage(client)
        with socket(client, table_id, token) as (ws, welcome):
            action = welcome["view"]["legal_actions"][0]
            outage.failures = 1
            ws.send_text(json.dumps({"type": "act", "action": action}))
            error = receive(ws, "error")
            assert error["code"] == "storage" and outage.failed == 1
            assert client.get(f"/api/tables/{table_id}").json()["seq"] == 0
            with socket(client, table_id, token) as (_, again):  # memory: nothing changed
                assert again["seq"] == 0 and again["view"] == welcome["view"]
            ws.send_text(json.dumps({"type": "act", "action": action}))  # the database is back
            update = receive(ws, "update")
            assert update["seq"] == 1 and update["seat"] == 0 and update["action"] == action
            after = update["view"]
    with TestClient(create_app(database_url)) as client:  # disk: exactly the one stored action
        with socket(client, table_id, token) as (_, restored):
            assert restored["seq"] == 1 and restored["view"] == after
        players = [
            ScriptedPlayer(client, table_id, token, seed=1).start(),
            ScriptedPlayer(client, table_id, second, seed=2).start(),
        ]
        for p in players:
            p.join()
        assert all(not p.errors and p.last_view is not None and p.last_view["terminal"] for p in players)
        record = GameRecord.loads(client.get(f"/api/tables/{table_id}/record").text)
        assert replay(record).is_terminal()


def test_a_seat_is_taken_only_once_it_is_stored(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url)) as client:
        table_id = create_table(client, 2, ["human", "human"])["table"]["id"]
        outage = _outage(client, "UPDATE SAKURA_TABLES")
        outage.failures = 1
        response = client.post(f"/api/tables/{table_id}/join", json={})
        assert response.status_code == 503 and outage.failed == 1
        assert [s["claimed"] for s in client.get(f"/api/tables/{table_id}").json()["seats"]] == [True, False]
        token = join(client, table_id)  # the database is back: the same seat is still free
        with socket(client, table_id, token) as (_, welcome):
            assert welcome["seat"] == 1


def test_bots_retry_after_failed_writes_and_the_game_stays_whole(sqlite_url: str, quick_retry: None) -> None:
    with TestClient(create_app(sqlite_url)) as client:
        outage = _outage(client)
        outage.failures = 5
        created = create_table(client, 3, ["human", "medium", "easy"])
        table_id = created["table"]["id"]
        player = ScriptedPlayer(client, table_id, created["token"], seed=5).start()
        watcher = ScriptedPlayer(client, table_id, None).start()
        watcher.join()
        player.join()
        assert outage.failed == 5
        assert watcher.last_view is not None and watcher.last_view["terminal"]
        seqs = [m["seq"] for m in watcher.messages if m["type"] == "update"]
        first = seqs[0]
        assert seqs == list(range(first, first + len(seqs)))  # no gap, no repeat
        record = GameRecord.loads(client.get(f"/api/tables/{table_id}/record").text)
        assert len(record.moves) == seqs[-1]
        assert replay(record).outcome().to_dict() == watcher.last_view["outcome"]  # type: ignore[union-attr]


def test_a_group_commit_stores_all_of_its_writes_or_none(sqlite_url: str) -> None:
    """One transaction for the actions of several tables; when it fails, so do the actions
    queued meanwhile on top of them (same table), but not those of other tables."""
    store = Store(sqlite_url)
    outage = Outage(store)
    writer = GroupCommit(store)
    told: list[tuple[str, int, bool]] = []

    def submit(table: str, seq: int) -> asyncio.Future[None]:
        def done(error: BaseException | None) -> None:
            told.append((table, seq, error is None))

        return writer.submit(ActionWrite(table, seq, 0, "play 1", "player"), done)

    async def scenario(a: str = "a", b: str = "b", c: str = "c") -> list[BaseException | None]:
        first = [submit(a, 1), submit(b, 1)]
        await asyncio.sleep(0)  # their transaction starts; these two wait for the next one
        second = [submit(a, 2), submit(c, 1)]
        return await asyncio.gather(*first, *second, return_exceptions=True)

    def stored() -> list[tuple[str, int]]:
        with store.engine.connect() as conn:
            rows = conn.exec_driver_sql("SELECT table_id, seq FROM sakura_actions ORDER BY table_id").all()
        return [(str(t), int(q)) for t, q in rows]

    try:
        outage.failures = 1  # one statement inserts the first transaction's rows: it fails whole
        results = asyncio.run(scenario())
        assert [isinstance(r, OperationalError) for r in results] == [True, True, True, False]
        assert told == [("a", 1, False), ("b", 1, False), ("a", 2, False), ("c", 1, True)]
        assert stored() == [("c", 1)] and writer.batches == 2
        told.clear()
        assert asyncio.run(scenario("x", "y", "z")) == [None, None, None, None]
        assert told == [("x", 1, True), ("y", 1, True), ("x", 2, True), ("z", 1, True)]
    finally:
        writer.close()
        store.close()
