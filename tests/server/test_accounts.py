"""Accounts over real HTTP and WebSockets: sign-up, log-in and -out, the session cookie's
flags, the login rate limit, CSRF on every state-changing route, no password anywhere but as
an argon2 hash, and seats bound to the account (resumed from another browser)."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from sakura.server import create_app

PASSWORD = "correct horse battery staple 9"


def signup(client: TestClient, username: str = "Ada", password: str = PASSWORD) -> dict[str, Any]:
    response = client.post("/api/signup", json={"username": username, "password": password})
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def test_sign_up_sets_a_session_cookie_that_scripts_cannot_read(client: TestClient) -> None:
    response = client.post("/api/signup", json={"username": "Ada", "password": PASSWORD})
    assert response.status_code == 201, response.text
    cookie = response.headers["set-cookie"]
    assert "sakura_session=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert "Secure" not in cookie  # plain http (a laptop): a Secure cookie would never come back
    me = client.get("/api/me").json()
    assert me["username"] == "Ada" and me["csrf"] == response.json()["csrf"]
    assert client.post("/api/logout", headers={"x-csrf-token": me["csrf"]}).status_code == 200
    assert client.get("/api/me").json()["username"] is None


def test_over_https_the_cookie_is_secure(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url), base_url="https://testserver") as client:
        response = client.post("/api/signup", json={"username": "Ada", "password": PASSWORD})
        assert "Secure" in response.headers["set-cookie"]


def test_usernames_are_unique_whatever_their_case_and_checked(client: TestClient) -> None:
    signup(client, "Negar")
    other = TestClient(client.app)
    taken = other.post("/api/signup", json={"username": "NEGAR", "password": PASSWORD})
    assert taken.status_code == 409 and taken.json()["code"] == "taken"
    for bad in ["ab", "two words", "<img src=x>", "a\u202eb"]:
        refused = other.post("/api/signup", json={"username": bad, "password": PASSWORD})
        assert refused.status_code == 400 and refused.json()["code"] == "bad_name", bad
    short = other.post("/api/signup", json={"username": "Bo_b", "password": "1234567"})
    assert short.status_code == 400 and short.json()["code"] == "bad_password"
    assert other.post("/api/signup", json={"username": "نگار", "password": PASSWORD}).status_code == 201


def test_login_checks_the_password_and_is_rate_limited(client: TestClient) -> None:
    signup(client, "Ada")
    browser = TestClient(client.app)
    wrong = browser.post("/api/login", json={"username": "ada", "password": "not it at all"})
    assert wrong.status_code == 401 and wrong.json()["code"] == "bad_login"
    right = browser.post("/api/login", json={"username": "ada", "password": PASSWORD})
    assert right.status_code == 200 and right.json()["username"] == "Ada"
    token = {"x-csrf-token": right.json()["csrf"]}  # logged in: every POST carries the token
    guess = {"username": "Ada", "password": "guess"}
    codes = [browser.post("/api/login", json=guess, headers=token).status_code for _ in range(5)]
    assert codes[-1] == 429, codes
    limited = browser.post("/api/login", json={"username": "Ada", "password": PASSWORD}, headers=token)
    assert limited.status_code == 429 and int(limited.headers["retry-after"]) >= 1  # even the right one, now
    assert "try again" in limited.json()["detail"]


def test_no_password_in_the_database_or_the_log(sqlite_url: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    with TestClient(create_app(sqlite_url)) as client:
        signup(client, "Ada")
        other = TestClient(client.app)
        other.post("/api/login", json={"username": "Ada", "password": PASSWORD})
        other.post("/api/login", json={"username": "Ada", "password": PASSWORD + "x"})
    engine = create_engine(sqlite_url)
    with engine.connect() as conn:
        dump = "\n".join(
            str(tuple(row))
            for name in ("sakura_accounts", "sakura_sessions")
            for row in conn.execute(text(f"SELECT * FROM {name}"))
        )
        hashes = list(conn.scalars(text("SELECT password_hash FROM sakura_accounts")))
    engine.dispose()
    path = Path(sqlite_url.removeprefix("sqlite:///"))
    raw = b"".join(p.read_bytes() for p in (path, path.with_name(path.name + "-wal")) if p.exists())
    assert PASSWORD not in dump and PASSWORD.encode() not in raw
    assert len(hashes) == 1 and hashes[0].startswith("$argon2id$")
    assert PASSWORD not in caplog.text and "Ada" in caplog.text  # the log was written, without it


def _state_changing_routes(client: TestClient) -> list[str]:
    app = client.app.app.app  # Guard -> CsrfGuard -> FastAPI

    def walk(routes: list[Any]) -> list[Any]:  # included routers hold their own routes
        out = []
        for r in routes:
            inner = getattr(r, "original_router", None)
            out.extend(walk(inner.routes) if inner is not None else [r])
        return out

    return sorted(
        r.path
        for r in walk(app.routes)
        if getattr(r, "methods", None) and r.methods & {"POST", "PUT", "PATCH", "DELETE"}
    )


def test_a_cross_site_post_to_every_state_changing_route_is_refused(client: TestClient) -> None:
    routes = _state_changing_routes(client)
    assert {"/api/tables", "/api/tables/{table_id}/join", "/api/signup", "/api/login", "/api/logout"} <= set(
        routes
    )
    created = client.post("/api/tables", json={"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]})
    table_id = created.json()["table"]["id"]
    bodies = {
        "/api/tables": {"players": 2},
        "/api/signup": {"username": "Mallory", "password": PASSWORD},
        "/api/login": {"username": "Ada", "password": PASSWORD},
    }
    before = client.get("/api/tables").json()["listing"]
    for route in routes:
        path = route.replace("{table_id}", table_id)
        for headers in (
            {"origin": "https://evil.example"},
            {"referer": "https://evil.example/page"},
            {"origin": "null"},
        ):
            response = client.post(path, json=bodies.get(route, {}), headers=headers)
            assert response.status_code == 403 and response.json()["code"] == "csrf", (route, headers)
    assert client.get("/api/tables").json()["listing"] == before
    assert client.get(f"/api/tables/{table_id}").json()["seats"][1]["claimed"] is False
    assert client.post("/api/login", json=bodies["/api/login"]).status_code == 401  # no Mallory made


def test_a_logged_in_browser_must_send_its_token(client: TestClient) -> None:
    csrf = signup(client, "Ada")["csrf"]
    routes = _state_changing_routes(client)
    created = client.post(
        "/api/tables",
        json={"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]},
        headers={"x-csrf-token": csrf},
    )
    assert created.status_code == 201, created.text
    table_id = created.json()["table"]["id"]
    for route in routes:
        path = route.replace("{table_id}", table_id)
        for headers in ({}, {"x-csrf-token": "0" * 64}, {"origin": "http://testserver"}):
            response = client.post(path, json={"players": 2}, headers=headers)
            assert response.status_code == 403 and response.json()["code"] == "csrf", (route, headers)
    assert client.get("/api/me").json()["username"] == "Ada"  # the logout without a token did nothing
    same_site = client.post(
        "/api/tables", json={"players": 2}, headers={"x-csrf-token": csrf, "origin": "http://testserver"}
    )
    assert same_site.status_code == 201


def test_seats_are_bound_to_the_account_and_resume_from_another_browser(client: TestClient) -> None:
    csrf = signup(client, "Ada")["csrf"]
    seats = [{"kind": "human"}, {"kind": "bot", "level": "easy"}]
    created = client.post("/api/tables", json={"players": 2, "seats": seats}, headers={"x-csrf-token": csrf})
    table_id = created.json()["table"]["id"]
    seat = created.json()["table"]["seats"][0]
    assert seat["account"] == "Ada" and seat["name"] == "Ada"  # the name comes from the account
    laptop = TestClient(client.app)  # another browser: no token in its storage
    with laptop.websocket_connect(f"/ws/{table_id}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": None}))
        assert ws.receive_json()["seat"] is None  # not logged in: a spectator
    laptop.post("/api/login", json={"username": "ADA", "password": PASSWORD})
    assert laptop.get("/api/me").json()["tables"] == [{"table": table_id, "seat": 0, "game": "sakura"}]
    with laptop.websocket_connect(f"/ws/{table_id}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": None}))
        welcome = ws.receive_json()
        assert welcome["type"] == "welcome" and welcome["seat"] == 0 and welcome["view"]["legal_actions"]
