"""The finished game's score sheet over HTTP (issue 28, deliverable 2): the engine's, read off
the stored game, equal to the game's outcome; refused before the end. The card game's sheet
comes from the same address (its rounds, areas, discards and gifts)."""

from __future__ import annotations

from fastapi.testclient import TestClient
from tests.server.conftest import ScriptedPlayer, create_table
from tests.server.test_cards_game import create_cards_table

from sakura.engine.games.cards import CardsScoreSheet
from sakura.engine.games.sakura import ScoreSheet
from sakura.records import GameRecord


def test_a_finished_games_score_sheet_is_the_engines(client: TestClient) -> None:
    created = create_table(client, 4, ["human", "easy", "medium", "easy"])
    table_id = created["table"]["id"]
    assert client.get(f"/api/tables/{table_id}/score-sheet").status_code == 409  # not over yet
    ScriptedPlayer(client, table_id, created["token"], seed=3).start().join()
    reply = client.get(f"/api/tables/{table_id}/score-sheet")
    assert reply.status_code == 200
    sheet = ScoreSheet.from_json(reply.json())
    outcome = GameRecord.loads(client.get(f"/api/tables/{table_id}/record").text).outcome
    assert outcome is not None
    assert list(sheet.winners) == outcome["winners"] and list(sheet.tokens) == outcome["scores"]
    assert len(sheet.trees) == 3 and all(sheet.start(seat) == 5 for seat in range(4))


def test_the_card_games_score_sheet_is_its_engines(client: TestClient) -> None:
    created = create_cards_table(client, ["human", "medium"])
    table_id = created["table"]["id"]
    assert client.get(f"/api/tables/{table_id}/score-sheet").status_code == 409  # not over yet
    ScriptedPlayer(client, table_id, created["token"], seed=4).start().join()
    reply = client.get(f"/api/tables/{table_id}/score-sheet")
    assert reply.status_code == 200
    sheet = CardsScoreSheet.from_json(reply.json())
    outcome = GameRecord.loads(client.get(f"/api/tables/{table_id}/record").text).outcome
    assert outcome is not None
    assert list(sheet.winners) == outcome["winners"] and list(sheet.totals) == outcome["scores"]
    assert [r.round for r in sheet.rounds] == [1, 2, 3]
    assert sum(len(r.given[0]) + len(r.given[1]) for r in sheet.rounds) >= 24  # a gift nearly every turn
