"""The lobby's lists (bug 6): open seats, games in play, abandoned tables apart, finished games
with players, winner and date, newest first, ten a page."""

from __future__ import annotations

from fastapi.testclient import TestClient
from tests.server.conftest import ScriptedPlayer, create_table, socket

from sakura.server import create_app, listing
from sakura.server.limits import Limits


def test_finished_games_come_newest_first_ten_a_page_with_their_winner(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, Limits(creates_per_minute=100))) as client:
        _finished_pages(client)


def _finished_pages(client: TestClient) -> None:
    ids = []
    for i in range(12):
        created = create_table(client, 2, ["human", "easy"])
        ids.append(created["table"]["id"])
        ScriptedPlayer(client, ids[-1], created["token"], seed=i).start().join()
    first = client.get("/api/finished").json()
    assert first["page"] == 0 and first["more"] is True and len(first["games"]) == listing.PAGE
    second = client.get("/api/finished", params={"page": 1}).json()
    assert second["more"] is False and len(second["games"]) == 2
    games = first["games"] + second["games"]
    assert sorted(g["id"] for g in games) == sorted(ids)
    assert [g["created"] for g in games] == sorted((g["created"] for g in games), reverse=True)
    for game in games:
        assert game["winners"] and max(game["scores"]) == game["scores"][game["winners"][0]]
        assert [s["level"] for s in game["seats"]] == [None, "easy"]


def test_open_seats_games_in_play_and_abandoned_tables_are_listed_apart(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, Limits(lobby_cache_seconds=0))) as client:
        _listed_apart(client)


def _listed_apart(client: TestClient) -> None:
    invited = create_table(client, 2, ["human", "human"])["table"]["id"]
    full = create_table(client, 2, ["human", "easy"])["table"]["id"]
    old = create_table(client, 2, ["human", "easy"])["table"]["id"]
    client.app.state.lobby.tables[old].last_seen -= listing.ABANDONED_AFTER + 60  # a day and more ago
    with socket(client, full, None):
        pass  # someone came by: the table was seen now
    lists = client.get("/api/tables").json()["listing"]
    assert [t["id"] for t in lists["open"]] == [invited]
    assert [t["id"] for t in lists["playing"]] == [full]
    assert [t["id"] for t in lists["abandoned"]] == [old]
    assert lists["playing"][0]["round"] == 1 and lists["playing"][0]["winners"] is None
    with socket(client, old, None):  # a visit brings it back among the games in play
        assert [t["id"] for t in client.get("/api/tables").json()["listing"]["abandoned"]] == []
