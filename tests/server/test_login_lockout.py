"""Nobody can lock a user out (issue 30, item 2): the login limit refuses a client address
(all names, and one name from it), never a username for everyone. One wrong try every 12 s from
anywhere used to keep an account shut: 12 wrong tries from 12 addresses, then the real user
with the right password from a fresh address got 429."""

from __future__ import annotations

from fastapi.testclient import TestClient

PASSWORD = "correct horse battery staple 9"


def from_address(client: TestClient, address: str) -> TestClient:
    return TestClient(client.app, client=(address, 40000))


def test_wrong_tries_from_many_addresses_do_not_lock_the_real_user_out(client: TestClient) -> None:
    home = from_address(client, "192.0.2.1")
    assert home.post("/api/signup", json={"username": "Ada", "password": PASSWORD}).status_code == 201
    for i in range(12):
        attacker = from_address(client, f"198.51.100.{i + 1}")
        wrong = attacker.post("/api/login", json={"username": "Ada", "password": f"guess {i}"})
        assert wrong.status_code == 401 and wrong.json()["code"] == "bad_login", wrong.text
    real = from_address(client, "203.0.113.7")
    right = real.post("/api/login", json={"username": "ada", "password": PASSWORD})
    assert right.status_code == 200, right.text
    assert right.json()["username"] == "Ada" and real.get("/api/me").json()["username"] == "Ada"


def test_one_address_is_still_refused_past_its_tries(client: TestClient) -> None:
    assert client.post("/api/signup", json={"username": "Ada", "password": PASSWORD}).status_code == 201
    attacker = from_address(client, "198.51.100.9")
    codes = [
        attacker.post("/api/login", json={"username": "Ada", "password": f"guess {i}"}).status_code
        for i in range(6)
    ]
    assert codes[:5] == [401] * 5 and codes[5] == 429, codes  # five tries on one name from an address
    refused = attacker.post("/api/login", json={"username": "Ada", "password": PASSWORD})
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
    # the same name from elsewhere is not refused
    other = from_address(client, "203.0.113.8")
    assert other.post("/api/login", json={"username": "Ada", "password": PASSWORD}).status_code == 200
    # and an address trying many names is refused once past twenty tries in all (refilled at one
    # try every 3 s: on a slow machine a few more get through before the refusal, never fewer)
    spray = from_address(client, "198.51.100.10")
    sprayed = []
    while 429 not in sprayed and len(sprayed) < 100:
        sprayed.append(
            spray.post("/api/login", json={"username": f"user{len(sprayed)}", "password": "x"}).status_code
        )
    assert sprayed[:20] == [401] * 20 and sprayed[-1] == 429, sprayed
