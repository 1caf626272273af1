"""Table chat through real WebSockets: players and spectators, quick phrases, 300 characters,
a rate limit per seat and per address (``test_chat_limits.py`` has the rest), "spectators may
not chat", storage across a restart, the replay."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fastapi.testclient import TestClient
from tests.server.conftest import ScriptedPlayer, create_table, join

from sakura.server import create_app

Message = dict[str, Any]


@contextmanager
def connect(client: TestClient, table_id: str, token: str | None, name: str | None = None) -> Iterator[Any]:
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        hello: Message = {"type": "hello", "token": token}
        if name is not None:
            hello["name"] = name
        ws.send_text(json.dumps(hello))
        until(ws, "welcome")
        ws.history = until(ws, "chat_history")["messages"]
        yield ws


def until(ws: Any, kind: str, code: str | None = None) -> Message:
    """The next message of ``kind`` (and error ``code``), skipping the others."""
    for _ in range(200):
        message: Message = ws.receive_json()
        if message["type"] == kind and (code is None or message.get("code") == code):
            return message
    raise AssertionError(f"no {kind} message")


def say(ws: Any, **fields: Any) -> None:
    ws.send_text(json.dumps({"type": "chat", **fields}))


def two_seats(client: TestClient, **extra: Any) -> tuple[str, str, str]:
    created = create_table(client, 2, ["human", "human"], name="Ada", **extra)
    table_id = created["table"]["id"]
    return table_id, created["token"], join(client, table_id)


def test_a_player_and_a_spectator_talk_and_a_restart_keeps_every_word(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url)) as client:
        table_id, ada, _ = two_seats(client)
        with (
            connect(client, table_id, ada) as player,
            connect(client, table_id, None, name="نگار") as watcher,
        ):
            assert player.history == [] and watcher.history == []
            say(player, text="سلام! <img src=x onerror=alert(1)>")
            for ws in (player, watcher):
                heard = until(ws, "chat")
                assert heard["seat"] == 0 and heard["name"] == "Ada" and heard["spectator"] is False
                assert heard["text"] == "سلام! <img src=x onerror=alert(1)>"  # the very text, not HTML
            say(watcher, phrase="gg")
            for ws in (player, watcher):
                heard = until(ws, "chat")
                assert heard["seat"] is None and heard["spectator"] is True and heard["name"] == "نگار"
                assert heard["phrase"] == "gg" and heard["text"] is None
    with TestClient(create_app(sqlite_url)) as client, connect(client, table_id, None) as late:
        assert [(m["seat"], m["text"], m["phrase"]) for m in late.history] == [
            (0, "سلام! <img src=x onerror=alert(1)>", None),
            (None, None, "gg"),
        ]


def test_chat_refusals_are_clear_and_store_nothing(client: TestClient) -> None:
    table_id, ada, _ = two_seats(client)
    with connect(client, table_id, ada) as player:
        say(player, text="x" * 301)
        assert "300" in until(player, "error", "bad_chat")["message"]
        say(player, text="  \n ")
        until(player, "error", "bad_chat")
        say(player, text="bidi \u202e trick")
        until(player, "error", "bad_chat")
        say(player, text="both", phrase="gg")
        until(player, "error", "bad_chat")
        say(player)
        until(player, "error", "bad_chat")
        say(player, phrase="<script>")
        until(player, "error", "malformed")
        say(player, text="🌸" * 300)  # 300 characters (1200 bytes) is the most
        assert until(player, "chat")["text"] == "🌸" * 300
    with connect(client, table_id, None) as watcher:
        assert [m["text"] for m in watcher.history] == ["🌸" * 300]


def test_five_messages_in_ten_seconds_per_seat_and_address_then_a_clear_error(client: TestClient) -> None:
    table_id, ada, other = two_seats(client)
    with connect(client, table_id, ada) as player, connect(client, table_id, other) as second:
        for i in range(5):
            say(player, text=f"message {i}")
            until(player, "chat")
        say(player, text="one too many")
        refused = until(player, "error", "chat_rate_limited")
        assert "5 in 10 s" in refused["message"] and refused["retry_after"] > 0
        heard = [until(second, "chat")["text"] for _ in range(5)]
        assert heard == [f"message {i}" for i in range(5)]
        say(second, text="another seat, but the same address")  # the address's allowance is spent too
        assert until(second, "error", "chat_rate_limited")["retry_after"] > 0
    with connect(client, table_id, None) as watcher:
        assert "one too many" not in [m["text"] for m in watcher.history]
        assert len(watcher.history) == 5


def test_spectators_may_not_chat_where_the_table_says_so(client: TestClient) -> None:
    table_id, ada, _ = two_seats(client, spectator_chat=False)
    assert client.get(f"/api/tables/{table_id}").json()["spectator_chat"] is False
    with connect(client, table_id, ada) as player, connect(client, table_id, None) as watcher:
        say(watcher, text="may I?")
        assert until(watcher, "error", "chat_closed")["message"] == "spectators may not chat at this table"
        say(player, phrase="wp")
        assert until(watcher, "chat")["phrase"] == "wp"  # they still read the players


def test_the_replay_shows_each_message_at_its_step(client: TestClient) -> None:
    created = create_table(client, 2, ["human", "easy"])
    table_id, token = created["table"]["id"], created["token"]
    with connect(client, table_id, token) as player:
        say(player, text="before my first card")
        first = until(player, "chat")
    ScriptedPlayer(
        client, table_id, token, seed=3, stop_when=lambda m: m["type"] == "update" and m["seq"] >= 6
    ).start().join()
    with connect(client, table_id, token) as player:
        say(player, phrase="oops")
        said = until(player, "chat")
    assert said["seq"] >= 6
    ScriptedPlayer(client, table_id, token, seed=4).start().join()
    replay = client.get(f"/api/tables/{table_id}/replay").json()
    assert [(m["seq"], m["text"], m["phrase"]) for m in replay["chat"]] == [
        (first["seq"], "before my first card", None),
        (said["seq"], None, "oops"),
    ]
    assert first["seq"] <= 1 and said["seq"] >= 6  # said before a card of the player's was stored
