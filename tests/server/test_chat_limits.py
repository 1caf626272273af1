"""The chat's bounds that a reconnect or a crowd must not get around (issue #30, item 4): the
allowance is kept per seat and per client address at a table, not per connection; a table's
spectators share one allowance; a table keeps only its newest ``Limits.chat_stored`` messages.
Real WebSockets through the app; the per-address case at a live server, from two addresses."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import websockets
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, func, select
from tests.server.test_chat import connect, say, two_seats, until

from sakura.server import create_app
from sakura.server.limits import Limits
from sakura.server.people_models import ChatRow


def answers(ws: Any) -> list[dict[str, Any]]:
    """What came back before the answer to a ping sent now (bounded: never waits for a
    message that may not come)."""
    ws.send_text(json.dumps({"type": "ping"}))
    got = []
    while (message := ws.receive_json())["type"] != "pong":
        got.append(message)
    return got


def refusal(ws: Any, said: str) -> dict[str, Any]:
    """The refusal of the message ``said`` just now (which nobody heard)."""
    got = answers(ws)
    assert said not in [m.get("text") or m.get("phrase") for m in got if m["type"] == "chat"]
    [refused] = [m for m in got if m["type"] == "error"]
    assert refused["code"] == "chat_rate_limited", refused
    return refused


def test_a_reconnect_does_not_reset_a_seats_chat_allowance(client: TestClient) -> None:
    table_id, ada, _ = two_seats(client)
    with connect(client, table_id, ada) as player:
        for i in range(5):
            say(player, text=f"message {i}")
            until(player, "chat")
    with connect(client, table_id, ada) as again:  # the same seat, a new connection
        say(again, text="and five more?")
        refused = refusal(again, "and five more?")
        assert "5 in 10 s" in refused["message"] and refused["retry_after"] > 0
    with connect(client, table_id, None) as watcher:
        assert [m["text"] for m in watcher.history] == [f"message {i}" for i in range(5)]


def test_a_tables_spectators_share_one_allowance(sqlite_url: str) -> None:
    limits = Limits(chat_burst=50, chat_spectators=3)
    with TestClient(create_app(sqlite_url, limits)) as client:
        table_id, ada, _ = two_seats(client)
        with connect(client, table_id, None) as one, connect(client, table_id, None) as two:
            for ws in (one, two, one):
                say(ws, phrase="hello")
                until(ws, "chat")
            say(two, phrase="gg")
            refused = refusal(two, "gg")
            assert "spectators may send 3 in 10 s together" in refused["message"]
            with connect(client, table_id, ada) as player:  # the players still talk
                say(player, phrase="wp")
                assert until(player, "chat")["phrase"] == "wp"


def test_a_table_keeps_only_its_newest_messages(sqlite_url: str) -> None:
    limits = Limits(chat_burst=20, chat_stored=4, chat_welcome=10)
    with TestClient(create_app(sqlite_url, limits)) as client:
        table_id, ada, _ = two_seats(client)
        with connect(client, table_id, ada) as player:
            for i in range(9):
                say(player, text=f"message {i}")
                until(player, "chat")
    with TestClient(create_app(sqlite_url, limits)) as client, connect(client, table_id, None) as late:
        assert [m["text"] for m in late.history] == [f"message {i}" for i in range(5, 9)]
    engine = create_engine(sqlite_url)
    with engine.connect() as conn:
        stored = conn.execute(select(func.count()).where(ChatRow.table_id == table_id)).scalar_one()
    engine.dispose()
    assert stored == 4


def test_one_address_shares_its_allowance_across_seats_and_another_address_does_not(server: str) -> None:
    base, ws_base = server, server.replace("http://", "ws://")

    async def scene() -> tuple[str, list[str]]:
        import httpx

        async with httpx.AsyncClient(base_url=base) as http:
            created = (
                await http.post("/api/tables", json={"players": 3, "seats": [{"kind": "human"}] * 3})
            ).json()
            table_id = created["table"]["id"]
            second = (await http.post(f"/api/tables/{table_id}/join", json={})).json()["token"]
            third = (await http.post(f"/api/tables/{table_id}/join", json={})).json()["token"]

        async def seat(token: str, source: str) -> Any:
            ws = await websockets.connect(f"{ws_base}/ws/{table_id}", local_addr=(source, 0))
            await ws.send(json.dumps({"type": "hello", "token": token}))
            while json.loads(await ws.recv())["type"] != "chat_history":
                pass
            return ws

        async def next_of(ws: Any, kind: str) -> dict[str, Any]:
            while (message := json.loads(await ws.recv()))["type"] != kind:
                pass
            return message

        first = await seat(created["token"], "127.0.0.1")
        same = await seat(second, "127.0.0.1")
        other = await seat(third, "127.0.0.2")
        for i in range(5):
            await first.send(json.dumps({"type": "chat", "text": f"m{i}"}))
            await next_of(first, "chat")
        await same.send(json.dumps({"type": "chat", "phrase": "gg"}))
        refused = (await next_of(same, "error"))["code"]
        await other.send(json.dumps({"type": "chat", "phrase": "wp"}))
        kinds = []  # what the other address hears: the first seat's five messages, then its own
        while not kinds or kinds[-1] not in ("wp", "error"):
            message = json.loads(await other.recv())
            if message["type"] in ("chat", "error"):
                kinds.append(message.get("phrase") or message.get("text") or message["type"])
        for ws in (first, same, other):
            await ws.close()
        return refused, kinds

    refused, heard = asyncio.run(asyncio.wait_for(scene(), 60))
    assert refused == "chat_rate_limited"
    assert heard == ["m0", "m1", "m2", "m3", "m4", "wp"]
