"""A turn-based decision's deadline is stored in the transaction of the write that began it.

Before, the action was committed first and the schedule's writer task stored the deadline
after: a crash between the two gave the next decision a full pace from the restart. Here the
schedule's own writes all fail (a storage fault injected where they are made), the server stops
without ever storing one, and a restarted server still keeps the deadline to the second: the
claim stored the first decision's, the move the next one's. On SQLite and PostgreSQL.
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient

from sakura.server import create_app
from sakura.server.database import Database
from sakura.server.db import Store
from sakura.server.limits import Limits
from sakura.server.turns import FakeClock, Schedule
from sakura.server.turns import schedule as schedule_module
from sakura.server.turns.store import Due, load_deadlines, save_deadlines

from .conftest import Message, create_table, eventually
from .test_turn_based import DAY, HOUR, T0, hello, receive_until, this_or_next


def test_a_deadline_is_stored_with_the_move_that_began_its_decision(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    attempts: list[dict[str, Due | None]] = []

    def failing(store: Store, changes: dict[str, Due | None]) -> None:
        attempts.append(changes)
        raise OSError("disk I/O error (injected)")

    monkeypatch.setattr(schedule_module, "save_deadlines", failing)
    clock = FakeClock(start=T0)
    limits = Limits(db_timeout=1.0)  # the stopping server waits for the failing writer that long
    with TestClient(create_app(database_url, limits, turn_clock=clock)) as client:
        created: Message = create_table(client, 2, ["human", "beginner"], pace="1d")
        table_id, token = created["table"]["id"], created["token"]
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            welcome = hello(ws, token)
            assert welcome["deadline"] == T0 + DAY  # begun by the claim of the last free seat
            view = welcome["view"]
            if not view["chosen"][1]:  # the bot's card first: then the player's ends the round
                view = receive_until(ws, lambda m: m["type"] == "update" and m["view"]["chosen"][1])["view"]
            clock.advance(5 * HOUR)
            ws.send_text(json.dumps({"type": "act", "action": view["legal_actions"][0]}))
            mine = receive_until(ws, lambda m: m["type"] == "update" and m["seat"] == 0)
            later = this_or_next(ws, mine, lambda m: m["deadline"] not in (None, T0 + DAY))
            assert later["deadline"] == T0 + 5 * HOUR + DAY  # the next decision's full day
    monkeypatch.undo()

    store = Store(database_url)
    try:
        [(when, decision)] = load_deadlines(store, [table_id]).values()
    finally:
        store.close()
    assert when == T0 + 5 * HOUR + DAY and decision != "1:selection:0,1"  # the one the move began
    assert attempts  # the schedule's writer tried (a seat's move narrows the decision) and failed
    restarted = TestClient(create_app(database_url, turn_clock=FakeClock(start=T0 + 7 * HOUR)))
    with restarted as client, client.websocket_connect(f"/ws/{table_id}") as ws:
        assert hello(ws, token)["deadline"] == T0 + 5 * HOUR + DAY  # not a new day from the restart


def test_a_value_stored_with_a_move_is_written_again_after_an_older_one_in_flight(
    sqlite_url: str,
) -> None:
    """The schedule's writer is storing an older deadline of a table just when a move's
    transaction stores a newer one: the older could land last, so the newer goes again."""
    store = Store(sqlite_url)
    release, writing = threading.Event(), threading.Event()

    def slow(store: Store, changes: dict[str, Any]) -> None:
        writing.set()
        release.wait(30)
        save_deadlines(store, changes)

    async def run() -> dict[str, Due]:
        db = Database(store, timeout=30.0, threads=2)
        schedule = Schedule(db, FakeClock(start=T0))
        table_id = await asyncio.to_thread(_a_table, store)
        original = schedule_module.save_deadlines
        schedule_module.save_deadlines = slow  # type: ignore[assignment]
        try:
            schedule.set(table_id, T0 + HOUR, "1:selection:0")  # the writer's, slow
            assert await eventually(writing.is_set)
            await asyncio.to_thread(save_deadlines, store, {table_id: (T0 + DAY, "2:selection:0,1")})
            schedule.set(table_id, T0 + DAY, "2:selection:0,1", stored=True)  # the move's, landed first
            release.set()
            await schedule.flushed()
        finally:
            schedule_module.save_deadlines = original  # type: ignore[assignment]
            db.close()
        return load_deadlines(store, [table_id])

    try:
        assert asyncio.run(run()) == {"t1": (T0 + DAY, "2:selection:0,1")}
    finally:
        store.close()


def _a_table(store: Store) -> str:
    """A table row for a deadline to belong to (its foreign key)."""
    import datetime as dt

    from sakura.server.db import StoredTable

    store.create_table(
        StoredTable("t1", {"players": 2}, 1, [], None, "playing", None, dt.datetime.now(dt.UTC), [])
    )
    return "t1"
