"""The CSRF check finds the session cookie exactly as the app does (issue 30, item 1).

The attack: a malformed cookie placed before the session cookie (another port on the same host
or a sibling subdomain can set one) hid the session from the check, which parsed the header
with another parser, while the app still saw the logged-in account, so a POST without
``X-CSRF-Token`` created a rated table (201) and logged out (200). Every Cookie header below,
malformed, duplicated or oddly ordered, must lead the check and the app to the same session:
without the token the POST is refused (403) and changes nothing.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from sakura.server.csrf import SESSION_COOKIE

PASSWORD = "a good long password"
RATED = {"players": 2, "rated": True, "seats": [{"kind": "human"}, {"kind": "human"}]}

# {s}: the session's token. Each header puts it where Starlette's parser finds it.
HEADERS = [
    'x="a; {name}={s}',  # an unclosed quote before it (SimpleCookie gave up on the whole header)
    "x=\\; {name}={s}",
    '{name}={s}; y="b',
    "a=1;;; ;{name}={s}",  # empty pairs
    "garbage; {name}={s}",  # a pair without "="
    "{name}=nothing; {name}={s}",  # duplicated: the last one is the app's
    "b=2; c=\u00e9; {name}={s}",  # a non-ASCII value first
    "$Version=1; {name}={s}; $Path=/",  # RFC 2109 attributes around it
    "  {name}={s}  ",
]


def _login(client: TestClient) -> str:
    response = client.post("/api/signup", json={"username": "Ada", "password": PASSWORD})
    assert response.status_code == 201, response.text
    token = client.cookies.get(SESSION_COOKIE)
    assert token
    return token


@pytest.mark.parametrize("template", HEADERS)
def test_no_cookie_header_hides_the_session_from_the_check(client: TestClient, template: str) -> None:
    session = _login(client)
    client.cookies.clear()
    cookie = template.format(name=SESSION_COOKIE, s=session)
    attacker = {"cookie": cookie.encode("utf-8")}  # bytes: httpx sends them as they are
    # the app sees the account through this very header ...
    assert client.get("/api/me", headers=attacker).json()["username"] == "Ada", cookie
    before = client.get("/api/tables").json()["listing"]
    # ... so the check must too: no token, no table, no logout
    created = client.post("/api/tables", json=RATED, headers=attacker)
    assert created.status_code == 403 and created.json()["code"] == "csrf", (cookie, created.text)
    logout = client.post("/api/logout", headers=attacker)
    assert logout.status_code == 403 and logout.json()["code"] == "csrf", cookie
    assert client.get("/api/tables").json()["listing"] == before
    assert client.get("/api/me", headers=attacker).json()["username"] == "Ada"
    # with the token of that session the same request goes through
    csrf = client.get("/api/me", headers=attacker).json()["csrf"]
    made = client.post("/api/tables", json=RATED, headers={**attacker, "x-csrf-token": csrf})
    assert made.status_code == 201, made.text


def test_a_second_cookie_header_is_read_as_the_app_reads_it(client: TestClient) -> None:
    session = _login(client)
    client.cookies.clear()
    headers = [("cookie", "x=1"), ("cookie", f"{SESSION_COOKIE}={session}")]
    seen = client.get("/api/me", headers=headers).json()["username"]
    refused = client.post("/api/logout", headers=headers)
    # whichever header the app reads, the check reads the same: a session seen is a session checked
    assert seen is None or refused.status_code == 403
    if seen is None:
        assert refused.status_code == 200
