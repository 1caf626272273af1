"""The WebSocket protocol under fuzzing (issue #12, "keep proving"): every message a client can
send, well-formed or not, gets a reply the protocol knows, and the game changes only by a
legal action. Bounded: a few hundred messages per run, on one table."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.server.conftest import create_table, join, socket

from sakura.server import create_app
from sakura.server.limits import Limits

KNOWN_REPLIES = {"error", "pong", "update", "table", "rematch", "chat", "chat_history"}
ERROR_CODES = {
    "malformed",
    "illegal",
    "hello_again",
    "not_seated",
    "bad_seat",
    "not_finished",
    "grace",
    "rate_limited",
    "bad_chat",
    "chat_rate_limited",
    "chat_closed",
}

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def messages(legal: list[str]) -> st.SearchStrategy[str | bytes]:
    types = st.sampled_from(["hello", "act", "replace", "rematch", "ping", "chat", "nope", "", "ACT"])
    action = st.sampled_from(legal) if legal else st.just("play 1")
    shaped = st.fixed_dictionaries(
        {"type": types},
        optional={
            "action": action | st.text(max_size=80) | json_values,
            "seat": st.integers(-3, 9) | json_values,
            "token": st.text(max_size=20) | json_values,
            "extra": json_values,
            "text": st.text(max_size=40) | json_values,
            "phrase": st.sampled_from(["gg", "nope"]) | json_values,
        },
    )
    return st.one_of(
        shaped.map(json.dumps),
        json_values.map(json.dumps),
        st.text(max_size=200),
        st.binary(max_size=200),
        st.just("x" * 5000),  # over the protocol's 4 KB
        st.just(json.dumps({"type": "act", "action": "play 17" + "\u0000"})),
    )


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_every_message_gets_a_known_reply_and_only_legal_actions_change_the_game(
    tmp_path_factory: Any, data: st.DataObject
) -> None:
    url = f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'sakura.db'}"
    limits = Limits(messages_per_second=1000, message_burst=1000, replace_grace=0)
    with TestClient(create_app(url, limits)) as client:
        created = create_table(client, 2, ["human", "human"])
        table_id = created["table"]["id"]
        join(client, table_id)
        with socket(client, table_id, created["token"]) as (ws, welcome):
            view = welcome["view"]
            seq = welcome["seq"]
            for _ in range(40):
                message = data.draw(messages(view["legal_actions"]))
                (ws.send_bytes if isinstance(message, bytes) else ws.send_text)(message)
                ws.send_text(json.dumps({"type": "ping"}))
                pongs = 2 if _is_ping(message) else 1
                replies = []
                while pongs:
                    reply = ws.receive_json()
                    pongs -= reply["type"] == "pong"
                    replies.append(reply)
                replies.pop()  # our own ping's pong
                assert replies, f"no reply to {message!r}"
                for reply in replies:
                    assert reply["type"] in KNOWN_REPLIES, reply
                    if reply["type"] == "error":
                        assert reply["code"] in ERROR_CODES and reply["message"], reply
                    if reply["type"] == "update" and reply["seat"] != 0:
                        seq, view = _bot_for_the_replaced_seat(reply, seq)
                    elif reply["type"] == "update":
                        assert reply["seq"] == seq + 1
                        assert reply["action"] in view["legal_actions"], (reply["action"], view)
                        assert json.loads(message)["action"] == reply["action"]  # type: ignore[arg-type]
                        view, seq = reply["view"], reply["seq"]
                # nothing else moved: past what this client did, only the bot of a seat it had
                # replaced (its move is its own, and may be told after the ping's pong)
                stored = client.get(f"/api/tables/{table_id}").json()["seq"]
                while seq < stored:
                    reply = ws.receive_json()
                    if reply["type"] == "update":
                        seq, view = _bot_for_the_replaced_seat(reply, seq)
                assert stored == seq


def _bot_for_the_replaced_seat(reply: dict[str, Any], seq: int) -> tuple[int, dict[str, Any]]:
    """An update of the other seat: only the bot that took it over (``replace``) may act there."""
    assert reply["seat"] == 1 and reply["by"] == "bot" and reply["seq"] == seq + 1, reply
    return reply["seq"], reply["view"]


def _is_ping(message: str | bytes) -> bool:
    try:
        return bool(json.loads(message) == {"type": "ping"})
    except ValueError:
        return False
