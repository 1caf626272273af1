"""Many turn-based games at once, bounded (issue 35): per account, and per client address for
players not logged in (``Limits.turn_games_per_account`` / ``turn_games_per_address``). Past the
bound a new table or a seat is refused (``too_many_games``) and nothing changes; a finished game
frees its slot; real-time tables are not counted; the count holds across a restart and across
the processes of a site (it is read from the database), and requests sent at once are counted
one at a time."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from tests.server.cluster_site import REDIS

from sakura.server import create_app
from sakura.server.errors import TableError
from sakura.server.limits import Limits
from sakura.server.table_request import NewTable
from sakura.server.turns import Pace

from .conftest import ScriptedPlayer

PASSWORD = "a good long password"
LIMITS = Limits(turn_games_per_account=2, turn_games_per_address=2)
ELSEWHERE = ("192.0.2.7", 50000)
TURN = {"players": 2, "pace": "1d", "seats": [{"kind": "human"}, {"kind": "bot", "level": "beginner"}]}
TWO_PLAYERS = {"players": 2, "pace": "3d", "seats": [{"kind": "human"}, {"kind": "human"}]}


def elsewhere(client: TestClient) -> TestClient:
    """Another person at another address, on the same running server (its event loop: a table
    created is played on it)."""
    other = TestClient(client.app, client=ELSEWHERE)
    other.portal = client.portal
    return other


def signup(client: TestClient, name: str) -> dict[str, str]:
    response = client.post("/api/signup", json={"username": name, "password": PASSWORD})
    assert response.status_code == 201, response.text
    return {"x-csrf-token": response.json()["csrf"]}


def create(client: TestClient, body: dict[str, Any], headers: dict[str, str] | None = None) -> Any:
    return client.post("/api/tables", json=body, headers=headers or {})


def live_ids(client: TestClient) -> set[str]:
    return {t["id"] for t in client.get("/api/tables").json()["open"]}


def refused(response: Any) -> None:
    assert response.status_code == 409, response.text
    assert response.json()["code"] == "too_many_games", response.json()


def test_an_account_may_hold_as_many_turn_based_seats_as_its_bound_and_not_one_more(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, LIMITS)) as ada:
        bob = elsewhere(ada)
        csrf = signup(ada, "Ada")
        for _ in range(2):
            assert create(ada, TURN, csrf).status_code == 201
        before = live_ids(ada)
        refused(create(ada, TURN, csrf))
        assert live_ids(ada) == before  # no table made
        # joining someone else's turn-based table is a seat too: refused, the seat still free
        invite = create(bob, TWO_PLAYERS).json()["table"]["id"]
        refused(ada.post(f"/api/tables/{invite}/join", json={}, headers=csrf))
        assert ada.get(f"/api/tables/{invite}").json()["seats"][1]["claimed"] is False
        # real-time tables are not counted
        realtime = {**TURN, "pace": None}
        assert create(ada, realtime, csrf).status_code == 201
        # Bob (not logged in, another address) is not bound by Ada's games: he joins nothing
        # of hers, and plays his own
        assert create(bob, TURN).status_code == 201


def test_players_not_logged_in_are_bounded_per_address_accounts_by_account(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, LIMITS)) as here:
        there = elsewhere(here)
        for _ in range(2):
            assert create(here, TURN).status_code == 201
        refused(create(here, TURN))
        assert create(there, TURN).status_code == 201  # another address: its own count
        invite = create(there, TWO_PLAYERS).json()["table"]["id"]
        refused(here.post(f"/api/tables/{invite}/join", json={}))
        # one logged in at the same address counts for the account, not the address
        csrf = signup(here, "Ada")
        assert create(here, TURN, csrf).status_code == 201
        assert here.post(f"/api/tables/{invite}/join", json={}, headers=csrf).status_code == 200


def test_the_count_is_the_databases_a_restart_keeps_it(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, LIMITS)) as client:
        for _ in range(2):
            assert create(client, TURN).status_code == 201
    with TestClient(create_app(sqlite_url, LIMITS)) as client:
        assert len(live_ids(client)) == 2  # both restored
        refused(create(client, TURN))


def test_a_finished_game_frees_its_slot(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, LIMITS)) as client:
        first = create(client, TURN).json()
        assert create(client, TURN).status_code == 201
        refused(create(client, TURN))
        player = ScriptedPlayer(client, first["table"]["id"], first["token"]).start()
        player.join()
        assert client.get(f"/api/tables/{first['table']['id']}").json()["status"] == "finished"
        assert create(client, TURN).status_code == 201
        refused(create(client, TURN))


def test_requests_at_the_same_moment_never_pass_the_bound_together(sqlite_url: str) -> None:
    """One person's requests are counted one at a time (turns/bounds.py ``PersonLocks``):
    eight creates and joins sent at once, with room for two, give two seats."""
    limits = Limits(turn_games_per_account=10, turn_games_per_address=2)
    with TestClient(create_app(sqlite_url, limits)) as client:
        other = elsewhere(client)  # the inviter, logged in: room for ten
        csrf = signup(other, "Ada")
        invites = [create(other, TWO_PLAYERS, csrf).json()["table"]["id"] for _ in range(4)]
        answers: list[int] = []

        def ask(i: int) -> None:
            if i % 2:
                answers.append(client.post(f"/api/tables/{invites[i // 2]}/join", json={}).status_code)
            else:
                answers.append(create(client, TURN).status_code)

        threads = [threading.Thread(target=ask, args=(i,)) for i in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert len(answers) == 8 and sum(a in (200, 201) for a in answers) == 2, answers
        assert answers.count(409) == 6, answers
        assert len(client.app.app.state.lobby.turn_locks) == 0  # nobody's lock kept


def test_the_bound_holds_across_the_processes_of_a_site(
    prefix: str,
    tmp_path: Path,
) -> None:
    """Two cluster processes on one database: the seats one holds count on the other."""
    from sakura.server.cluster.owner import ClusterLobby
    from sakura.server.db import Store

    async def run() -> str:
        store = Store(f"sqlite:///{tmp_path / 'db.sqlite'}")
        lobbies = [ClusterLobby(store, LIMITS, REDIS, prefix=prefix) for _ in range(2)]
        request = NewTable(players=2, pace=Pace.DAY)
        try:
            for _ in range(2):
                await lobbies[0].create(request, address="192.0.2.9", account="Ada")
            try:
                await lobbies[1].create(request, address="192.0.2.10", account="Ada")
            except TableError as refused:
                return refused.code
            return "created"
        finally:
            for lobby in lobbies:
                for table in list(lobby.tables.values()):
                    await table.close()
                await lobby.writer.aclose()
                lobby.db.close()
                await lobby.redis.aclose()
            store.close()

    assert asyncio.run(run()) == "too_many_games"


def test_a_deleted_accounts_games_do_not_count_for_the_next_owner_of_its_name(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, LIMITS)) as client:
        csrf = signup(client, "Ada")
        for _ in range(2):
            assert create(client, TURN, csrf).status_code == 201
        refused(create(client, TURN, csrf))
        gone = client.post("/api/account/delete", json={"password": PASSWORD}, headers=csrf)
        assert gone.status_code == 200, gone.text
        again = elsewhere(client)  # someone else takes the freed name
        assert create(again, TURN, signup(again, "Ada")).status_code == 201
