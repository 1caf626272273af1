"""Moderation (issue #30, deliverable 3): the admin role from the command line, bans, hidden
messages, closed tables, reports, the audit log, and an account deleted by its owner; each
action and its refusal to anyone but an admin."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from tests.server.conftest import ScriptedPlayer, receive, socket, wait_until
from typer.testing import CliRunner

from sakura.cli.main import app as cli
from sakura.server import create_app
from sakura.server.people_models import RatingRow

PASSWORD = "a good long password"


def signup(client: TestClient, name: str) -> dict[str, str]:
    response = client.post("/api/signup", json={"username": name, "password": PASSWORD})
    assert response.status_code == 201, response.text
    return {"x-csrf-token": response.json()["csrf"]}


def grant(url: str, name: str, command: str = "grant") -> str:
    result = CliRunner().invoke(cli, ["admin", command, name, "--database-url", url])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture
def site(database_url: str) -> Iterator[tuple[TestClient, dict[str, str], str]]:
    """A server, and its admin Ada logged in (her client, her CSRF header)."""
    with TestClient(create_app(database_url)) as client:
        csrf = signup(client, "Ada")
        assert "Ada is an admin" in grant(database_url, "ada")
        yield client, csrf, database_url


def say(ws: Any, text: str) -> dict[str, Any]:
    ws.send_text(json.dumps({"type": "chat", "text": text}))
    return receive(ws, "chat")


def test_every_admin_route_refuses_anyone_but_an_admin(site: tuple[TestClient, dict[str, str], str]) -> None:
    admin, _, _ = site
    anonymous = TestClient(admin.app)
    player = TestClient(admin.app)
    player_csrf = signup(player, "Bob")
    posts = {
        "/api/admin/ban": {"username": "Ada"},
        "/api/admin/unban": {"username": "Ada"},
        "/api/admin/hide": {"message": 1},
        "/api/admin/close": {"table": "abc"},
    }
    for who, headers in ((anonymous, {}), (player, player_csrf)):
        refused = who.get("/api/admin")
        assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
        for path, body in posts.items():
            answer = who.post(path, json=body, headers=headers)
            assert answer.status_code == 403 and answer.json()["code"] == "forbidden", (path, answer.text)
    # an admin's session without its CSRF token changes nothing either
    forged = admin.post("/api/admin/ban", json={"username": "Bob"})
    assert forged.status_code == 403 and forged.json()["code"] == "csrf"
    assert player.get("/api/me").json()["username"] == "Bob"
    assert admin.get("/api/me").json()["admin"] is True and player.get("/api/me").json()["admin"] is False
    overview = admin.get("/api/admin").json()
    assert overview["moderator"] == "Ada" and overview["banned"] == []
    assert overview["audit"][0]["action"] == "grant" and overview["audit"][0]["actor"] == "(command line)"


def test_revoking_the_role_closes_the_page(site: tuple[TestClient, dict[str, str], str]) -> None:
    admin, _, url = site
    assert admin.get("/api/admin").status_code == 200
    assert "no longer an admin" in grant(url, "Ada", "revoke")
    assert admin.get("/api/admin").status_code == 403
    missing = CliRunner().invoke(cli, ["admin", "grant", "nobody", "--database-url", url])
    assert missing.exit_code == 2 and "no account named" in missing.output


def test_a_ban_ends_sessions_sign_in_and_chat_until_unbanned(
    site: tuple[TestClient, dict[str, str], str],
) -> None:
    admin, csrf, _ = site
    player = TestClient(admin.app)
    player_csrf = signup(player, "Bob")
    two = {"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
    table_id = admin.post("/api/tables", json=two, headers=csrf).json()["table"]["id"]
    token = player.post(f"/api/tables/{table_id}/join", json={}, headers=player_csrf).json()[
        "token"
    ]  # Bob's seat
    with socket(admin, table_id, token) as (ws, _):  # (sockets through the client that runs the app)
        assert say(ws, "hello before")["text"] == "hello before"
        banned = admin.post("/api/admin/ban", json={"username": "bob", "reason": "spam"}, headers=csrf)
        assert banned.status_code == 200 and banned.json() == {"username": "Bob", "banned": True}
        assert player.get("/api/me").json()["username"] is None  # the session ended at once
        ws.send_text(json.dumps({"type": "chat", "text": "still here?"}))
        assert receive(ws, "error")["code"] == "banned"
    assert "sakura_session" not in player.cookies  # the ended session's cookie was cleared by /api/me
    again = player.post("/api/login", json={"username": "Bob", "password": PASSWORD})
    assert again.status_code == 403 and again.json()["code"] == "banned"
    assert admin.get("/api/admin").json()["banned"][0]["username"] == "Bob"
    assert admin.post("/api/admin/unban", json={"username": "Bob"}, headers=csrf).status_code == 200
    assert player.post("/api/login", json={"username": "Bob", "password": PASSWORD}).status_code == 200
    audit = admin.get("/api/admin").json()["audit"]
    assert [(a["action"], a["target"], a["actor"]) for a in audit[:2]] == [
        ("unban", "Bob", "Ada"),
        ("ban", "Bob", "Ada"),
    ]
    assert audit[1]["detail"] == "spam" and audit[1]["at"]
    missing = admin.post("/api/admin/ban", json={"username": "nobody"}, headers=csrf)
    assert missing.status_code == 404 and missing.json()["code"] == "no_account"


def test_a_reported_message_hidden_leaves_every_page_and_the_history(
    site: tuple[TestClient, dict[str, str], str],
) -> None:
    admin, csrf, _ = site
    created = admin.post(
        "/api/tables", json={"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}, headers=csrf
    )
    table_id, token = created.json()["table"]["id"], created.json()["token"]
    guest = TestClient(admin.app)
    other = guest.post(f"/api/tables/{table_id}/join", json={}).json()["token"]
    with socket(admin, table_id, token) as (ws, _), socket(admin, table_id, other) as (rude_ws, _):
        rude = say(rude_ws, "something rude")
        kept = say(rude_ws, "something kind")
        reported = guest.post(f"/api/chat/{rude['id']}/report", json={"reason": "rude"})
        assert reported.status_code == 201
        reports = admin.get("/api/admin").json()["reports"]
        assert [(r["chat_id"], r["text"], r["reason"], r["table"]) for r in reports] == [
            (rude["id"], "something rude", "rude", table_id)
        ]
        hidden = admin.post("/api/admin/hide", json={"message": rude["id"]}, headers=csrf)
        assert hidden.status_code == 200
        for each in (ws, rude_ws):  # gone from every page at the table, live
            assert receive(each, "chat_hidden")["id"] == rude["id"]
    with socket(admin, table_id, other) as (again, _):
        history = receive(again, "chat_history")["messages"]
    assert [m["id"] for m in history if m["id"] in (rude["id"], kept["id"])] == [kept["id"]]
    overview = admin.get("/api/admin").json()
    assert overview["reports"] == []  # handled by the hiding
    assert overview["audit"][0]["action"] == "hide" and overview["audit"][0]["detail"] == "something rude"
    assert (
        guest.post(f"/api/chat/{rude['id']}/report", json={}).status_code == 404
    )  # hidden: nothing to report
    assert admin.post("/api/admin/hide", json={"message": 999999}, headers=csrf).status_code == 404


def test_a_closed_table_tells_its_players_and_ends_unrated(
    site: tuple[TestClient, dict[str, str], str],
) -> None:
    admin, csrf, _ = site
    player = TestClient(admin.app)
    with_bot = {"players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}]}
    created = admin.post("/api/tables", json=with_bot, headers=csrf)  # (on the client that runs the app)
    table_id, token = created.json()["table"]["id"], created.json()["token"]
    with socket(admin, table_id, token) as (ws, welcome):
        closed = admin.post("/api/admin/close", json={"table": table_id, "reason": "abuse"}, headers=csrf)
        assert closed.status_code == 200
        assert "closed" in receive(ws, "closed")["message"]
        ws.send_text(json.dumps({"type": "act", "action": welcome["view"]["legal_actions"][0]}))
        assert receive(ws, "error")["code"] == "closed"
    assert player.get(f"/api/tables/{table_id}").json()["status"] == "closed"
    listing = player.get("/api/tables").json()["listing"]
    assert table_id not in {t["id"] for kind in listing.values() for t in kind}
    again = admin.post("/api/admin/close", json={"table": table_id}, headers=csrf)
    assert again.status_code == 404  # in play no more
    audit = admin.get("/api/admin").json()["audit"][0]
    assert (audit["action"], audit["target"], audit["detail"]) == ("close", table_id, "abuse")


def test_an_owner_deletes_their_account_and_keeps_no_rating(
    site: tuple[TestClient, dict[str, str], str],
) -> None:
    admin, csrf, _ = site
    guest = TestClient(admin.app, client=("192.0.2.7", 50000))  # another address (farm.py)
    guest_csrf = signup(guest, "Bob")
    rated = {"players": 2, "variant": "court", "rated": True, "seats": [{"kind": "human"}, {"kind": "human"}]}
    created = admin.post("/api/tables", json=rated, headers=csrf)
    table_id = created.json()["table"]["id"]
    bob_token = guest.post(f"/api/tables/{table_id}/join", json={}, headers=guest_csrf).json()["token"]
    players = [
        ScriptedPlayer(admin, table_id, created.json()["token"]),
        ScriptedPlayer(admin, table_id, bob_token, seed=1),
    ]
    for p in players:
        p.start()
    for p in players:
        p.join()
    wait_until(lambda: admin.get(f"/api/archive/{table_id}").status_code == 200, 60, "the archive entry")
    store = admin.app.state.lobby.store  # type: ignore[attr-defined]
    wait_until(
        lambda: _ratings(store, "bob") > 0, 60, "Bob's rating"
    )  # (rated: the farm rule may leave it unchanged)
    unfinished = admin.post("/api/tables", json=rated, headers=csrf).json()["table"]["id"]
    assert guest.post(f"/api/tables/{unfinished}/join", json={}, headers=guest_csrf).status_code == 200
    wrong = guest.post("/api/account/delete", json={"password": "not the password"}, headers=guest_csrf)
    assert wrong.status_code == 401 and guest.get("/api/me").json()["username"] == "Bob"
    deleted = guest.post("/api/account/delete", json={"password": PASSWORD}, headers=guest_csrf)
    assert deleted.status_code == 200 and deleted.json()["games"] == 1
    assert guest.get("/api/me").json()["username"] is None
    assert _ratings(store, "bob") == 0
    board = admin.get("/api/leaderboard?class=sakura-2-court").json()
    assert [p["username"] for p in board["players"]] == ["Ada"]
    seats = admin.get(f"/api/archive/{table_id}").json()["seats"]
    assert [s["name"] for s in seats] == ["Ada", ""] and seats[1]["account"] is None  # kept, unnamed
    assert admin.get("/api/players/Bob").status_code == 404
    assert guest.post("/api/login", json={"username": "Bob", "password": PASSWORD}).status_code == 401
    # the freed name does not get the deleted account's seat in a game still being played
    assert admin.get(f"/api/tables/{unfinished}").json()["seats"][1]["name"] == ""
    impostor = TestClient(admin.app)
    signup(impostor, "bob")
    assert impostor.get("/api/me").json()["tables"] == []
    nobody = TestClient(admin.app).post("/api/account/delete", json={"password": PASSWORD})
    assert nobody.status_code == 401


def _ratings(store: Any, key: str) -> int:
    with store.engine.connect() as conn:
        return len(conn.execute(select(RatingRow).where(RatingRow.account == key)).all())
