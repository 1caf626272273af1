"""Notifications when the page is closed (issue 35, deliverable 3), against local stand-ins:
an SMTP server on loopback (``aiosmtpd``) for e-mail, a tiny HTTP server on loopback as the
push service for Web Push. The server's clock is a fake one moved by days; every wait is for a
mail, a request or a stored row, never for time.

The push request is checked as a push service would: its VAPID JWT's ES256 signature against
``/api/push/key`` (``aud`` the endpoint's origin, ``exp`` ahead, ``sub`` the contact), and its
aes128gcm body decrypted with the subscription's private key and auth secret (``http_ece``).
"""

from __future__ import annotations

import base64
import datetime as dt
import email
import email.policy
import http.server
import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any

import http_ece
import pytest
from aiosmtpd.controller import Controller
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from fastapi.testclient import TestClient
from py_vapid import Vapid02
from sqlalchemy import select

from sakura.server import create_app
from sakura.server.db import Store
from sakura.server.notify.mail import Mailer, SmtpServer
from sakura.server.notify.models import NotifiedRow
from sakura.server.notify.notifier import Notifier
from sakura.server.notify.push import Pusher
from sakura.server.notify.texts import text
from sakura.server.turns import FakeClock

from .conftest import Message, wait_until

PASSWORD = "correct horse battery staple 9"
T0, DAY = 1_800_000_000.0, 86_400.0
SUBJECT = "mailto:ops@example.org"


# ---------------------------------------------------------------- the stand-ins


class Inbox:
    """aiosmtpd's handler: every message it is given, parsed."""

    def __init__(self) -> None:
        self.mails: list[EmailMessage] = []
        self.envelopes: list[tuple[str, list[str]]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        parsed = email.message_from_bytes(envelope.content, policy=email.policy.default)
        self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
        self.mails.append(parsed)  # type: ignore[arg-type]
        return "250 OK"


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    handler = Inbox()
    with socket.socket() as probe:  # a free port (aiosmtpd checks its server by connecting to it)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield handler, port
    finally:
        controller.stop()


@dataclass
class PushService:
    """A push service on loopback: records each request; ``/gone/...`` answers 410, ``/fail/...`` 500."""

    port: int = 0
    requests: list[tuple[str, dict[str, str], bytes]] = field(default_factory=list)

    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture
def push_service() -> Iterator[PushService]:
    service = PushService()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length", 0)))
            service.requests.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
            status = 410 if self.path.startswith("/gone/") else 500 if self.path.startswith("/fail/") else 201
            self.send_response(status)
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    service.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    os.environ.setdefault("NO_PROXY", "127.0.0.1")  # the push service is on loopback
    try:
        yield service
    finally:
        server.shutdown()
        server.server_close()


@dataclass
class Browser:
    """A browser's push subscription, as the Push API makes it: a P-256 key pair and a secret."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self) -> Message:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64(point), "auth": b64(self.auth)}}


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


# ---------------------------------------------------------------- the server


def app_with(
    url: str, clock: FakeClock, *, smtp_port: int | None = None, push: bool = False
) -> tuple[Any, Notifier]:
    mailer = None if smtp_port is None else Mailer(SmtpServer("127.0.0.1", smtp_port), "sakura@example.org")
    pusher = None
    if push:
        vapid = Vapid02()
        vapid.generate_keys()
        pusher = Pusher(vapid, SUBJECT, plain_http_hosts=frozenset({"127.0.0.1"}))
    notifier = Notifier("http://testserver", b"s" * 32, mailer=mailer, pusher=pusher)
    return create_app(url, turn_clock=clock, notifier=notifier), notifier


def login(client: TestClient, username: str = "Ada") -> dict[str, str]:
    response = client.post("/api/signup", json={"username": username, "password": PASSWORD})
    assert response.status_code == 201, response.text
    return {"x-csrf-token": response.json()["csrf"]}


def paced_table(client: TestClient, csrf: dict[str, str], pace: str = "1d") -> Message:
    """Ada (the logged-in creator) against a bot, turn-based; nobody connects."""
    body = {"players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "level": "beginner"}], "pace": pace}
    response = client.post("/api/tables", json=body, headers=csrf)
    assert response.status_code == 201, response.text
    created: Message = response.json()
    return created


def ledger(url: str, table_id: str) -> list[str]:
    store = Store(url)
    try:
        with store.engine.connect() as conn:
            return list(
                conn.execute(select(NotifiedRow.decision).where(NotifiedRow.table_id == table_id)).scalars()
            )
    finally:
        store.close()


def told(notifier: Notifier, table_id: str, seat: int = 0) -> str | None:
    """The decision the notifier last considered for ``seat`` (told, or seen at the table)."""
    return notifier._told.get(table_id, {}).get(seat)


def next_decision(clock: FakeClock, notifier: Notifier, table_id: str) -> None:
    """A day passes: the timer plays Ada's card; until her next decision is considered and
    whatever it sent is sent."""
    before = told(notifier, table_id)
    clock.advance(DAY + 1)
    wait_until(lambda: told(notifier, table_id) not in (None, before), what="Ada's next decision")
    wait_until(lambda: settled(notifier), what="the notifications to end")


def settled(notifier: Notifier) -> bool:
    return not notifier._tasks


# ---------------------------------------------------------------- e-mail


def test_a_mail_when_it_is_your_move_and_its_one_click_unsubscribe(
    sqlite_url: str, inbox: tuple[Inbox, int]
) -> None:
    mails, port = inbox
    clock = FakeClock(T0)
    app, notifier = app_with(sqlite_url, clock, smtp_port=port)
    with TestClient(app) as client:
        csrf = login(client)
        chosen = client.post(
            "/api/notifications",
            json={"email": "ada@example.org", "email_on": True, "language": "es"},
            headers=csrf,
        )
        assert chosen.status_code == 200 and chosen.json()["email_on"] and chosen.json()["mail_available"]
        table_id = paced_table(client, csrf)["table"]["id"]
        wait_until(lambda: len(mails.mails) == 1, what="the first mail")
        mail = mails.mails[0]
        assert mails.envelopes[0] == ("sakura@example.org", ["ada@example.org"])
        assert mail["To"] == "ada@example.org" and mail["Subject"] == "Te toca en Sakura"  # Ada's language
        assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"  # RFC 8058
        unsubscribe = mail["List-Unsubscribe"].strip("<>")
        assert unsubscribe.startswith("http://testserver/unsubscribe/")
        plain = mail.get_body(("plain",)).get_content()
        html = mail.get_body(("html",)).get_content()
        assert f"Mesa {table_id}, ronda 1" in plain and f"http://testserver/t/{table_id}" in plain
        assert unsubscribe in plain and f'href="{unsubscribe}"' in html.replace("&amp;", "&")
        path = unsubscribe.removeprefix("http://testserver")

        page = client.get(path)  # the link opens a page with a button; opening it changes nothing
        assert page.status_code == 200 and 'method="post"' in page.text
        assert client.get("/api/notifications").json()["email_on"] is True
        # the one-click POST, as a mail program makes it: no login, no cookie, no CSRF token
        ada = dict(client.cookies)
        client.cookies.clear()
        forged = client.post(path[:-3] + ("AAA" if not path.endswith("AAA") else "BBB"))
        assert forged.status_code == 404 and forged.json()["code"] == "bad_unsubscribe"
        done = client.post(
            path,
            content=b"List-Unsubscribe=One-Click",
            headers={"content-type": "application/x-www-form-urlencoded"},
        )
        client.cookies.update(ada)
        assert done.status_code == 200, done.text
        assert client.get("/api/notifications").json()["email_on"] is False

        next_decision(clock, notifier, table_id)  # the deadline passes; her next decision begins
        assert len(mails.mails) == 1  # unsubscribed: the second move notified nobody
        assert notifier.counts["mail", "sent"] == 1


def test_no_notification_while_the_seat_is_at_the_table(sqlite_url: str, inbox: tuple[Inbox, int]) -> None:
    mails, port = inbox
    clock = FakeClock(T0)
    app, notifier = app_with(sqlite_url, clock, smtp_port=port)
    with TestClient(app) as client:
        csrf = login(client)
        client.post("/api/notifications", json={"email": "ada@example.org", "email_on": True}, headers=csrf)
        body = {"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}], "pace": "1d"}
        created = client.post("/api/tables", json=body, headers=csrf).json()
        table_id, token = created["table"]["id"], created["token"]
        with client.websocket_connect(f"/ws/{table_id}") as ws:  # Ada is looking
            ws.send_text(json.dumps({"type": "hello", "token": token}))
            while ws.receive_json()["type"] != "welcome":
                pass
            ada = dict(client.cookies)
            client.cookies.clear()  # Bo, with no account, takes the other seat: play begins
            join = client.post(f"/api/tables/{table_id}/join", json={"seat": 1})
            client.cookies.update(ada)
            assert join.status_code == 200, join.text
            wait_until(lambda: settled(notifier), what="the notifications to end")
        assert mails.mails == [] and ledger(sqlite_url, table_id) == []
        for _ in range(6):  # she left; days pass, the timer plays; at her next decision she is told
            if ledger(sqlite_url, table_id):
                break
            seq = client.get(f"/api/tables/{table_id}").json()["seq"]
            clock.advance(DAY + 1)

            def moved(before: int = seq) -> bool:
                return bool(
                    client.get(f"/api/tables/{table_id}").json()["seq"] > before and settled(notifier)
                )

            wait_until(moved, what="a timer move")
        wait_until(lambda: len(mails.mails) == 1, what="the mail of her next decision")
        assert "it is your move" in mails.mails[0].get_body(("plain",)).get_content()  # English by default
        assert len(ledger(sqlite_url, table_id)) == 1


def test_a_failing_mail_server_is_counted_and_the_table_goes_on(sqlite_url: str) -> None:
    clock = FakeClock(T0)
    app, notifier = app_with(sqlite_url, clock, smtp_port=1)  # nothing listens on port 1
    with TestClient(app) as client:
        csrf = login(client)
        client.post("/api/notifications", json={"email": "ada@example.org", "email_on": True}, headers=csrf)
        table_id = paced_table(client, csrf)["table"]["id"]
        wait_until(lambda: notifier.counts["mail", "failed"] == 1, what="the failed mail")
        clock.advance(
            DAY + 1
        )  # the table goes on: the timer's move, the next decision, its mail (failing too)
        wait_until(lambda: len(ledger(sqlite_url, table_id)) == 2, what="the next decision")
        wait_until(lambda: notifier.counts["mail", "failed"] == 2, what="its failed mail")
        assert client.get(f"/api/tables/{table_id}").json()["status"] == "playing"


def test_choices_are_checked_and_need_a_login(sqlite_url: str) -> None:
    app, _ = app_with(sqlite_url, FakeClock(T0))
    with TestClient(app) as client:
        assert client.get("/api/notifications").json()["code"] == "login_required"
        csrf = login(client)
        assert client.get("/api/notifications").json() == {
            "email": None,
            "email_on": False,
            "language": "en",
            "push": 0,
            "mail_available": False,
            "push_available": False,
        }  # both off by default
        for body in ({"email": "not an address", "email_on": True}, {"email": None, "email_on": True}):
            refused = client.post("/api/notifications", json=body, headers=csrf)
            assert refused.status_code == 400 and refused.json()["code"] == "bad_email"
        assert client.get("/api/push/key").json()["code"] == "push_off"


# ---------------------------------------------------------------- Web Push


def vapid_claims(authorization: str, server_key: str) -> dict[str, Any]:
    """The claims of a ``vapid t=JWT, k=KEY`` header, once its ES256 signature is verified with
    ``server_key`` (the one ``/api/push/key`` gives)."""
    scheme, _, params = authorization.partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == server_key
    header, claims, signature = fields["t"].split(".")
    assert json.loads(unb64(header)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64(signature)
    assert len(raw) == 64  # JOSE's r || s
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(server_key))
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    decoded: dict[str, Any] = json.loads(unb64(claims))
    return decoded


def test_a_push_is_signed_by_the_server_and_only_the_browser_can_read_it(
    sqlite_url: str, push_service: PushService
) -> None:
    clock = FakeClock(T0)
    app, notifier = app_with(sqlite_url, clock, push=True)
    browser = Browser(f"{push_service.origin()}/push/ada-1")
    expired = Browser(f"{push_service.origin()}/gone/ada-2")
    failing = Browser(f"{push_service.origin()}/fail/ada-3")
    with TestClient(app) as client:
        csrf = login(client)
        key = client.get("/api/push/key").json()["key"]
        for sub, language in ((browser, "fa"), (expired, "fa"), (failing, "fa")):
            response = client.post(
                "/api/push/subscriptions", json={**sub.subscription(), "language": language}, headers=csrf
            )
            assert response.status_code == 201, response.text
        assert client.get("/api/notifications").json()["push"] == 3
        table_id = paced_table(client, csrf)["table"]["id"]
        wait_until(lambda: len(push_service.requests) == 3 and settled(notifier), what="the pushes")

        _, headers, body = next(r for r in push_service.requests if r[0] == "/push/ada-1")
        claims = vapid_claims(headers["authorization"], key)
        assert claims["aud"] == push_service.origin() and claims["sub"] == SUBJECT
        assert claims["exp"] > time.time()
        assert headers["content-encoding"] == "aes128gcm" and int(headers["ttl"]) > 0
        payload = json.loads(
            http_ece.decrypt(body, private_key=browser.key, auth_secret=browser.auth, version="aes128gcm")
        )
        assert payload["url"] == f"http://testserver/t/{table_id}"
        assert (
            payload["title"] == "در ساکورا نوبت شماست"
        )  # the account's language (the page's, at subscribing)
        due = dt.datetime.fromtimestamp(T0 + DAY, dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
        # the words say the table, the round and her deadline: nothing of any hand
        assert payload["body"] == text("fa", "move.body", table=table_id, round=1, deadline=due)
        assert set(payload) == {"title", "body", "url", "tag"}
        with pytest.raises(Exception):  # noqa: B017 - any key but the browser's cannot read it
            http_ece.decrypt(
                body, private_key=Browser("x").key, auth_secret=browser.auth, version="aes128gcm"
            )

        # 410 for another: that subscription is deleted; 500 for the third: counted, kept
        assert notifier.counts["push", "gone"] == 1 and notifier.counts["push", "sent"] == 1
        assert notifier.counts["push", "failed"] == 1
        wait_until(
            lambda: client.get("/api/notifications").json()["push"] == 2, what="the expired one deleted"
        )

        for sub in (browser, failing):
            deleted = client.request(
                "DELETE", "/api/push/subscriptions", json={"endpoint": sub.endpoint}, headers=csrf
            )
            assert deleted.json() == {"deleted": True}
        next_decision(clock, notifier, table_id)
        assert len(push_service.requests) == 3  # no subscription left: no push


def test_a_subscription_must_be_the_push_apis(sqlite_url: str, push_service: PushService) -> None:
    app, _ = app_with(sqlite_url, FakeClock(T0), push=True)
    with TestClient(app) as client:
        good = Browser(f"{push_service.origin()}/push/x").subscription()
        assert client.post("/api/push/subscriptions", json=good).json()["code"] == "login_required"
        csrf = login(client)
        for bad in (
            {**good, "endpoint": "http://10.0.0.1/push/x"},  # plain http elsewhere than the allowed loopback
            {**good, "endpoint": "file:///etc/passwd"},
            {**good, "keys": {"p256dh": good["keys"]["p256dh"][:-4], "auth": good["keys"]["auth"]}},
            {**good, "keys": {"p256dh": good["keys"]["p256dh"], "auth": "!!"}},
        ):
            refused = client.post("/api/push/subscriptions", json=bad, headers=csrf)
            assert refused.status_code == 400 and refused.json()["code"] == "bad_subscription", bad


def test_the_game_end_is_told_with_the_result(sqlite_url: str, inbox: tuple[Inbox, int]) -> None:
    mails, port = inbox
    clock = FakeClock(T0)
    app, notifier = app_with(sqlite_url, clock, smtp_port=port)
    with TestClient(app) as client:
        csrf = login(client)
        client.post("/api/notifications", json={"email": "ada@example.org", "email_on": True}, headers=csrf)
        body = {
            "players": 2,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "beginner"}],
            "pace": "1h",
            "timeouts": 10,
        }
        table_id = client.post("/api/tables", json=body, headers=csrf).json()["table"]["id"]
        while client.get(f"/api/tables/{table_id}").json()["status"] == "playing":
            before = client.get(f"/api/tables/{table_id}").json()["seq"]
            clock.advance(3601)  # each hour the timer plays Ada's card

            def moved(seq: int = before) -> bool:  # or the game ended meanwhile (a bot's move)
                info = client.get(f"/api/tables/{table_id}").json()
                return bool(info["seq"] > seq or info["status"] != "playing")

            wait_until(moved, what="a timer move")
        wait_until(lambda: "end" in ledger(sqlite_url, table_id) and settled(notifier), what="the end's mail")
        subjects = [m["Subject"] for m in mails.mails]
        assert subjects[-1] == "Game over at Sakura" and subjects.count("Game over at Sakura") == 1
        last = mails.mails[-1].get_body(("plain",)).get_content()
        assert "Your score:" in last and "won by" in last
        # every decision before was told (a mail each) and then pruned from the ledger: a
        # finished table keeps one row a seat, its end
        assert len(subjects) > 2 and ledger(sqlite_url, table_id) == ["end"]


def test_a_restart_does_not_tell_the_same_decision_again(database_url: str, inbox: tuple[Inbox, int]) -> None:
    mails, port = inbox
    clock = FakeClock(T0)
    app, notifier = app_with(database_url, clock, smtp_port=port)
    with TestClient(app) as client:
        csrf = login(client)
        client.post("/api/notifications", json={"email": "ada@example.org", "email_on": True}, headers=csrf)
        table_id = paced_table(client, csrf)["table"]["id"]
        wait_until(lambda: len(mails.mails) == 1 and settled(notifier), what="the first mail")
    first = ledger(database_url, table_id)
    again, renewed = app_with(database_url, clock, smtp_port=port)  # a new process: nothing in memory
    with TestClient(again) as client:
        assert client.get(f"/api/tables/{table_id}").json()["status"] == "playing"  # restored, same decision
        wait_until(lambda: settled(renewed), what="the restored table's notifications")
        assert len(mails.mails) == 1 and ledger(database_url, table_id) == first  # the ledger said: told
        clock.advance(DAY + 1)  # its next decision is told, by the new process
        wait_until(lambda: len(mails.mails) == 2, what="the next decision's mail")


def test_a_deleted_account_takes_its_address_and_subscriptions(database_url: str) -> None:
    app, _ = app_with(database_url, FakeClock(T0), push=True)
    with TestClient(app) as client:
        csrf = login(client)
        client.post("/api/notifications", json={"email": "ada@example.org", "email_on": True}, headers=csrf)
        sub = Browser("http://127.0.0.1:9/push/ada").subscription()
        assert client.post("/api/push/subscriptions", json=sub, headers=csrf).status_code == 201
        deleted = client.post("/api/account/delete", json={"password": PASSWORD}, headers=csrf)
        assert deleted.status_code == 200, deleted.text
        csrf = login(client)  # the name is free again: its new owner has none of it
        assert client.get("/api/notifications").json()["email"] is None
        assert client.get("/api/notifications").json()["push"] == 0
