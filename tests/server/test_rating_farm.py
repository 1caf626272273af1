"""Rating farms (issue 30, item 8): two accounts used from one address (or one device) play a
rated game to its end, and nobody's rating changes, the table saying why; sign-up is limited
per address per day, with a clear refusal."""

from __future__ import annotations

from fastapi.testclient import TestClient
from tests.server.test_ratings import ELSEWHERE, TWO, _play_out, _wait_for, account, rated_table

from sakura.server import create_app

PASSWORD = "a good long password"


def test_two_accounts_of_one_address_play_a_rated_game_without_changing_ratings(database_url: str) -> None:
    with TestClient(create_app(database_url)) as client:
        _one_address_plays_unrated(client)


def _one_address_plays_unrated(client: TestClient) -> None:
    second = TestClient(client.app)  # another browser (its own cookies), the same address
    table_id, ada, bo = rated_table(client, second, account(client, "Ada"), account(second, "Bob"))
    _play_out(client, table_id, [ada, bo])
    info = _wait_for(lambda: (i := client.get(f"/api/tables/{table_id}").json()).get("unrated") and i)
    assert info["status"] == "finished" and info["rated"] is True
    assert "same address or device" in info["unrated"]
    for name in ("Ada", "Bob"):
        page = client.get(f"/api/players/{name}").json()
        assert page["ratings"] == page["history"] == {"realtime": {}, "turn": {}}, page
    assert client.get("/api/leaderboard?class=sakura-2-court").json()["total"] == 0


def test_a_shared_device_cookie_is_enough(client: TestClient) -> None:
    """One browser, two addresses (a laptop moved from home to a café): still one person."""
    account(client, "Ada")
    device = client.cookies.get("sakura_device")
    assert device
    cafe = TestClient(client.app, client=ELSEWHERE, cookies={"sakura_device": device})
    table_id, ada, bo = rated_table(
        client, cafe, {"x-csrf-token": client.get("/api/me").json()["csrf"]}, account(cafe, "Bob")
    )
    _play_out(client, table_id, [ada, bo])
    assert _wait_for(lambda: client.get(f"/api/tables/{table_id}").json().get("unrated"))
    assert client.get("/api/players/Bob").json()["ratings"] == {"realtime": {}, "turn": {}}


def test_accounts_of_two_addresses_are_rated(client: TestClient) -> None:
    guest = TestClient(client.app, client=ELSEWHERE)
    table_id, ada, bo = rated_table(client, guest, account(client, "Ada"), account(guest, "Bob"), TWO)
    _play_out(client, table_id, [ada, bo])
    ratings = _wait_for(lambda: client.get("/api/players/Bob").json()["ratings"]["realtime"])
    assert ratings["sakura-2-court"]["games"] == 1
    assert "unrated" not in client.get(f"/api/tables/{table_id}").json()


def test_the_fourth_sign_up_of_an_address_in_a_day_is_refused(client: TestClient) -> None:
    for name in ("Ada", "Bob", "Cyd"):
        made = TestClient(client.app).post("/api/signup", json={"username": name, "password": PASSWORD})
        assert made.status_code == 201, made.text
    refused = TestClient(client.app).post("/api/signup", json={"username": "Dee", "password": PASSWORD})
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert "accounts today" in refused.json()["detail"] and int(refused.headers["retry-after"]) >= 1
    assert client.post("/api/login", json={"username": "Dee", "password": PASSWORD}).status_code == 401
    other = TestClient(client.app, client=ELSEWHERE)  # another address is not concerned
    assert other.post("/api/signup", json={"username": "Dee", "password": PASSWORD}).status_code == 201
