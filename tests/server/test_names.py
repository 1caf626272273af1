"""Display names: validated at every way in (creating, joining, a bot seat's name), and carried
as the same text to the table's info, the lobby's lists, the record and the replay."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import ScriptedPlayer, create_table

from sakura.records import GameRecord

BAD = ["", "   ", "x" * 25, "a\u0000b", "tab\tname", "evil\u202eeman", "line\u2028two", "iso\u2066late"]


@pytest.mark.parametrize("name", BAD)
def test_a_bad_name_is_refused_at_creation_and_nothing_is_made(client: TestClient, name: str) -> None:
    before = client.get("/api/tables").json()["listing"]
    seats = [{"kind": "human"}, {"kind": "bot", "level": "easy"}]
    response = client.post("/api/tables", json={"players": 2, "name": name, "seats": seats})
    if name.strip() == "":  # no name at all: the seat stays unnamed, as before names were asked
        assert response.status_code == 201, response.text
        assert response.json()["table"]["seats"][0]["name"] == ""
        return
    assert response.status_code in (400, 422), response.text
    if response.status_code == 400:
        assert response.json()["code"] == "bad_name"
    assert client.get("/api/tables").json()["listing"] == before


@pytest.mark.parametrize("name", [n for n in BAD if n.strip()])
def test_a_bad_name_is_refused_when_joining_and_the_seat_stays_free(client: TestClient, name: str) -> None:
    created = create_table(client, 2, ["human", "human"])
    table_id = created["table"]["id"]
    response = client.post(f"/api/tables/{table_id}/join", json={"name": name})
    assert response.status_code in (400, 422), response.text
    assert client.get(f"/api/tables/{table_id}").json()["seats"][1]["claimed"] is False


def test_names_in_any_script_reach_the_info_the_record_and_the_replay(client: TestClient) -> None:
    ada, negar = "  Ada <b>&amp;</b> ", "نگار\u200cها"
    created = client.post(
        "/api/tables", json={"players": 2, "name": ada, "seats": [{"kind": "human"}, {"kind": "human"}]}
    ).json()
    table_id = created["table"]["id"]
    joined = client.post(f"/api/tables/{table_id}/join", json={"name": negar})
    assert joined.status_code == 200, joined.text
    seats = client.get(f"/api/tables/{table_id}").json()["seats"]
    assert [s["name"] for s in seats] == ["Ada <b>&amp;</b>", negar]  # trimmed, otherwise the very text
    players = [
        ScriptedPlayer(client, table_id, created["token"], seed=1),
        ScriptedPlayer(client, table_id, joined.json()["token"], seed=2),
    ]
    for p in players:
        p.start()
    for p in players:
        p.join()
    record = GameRecord.loads(client.get(f"/api/tables/{table_id}/record").text)
    assert list(record.players) == ["Ada <b>&amp;</b>", negar]
    replay = client.get(f"/api/tables/{table_id}/replay").json()
    assert [s["name"] for s in replay["table"]["seats"]] == ["Ada <b>&amp;</b>", negar]
    finished = client.get("/api/finished").json()["games"]
    assert [s["name"] for s in finished[0]["seats"]] == ["Ada <b>&amp;</b>", negar]
