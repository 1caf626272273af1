"""Rated turn-based games rate in a mode of their own (issue 35): a game played at a pace moves
only the players' ``turn`` ratings, a real-time game only their ``realtime`` ones; the
leaderboard and the player's page answer each mode, and the ratings beside the names at a
table are the table's mode. A finished turn-based game is archived with its pace, found by the
archive's ``mode`` filter, and replays as a real-time one does."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from .test_ratings import ELSEWHERE, TWO, _play_out, _wait_for, account, rated_table

TURN_TWO = {**TWO, "pace": "1d"}


def ratings_of(client: TestClient, name: str) -> dict[str, Any]:
    found: dict[str, Any] = client.get(f"/api/players/{name}").json()["ratings"]
    return found


def board(client: TestClient, mode: str) -> list[str]:
    answer = client.get("/api/leaderboard", params={"class": "sakura-2-court", "mode": mode}).json()
    assert answer["mode"] == mode and answer["class"] == "sakura-2-court"
    return [p["username"] for p in answer["players"]]


def test_a_rated_turn_based_game_changes_only_the_turn_ratings_and_real_time_only_its_own(
    client: TestClient,
) -> None:
    guest = TestClient(client.app, client=ELSEWHERE)  # two people: two addresses (farm.py)
    ada_csrf, bob_csrf = account(client, "Ada"), account(guest, "Bob")
    turn_id, ada, bo = rated_table(client, guest, ada_csrf, bob_csrf, TURN_TWO)
    assert client.get(f"/api/tables/{turn_id}/ratings").json()["mode"] == "turn"
    _play_out(client, turn_id, [ada, bo])
    turn = _wait_for(lambda: ratings_of(client, "Ada")["turn"])
    assert set(turn) == {"sakura-2-court"} and turn["sakura-2-court"]["games"] == 1
    assert ratings_of(client, "Ada")["realtime"] == {} and ratings_of(client, "Bob")["realtime"] == {}
    assert sorted(board(client, "turn")) == ["Ada", "Bob"] and board(client, "realtime") == []
    history = client.get("/api/players/Ada").json()["history"]
    assert [h["table"] for h in history["turn"]["sakura-2-court"]] == [turn_id] and history["realtime"] == {}

    realtime_id, ada, bo = rated_table(client, guest, ada_csrf, bob_csrf)
    seats = client.get(f"/api/tables/{realtime_id}/ratings").json()
    assert seats["mode"] == "realtime" and [s["games"] for s in seats["seats"]] == [0, 0]  # not the turn ones
    _play_out(client, realtime_id, [ada, bo])
    realtime = _wait_for(lambda: ratings_of(client, "Ada")["realtime"])
    assert realtime["sakura-2-court"]["games"] == 1
    assert ratings_of(client, "Ada")["turn"] == turn  # the turn rating as it was
    assert sorted(board(client, "realtime")) == ["Ada", "Bob"]
    assert client.get("/api/leaderboard", params={"mode": "blitz"}).status_code == 400


def test_a_finished_turn_based_game_is_archived_with_its_pace_and_replays(client: TestClient) -> None:
    guest = TestClient(client.app, client=ELSEWHERE)
    csrf = account(client, "Ada"), account(guest, "Bob")
    turn_id, ada, bo = rated_table(client, guest, *csrf, TURN_TWO)
    _play_out(client, turn_id, [ada, bo])
    realtime_id, ada, bo = rated_table(client, guest, *csrf, {**TWO, "rated": False})
    _play_out(client, realtime_id, [ada, bo])
    game = _wait_for(lambda: client.get(f"/api/archive/{turn_id}").json().get("pace"))
    assert game == "1d"
    _wait_for(lambda: client.get(f"/api/archive/{realtime_id}").status_code == 200)
    assert client.get(f"/api/archive/{realtime_id}").json()["pace"] is None

    def ids(**params: str) -> list[str]:
        return [g["id"] for g in client.get("/api/archive", params=params).json()["games"]]

    assert set(ids()) == {turn_id, realtime_id}
    assert ids(mode="turn") == [turn_id] and ids(mode="realtime") == [realtime_id]
    assert ids(q="Ada", mode="turn") == [turn_id] and ids(q="Ada", mode="realtime") == [realtime_id]
    assert client.get("/api/archive", params={"mode": "blitz"}).status_code == 422
    replay = client.get(f"/api/tables/{turn_id}/replay").json()
    assert replay["table"]["pace"] == "1d" and replay["table"]["status"] == "finished"
    record = client.get(f"/api/tables/{turn_id}/record")
    assert record.status_code == 200
    actions = [step["action"] for step in replay["steps"][1:]]  # the first step: the deal
    assert len(actions) > 1 and actions == [m["action"] for m in record.json()["moves"]]
    assert record.json()["outcome"] is not None
