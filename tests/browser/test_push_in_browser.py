"""Web Push in Chromium: the "Notify me" button on the /moves page and on a turn-based table's
page, the service worker (``/sw.js``, scope ``/``) registered, the notification settings on
one's own player page, no button where the browser has no Push API, and the unsubscribe page's
button (it posts without cookies: a logged-in reader needs no CSRF token).

Headless Chromium has no push service to subscribe with here (no network), so the
subscription itself, its signature and its payload are tested against a local push service in
``tests/server/test_notify.py``; this file tests what the browser can do alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from py_vapid import Vapid02
from tests.live_server import running_server

from sakura.server.notify.notifier import Notifier
from sakura.server.notify.push import Pusher
from sakura.server.notify.tokens import sign

PASSWORD = "correct horse battery staple 9"


@pytest.fixture
def push_server(tmp_path: Path) -> Iterator[str]:
    vapid = Vapid02()
    vapid.generate_keys()
    notifier = Notifier("http://127.0.0.1", b"s" * 32, pusher=Pusher(vapid, "mailto:ops@example.org"))
    with running_server(tmp_path / "sakura.db", app_options={"notifier": notifier}) as url:
        yield url


def logged_in(browser: Any, server: str) -> tuple[Any, str]:
    """A context of Ada's (signed up) and her turn-based table against a bot."""
    context = browser.new_context()
    signed = context.request.post(f"{server}/api/signup", data={"username": "Ada", "password": PASSWORD})
    assert signed.ok, signed.text()
    csrf = signed.json()["csrf"]
    body = {"players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "level": "beginner"}], "pace": "1d"}
    created = context.request.post(f"{server}/api/tables", data=body, headers={"x-csrf-token": csrf})
    assert created.ok, created.text()
    return context, created.json()["table"]["id"]


def worker_script(page: Any) -> str:
    script: str = page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.scriptURL)")
    return script


def test_notify_me_on_the_moves_page_and_the_table_and_the_service_worker(
    push_server: str, browser: Any
) -> None:
    context, table_id = logged_in(browser, push_server)
    page = context.new_page()
    page.goto(f"{push_server}/moves")
    page.wait_for_selector("body[data-ready='1']")
    button = page.locator("#push-slot #push")
    button.wait_for()
    assert button.inner_text() == "Notify me" and button.get_attribute("aria-pressed") == "false"
    assert worker_script(page) == f"{push_server}/sw.js"  # registered, scope /
    scope = page.evaluate("navigator.serviceWorker.getRegistration('/').then((r) => r.scope)")
    assert scope == f"{push_server}/"

    page.goto(f"{push_server}/t/{table_id}?speed=0")
    page.locator("#controls #push").wait_for()  # a turn-based table's page has it too
    assert page.locator("#controls #push").inner_text() == "Notify me"


def test_settings_on_ones_own_page(push_server: str, browser: Any) -> None:
    context, _ = logged_in(browser, push_server)
    page = context.new_page()
    page.goto(f"{push_server}/u/Ada?lang=es")
    page.locator("#notify-section").wait_for()
    assert page.locator("#notify-section h2").inner_text() == "Avisos"
    assert page.locator("#notify-mail-off").is_visible()  # this server has no SMTP
    assert page.locator("#notify-push-count").inner_text() == "0 navegadores reciben avisos"
    page.fill("#notify-email", "ada@example")  # the browser takes it; the server does not (no domain)
    page.check("#notify-email-on")
    page.click("#notify-save")
    page.locator("#notify-status:has-text('Esa no es una dirección de correo.')").wait_for()
    page.fill("#notify-email", "ada@example.org")
    page.click("#notify-save")
    page.locator("#notify-status:has-text('Guardado.')").wait_for()
    saved = context.request.get(f"{push_server}/api/notifications").json()
    assert saved["email"] == "ada@example.org" and saved["email_on"] is True and saved["language"] == "es"


def test_no_button_without_the_push_api_and_a_login_link_when_logged_out(
    push_server: str, browser: Any
) -> None:
    bare = browser.new_context()
    bare.add_init_script("delete window.PushManager;")
    page = bare.new_page()
    page.goto(f"{push_server}/moves")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("body[data-push='none']")
    assert page.locator("#push, #push-login").count() == 0
    anonymous = browser.new_context().new_page()
    anonymous.goto(f"{push_server}/moves")
    anonymous.locator("#push-slot #push-login").wait_for()
    assert anonymous.locator("#push-login").get_attribute("href") == "/login?next=%2Fmoves"


def test_the_unsubscribe_page_turns_mail_off_for_a_logged_in_reader(push_server: str, browser: Any) -> None:
    context, _ = logged_in(browser, push_server)
    csrf = context.request.get(f"{push_server}/api/me").json()["csrf"]
    chosen = context.request.post(
        f"{push_server}/api/notifications",
        data={"email": "ada@example.org", "email_on": True},
        headers={"x-csrf-token": csrf},
    )
    assert chosen.ok and chosen.json()["email_on"] is True
    page = context.new_page()  # logged in: the button must work without the CSRF token
    page.goto(f"{push_server}/unsubscribe/{sign(b's' * 32, 'ada', 'ada@example.org')}?lang=fa")
    page.wait_for_selector("body[data-ready='1']")
    assert (
        context.request.get(f"{push_server}/api/notifications").json()["email_on"] is True
    )  # opening: nothing
    page.click("#unsubscribe")
    page.locator("#unsubscribe-said:has-text('انجام شد')").wait_for()
    assert context.request.get(f"{push_server}/api/notifications").json()["email_on"] is False
    forged = context.new_page()
    forged.goto(f"{push_server}/unsubscribe/{sign(b'x' * 32, 'ada', 'ada@example.org')}")
    forged.wait_for_selector("body[data-ready='1']")
    forged.click("#unsubscribe")
    forged.locator("#unsubscribe-said:has-text('This link does not work')").wait_for()


def test_no_button_where_the_server_sends_no_push(server: str, browser: Any) -> None:
    context, _ = logged_in(browser, server)  # the default live server: no notifier
    page = context.new_page()
    page.goto(f"{server}/moves")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("body[data-push='none']")  # the server's key answered 404: no button
    assert page.locator("#push, #push-login").count() == 0
