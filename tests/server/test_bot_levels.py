"""The lobby offers the ladder's levels (docs/bots.md): a seat names a level, the table plays it
with the spec the level stands for in that game, and the older names still work."""

from __future__ import annotations

from fastapi.testclient import TestClient
from tests.server.conftest import ScriptedPlayer, create_table

from sakura.bots import LEVEL_NAMES, level_spec


def _specs(client: TestClient, table_id: str) -> list[str | None]:
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    return [seat.bot for seat in lobby.tables[table_id].seats]


def test_every_level_makes_a_bot_seat_with_its_spec(client: TestClient) -> None:
    for game, players in (("sakura", 6), ("sakura-cards", 2)):
        levels = list(LEVEL_NAMES) if game == "sakura" else ["master"]
        created = create_table(client, players, ["human", *levels], game=game)
        table = created["table"]
        assert [s["level"] for s in table["seats"]] == [None, *levels]
        assert _specs(client, table["id"]) == [None, *(level_spec(level, game) for level in levels)]


def test_the_older_names_stand_for_levels(client: TestClient) -> None:
    created = create_table(client, 4, ["human", "easy", "medium", "hard"])
    table = created["table"]
    assert [s["level"] for s in table["seats"]] == [None, "easy", "medium", "hard"]  # as asked
    assert _specs(client, table["id"]) == [None, level_spec("beginner"), "greedy", "mcts:200"]


def test_an_unknown_level_is_refused_and_nothing_is_created(client: TestClient) -> None:
    response = client.post(
        "/api/tables",
        json={"players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "level": "grandmaster"}]},
    )
    assert response.status_code == 422
    assert client.get("/api/tables").json()["open"] == []


def test_a_game_against_the_low_levels_is_played_to_its_end(client: TestClient) -> None:
    created = create_table(client, 3, ["human", "beginner", "casual"])
    player = ScriptedPlayer(client, created["table"]["id"], created["token"], seed=5).start()
    player.join()
    assert player.errors == [] and player.last_view is not None and player.last_view["terminal"]
