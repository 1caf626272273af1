"""Rated tables through real HTTP and WebSockets: accounts only and no bots, every player's
rating updated once at the end (openskill, per class), a leaver who let a bot take over ranks
last, and the update happens exactly once even when the server is killed in the middle of it
and started again."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, func, select
from tests.live_server import free_port
from tests.server.conftest import ScriptedPlayer

from sakura.server import create_app
from sakura.server.limits import Limits
from sakura.server.people_models import RatedGameRow, RatingHistoryRow

PASSWORD = "a good long password"
ELSEWHERE = ("192.0.2.2", 50000)  # a second player's address: accounts of one address do not rate
TWO = {"players": 2, "variant": "court", "rated": True, "seats": [{"kind": "human"}, {"kind": "human"}]}


def account(client: Any, name: str) -> dict[str, str]:
    response = client.post("/api/signup", json={"username": name, "password": PASSWORD})
    assert response.status_code == 201, response.text
    return {"x-csrf-token": response.json()["csrf"]}


def rated_table(
    host: Any, guest: Any, host_csrf: dict[str, str], guest_csrf: dict[str, str], body: dict[str, Any] = TWO
) -> tuple[str, str, str]:
    created = host.post("/api/tables", json=body, headers=host_csrf)
    assert created.status_code == 201, created.text
    table_id = created.json()["table"]["id"]
    joined = guest.post(f"/api/tables/{table_id}/join", json={}, headers=guest_csrf)
    assert joined.status_code == 200, joined.text
    return table_id, created.json()["token"], joined.json()["token"]


def test_a_rated_table_is_for_accounts_and_players_only(client: TestClient) -> None:
    anonymous = client.post("/api/tables", json=TWO)
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "login_required"
    csrf = account(client, "Ada")
    bots = client.post(
        "/api/tables",
        headers=csrf,
        json={**TWO, "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}]},
    )
    assert bots.status_code == 400 and "no bots" in bots.json()["detail"]
    table_id = client.post("/api/tables", json=TWO, headers=csrf).json()["table"]["id"]
    twice = client.post(f"/api/tables/{table_id}/join", json={}, headers=csrf)
    assert twice.status_code == 409  # one account, one seat
    stranger = TestClient(client.app).post(f"/api/tables/{table_id}/join", json={})
    assert stranger.status_code == 401 and stranger.json()["code"] == "login_required"
    assert client.get(f"/api/tables/{table_id}").json()["seats"][1]["claimed"] is False


def _play_out(client: TestClient, table_id: str, tokens: list[str]) -> None:
    players = [ScriptedPlayer(client, table_id, t, seed=i) for i, t in enumerate(tokens)]
    for p in players:
        p.start()
    for p in players:
        p.join()


def _wait_for(predicate: Any, seconds: float = 30) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("never came")


def test_a_rated_game_updates_both_ratings_once_and_fills_the_pages(client: TestClient) -> None:
    guest = TestClient(client.app, client=ELSEWHERE)  # two people: two addresses (farm.py)
    table_id, ada, bo = rated_table(client, guest, account(client, "Ada"), account(guest, "Bob"))
    _play_out(client, table_id, [ada, bo])
    ratings = _wait_for(lambda: client.get("/api/players/Ada").json()["ratings"]["realtime"])
    assert set(ratings) == {"sakura-2-court"}
    ada_page, bo_page = client.get("/api/players/ada").json(), client.get("/api/players/Bob").json()
    winners = client.get(f"/api/archive/{table_id}").json()["winners"]
    mine, theirs = (
        ada_page["ratings"]["realtime"]["sakura-2-court"],
        bo_page["ratings"]["realtime"]["sakura-2-court"],
    )
    assert mine["games"] == theirs["games"] == 1 and mine["sigma"] < 25 / 3
    if winners == [0]:
        assert mine["mu"] > 25 > theirs["mu"] and mine["wins"] == 1 and theirs["wins"] == 0
    elif winners == [1]:
        assert theirs["mu"] > 25 > mine["mu"]
    assert [h["table"] for h in ada_page["history"]["realtime"]["sakura-2-court"]] == [table_id]
    assert [g["id"] for g in ada_page["games"]["games"]] == [table_id]
    board = client.get("/api/leaderboard?class=sakura-2-court").json()
    assert sorted(p["username"] for p in board["players"]) == ["Ada", "Bob"] and board["total"] == 2
    assert board["players"][0]["ordinal"] >= board["players"][1]["ordinal"]
    # the displayed scale (issue 28, deliverable 7): the leaderboard's order, provisional at first
    assert board["players"][0]["display"] >= board["players"][1]["display"]
    assert all(p["provisional"] for p in board["players"]) and mine["provisional"]
    # the same numbers beside the names at the table
    seats = client.get(f"/api/tables/{table_id}/ratings").json()
    assert seats["rated"] and seats["class"] == "sakura-2-court"
    assert [s["display"] for s in seats["seats"]] == [mine["display"], theirs["display"]]
    assert client.get("/api/leaderboard?class=nope").status_code == 400


def test_a_leaver_whose_seat_a_bot_took_over_ranks_last(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, Limits(replace_grace=0))) as client:
        guest = TestClient(client.app, client=ELSEWHERE)
        table_id, ada, bo = rated_table(client, guest, account(client, "Ada"), account(guest, "Bob"))
        with client.websocket_connect(f"/ws/{table_id}") as ws:  # Ada comes, then closes her tab
            ws.send_text(json.dumps({"type": "hello", "token": ada}))
            ws.receive_json()
        with client.websocket_connect(f"/ws/{table_id}") as ws:  # (sockets on the app's own loop)
            ws.send_text(json.dumps({"type": "hello", "token": bo}))
            while ws.receive_json()["type"] != "chat_history":
                pass
            ws.send_text(json.dumps({"type": "replace", "seat": 0}))
            while (m := ws.receive_json())["type"] != "table" or not m["table"]["seats"][0]["replaced"]:
                pass
        _play_out(client, table_id, [bo])
        history = _wait_for(
            lambda: client.get("/api/players/Ada").json()["history"]["realtime"].get("sakura-2-court")
        )
        assert history[0]["rank"] == 2  # whatever the bot scored for her
        assert client.get("/api/players/Bob").json()["history"]["realtime"]["sakura-2-court"][0]["rank"] == 1
        assert client.get(f"/api/tables/{table_id}").json()["seats"][0]["replaced"] is True


# ---------------------------------------------------------------- killed in the middle of the update


def _serve(url: str, port: int, fault: str | None) -> subprocess.Popen[bytes]:
    env = {**os.environ, "SAKURA_FAULT": fault or ""}
    code = (
        "import sys, uvicorn; from sakura.server import create_app; "
        f"uvicorn.run(create_app({url!r}), host='127.0.0.1', port={port}, log_level='warning')"
    )
    process = subprocess.Popen([sys.executable, "-c", code], env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/me", timeout=1)
            return process
        except httpx.HTTPError:
            time.sleep(0.2)
    process.kill()
    raise AssertionError("the server did not start")


def _random_player(base: str, table_id: str, token: str, seed: int) -> None:
    from websockets.sync.client import connect

    rng = random.Random(seed)
    try:
        with connect(f"{base.replace('http', 'ws')}/ws/{table_id}", open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            waiting = False
            while True:
                message = json.loads(ws.recv(timeout=30))
                if message["type"] in ("welcome", "update"):
                    view = message["view"]
                    if message["type"] == "update" and message["seat"] == message.get("me", message["seat"]):
                        waiting = False
                    if view["terminal"]:
                        return
                    if view["legal_actions"] and (not waiting or message["type"] == "update"):
                        ws.send(json.dumps({"type": "act", "action": rng.choice(view["legal_actions"])}))
                        waiting = True
                elif message["type"] == "error":
                    waiting = False
    except Exception:  # the server was killed under us: that is the point
        return


def _history(url: str) -> tuple[int, int]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return (
                conn.scalar(select(func.count()).select_from(RatedGameRow)) or 0,
                conn.scalar(select(func.count()).select_from(RatingHistoryRow)) or 0,
            )
    finally:
        engine.dispose()


def test_a_server_killed_in_the_middle_of_a_rating_update_rates_the_game_once_on_restart(
    database_url: str, tmp_path: Path
) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = _serve(database_url, port, fault="rating")
    try:
        elsewhere = httpx.HTTPTransport(local_address="127.0.0.2")  # another address (farm.py)
        with httpx.Client(base_url=base) as host, httpx.Client(base_url=base, transport=elsewhere) as guest:
            table_id, ada, bo = rated_table(host, guest, account(host, "Ada"), account(guest, "Bob"))
        players = [
            threading.Thread(target=_random_player, args=(base, table_id, t, i))
            for i, t in enumerate((ada, bo))
        ]
        for p in players:
            p.start()
        assert server.wait(120) == 86  # stopped dead between the rating's computing and its commit
        for p in players:
            p.join(60)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert _history(database_url) == (0, 0)  # nothing of the update was stored
    for _ in range(2):  # the first start rates the game, the second finds nothing to do
        server = _serve(database_url, port, fault=None)
        try:
            ratings = _wait_for(lambda: httpx.get(f"{base}/api/players/Ada").json()["ratings"]["realtime"])
            assert ratings["sakura-2-court"]["games"] == 1
            assert httpx.get(f"{base}/api/tables/{table_id}").json()["status"] == "finished"
        finally:
            server.terminate()
            server.wait(30)
        assert _history(database_url) == (1, 2)


@pytest.mark.parametrize("players", [3])
def test_three_accounts_share_a_class_of_their_own(client: TestClient, players: int) -> None:
    others = [TestClient(client.app, client=(f"192.0.2.{i + 2}", 50000)) for i in range(players - 1)]
    host_csrf = account(client, "Ada")
    body = {"players": players, "rated": True, "seats": [{"kind": "human"}] * players}
    created = client.post("/api/tables", json=body, headers=host_csrf).json()
    tokens = [created["token"]]
    for i, other in enumerate(others):
        tokens.append(
            other.post(
                f"/api/tables/{created['table']['id']}/join", json={}, headers=account(other, f"P{i}layer")
            ).json()["token"]
        )
    _play_out(client, created["table"]["id"], tokens)
    ratings = _wait_for(lambda: client.get("/api/players/Ada").json()["ratings"]["realtime"])
    assert set(ratings) == {"sakura-3-6"}
