"""Look-alike names (issue 30, item 3): a username that passes for another is refused, two
seats at one table may not share a name as a reader sees it, and zero-width joiners stand only
where a script needs them; Persian and Spanish names still work."""

from __future__ import annotations

from fastapi.testclient import TestClient

PASSWORD = "correct horse battery staple 9"
HUMANS = [{"kind": "human"}, {"kind": "human"}]


def _signup(client: TestClient, username: str) -> int:
    fresh = TestClient(client.app)
    return fresh.post("/api/signup", json={"username": username, "password": PASSWORD}).status_code


def test_a_cyrillic_look_alike_username_is_refused(client: TestClient) -> None:
    assert _signup(client, "ada67985") == 201
    for look_alike in ("\u0410da67985", "\u0430d\u043067985", "ADA67985", "ada67985\u200d"):
        refused = TestClient(client.app).post(
            "/api/signup", json={"username": look_alike, "password": PASSWORD}
        )
        assert refused.status_code in (400, 409), (look_alike, refused.text)
        assert refused.json()["code"] in ("bad_name", "taken")
    mixed = TestClient(client.app).post("/api/signup", json={"username": "\u0410da1", "password": PASSWORD})
    assert mixed.status_code == 400 and "alphabets" in mixed.json()["detail"]  # mixed in one word
    whole = TestClient(client.app).post(
        "/api/signup", json={"username": "\u0430\u0441\u0435", "password": PASSWORD}
    )
    assert whole.status_code == 201  # "асе", all Cyrillic, like no one yet: a name of its own
    latin = TestClient(client.app).post("/api/signup", json={"username": "ace", "password": PASSWORD})
    assert latin.status_code == 409 and latin.json()["code"] == "taken"  # but "ace" looks just like it


def test_persian_and_spanish_names_are_welcome(client: TestClient) -> None:
    assert _signup(client, "نگار") == 201
    assert _signup(client, "José") == 201
    created = client.post("/api/tables", json={"players": 2, "name": "نگار\u200cها", "seats": HUMANS})
    assert created.status_code == 201, created.text
    assert created.json()["table"]["seats"][0]["name"] == "نگار\u200cها"
    joined = client.post(f"/api/tables/{created.json()['table']['id']}/join", json={"name": "José"})
    assert joined.status_code == 200, joined.text


def test_a_trailing_zero_width_joiner_is_refused(client: TestClient) -> None:
    for name in ("Ada\u200d", "\u200dAda", "A\u200dda", "Ada\u200c"):
        refused = client.post("/api/tables", json={"players": 2, "name": name})
        assert refused.status_code == 400 and refused.json()["code"] == "bad_name", (name, refused.text)
        signup = TestClient(client.app).post("/api/signup", json={"username": name, "password": PASSWORD})
        assert signup.status_code == 400
    assert client.get("/api/tables").json()["open"] == []


def test_two_seats_at_one_table_may_not_look_alike(client: TestClient) -> None:
    created = client.post("/api/tables", json={"players": 3, "name": "Ace", "seats": HUMANS + HUMANS[:1]})
    table_id = created.json()["table"]["id"]
    for name in ("Ace", "ACE", "\u0430\u0441\u0435", "Ace "):
        refused = client.post(f"/api/tables/{table_id}/join", json={"name": name})
        assert refused.status_code == 409 and refused.json()["code"] == "name_taken", (name, refused.text)
    seats = client.get(f"/api/tables/{table_id}").json()["seats"]
    assert [s["claimed"] for s in seats] == [True, False, False]  # nothing taken by the refusals
    assert client.post(f"/api/tables/{table_id}/join", json={"name": "Bob"}).status_code == 200
    twins = [{"kind": "human", "name": "Bo"}, {"kind": "bot", "level": "easy", "name": "BO"}]
    both = client.post("/api/tables", json={"players": 2, "seats": twins})
    assert both.status_code == 409 and both.json()["code"] == "name_taken"
