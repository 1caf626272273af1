"""Notifications (:mod:`sakura.server.notify`): an account's choices, its browsers' Web Push
subscriptions, and the one-click unsubscribe of an e-mail.

* ``GET /api/notifications``, ``POST /api/notifications``: the logged-in account's choices
  (e-mail on or off, its address, the language notifications are written in);
* ``GET /api/push/key``: the server's VAPID public key (the browser's ``applicationServerKey``);
* ``POST /api/push/subscriptions``, ``DELETE /api/push/subscriptions``: this browser's
  subscription (the Push API's ``PushSubscription.toJSON()``) kept for the account, or dropped;
* ``GET /sw.js``: the service worker that shows a push and opens its table on a click;
* ``GET /unsubscribe/{token}``: a page with one button; ``POST /unsubscribe/{token}``: e-mail off,
  no login (the signed token is the authority, RFC 8058's one-click POST from a mail program).
"""

from __future__ import annotations

import base64
import re
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from sakura.server.errors import TableError
from sakura.server.names import name_key
from sakura.server.notify import store
from sakura.server.notify.texts import LANGUAGES, language_of
from sakura.server.notify.tokens import verify
from sakura.server.pages import STATIC, page
from sakura.server.routes.deps import AccountDep, LobbyDep

router = APIRouter()
EMAIL = re.compile(r"[^@\s<>\",;]{1,64}@[^@\s<>\",;.]+(\.[^@\s<>\",;.]+)+")
LOGIN = ("log in to choose your notifications", "login_required")
PUSH_OFF = ("this server sends no Web Push", "push_off")


class Choices(BaseModel):
    model_config = ConfigDict(extra="forbid")
    email: str | None = Field(default=None, max_length=254, description="where e-mail goes (None: nowhere)")
    email_on: bool = Field(default=False, description="an e-mail when it is your move and when a game ends")
    language: str = Field(default="en", max_length=16, description=f"one of {', '.join(LANGUAGES)}")


class Keys(BaseModel):
    p256dh: str = Field(max_length=200)
    auth: str = Field(max_length=64)


class Subscription(BaseModel):
    """The Push API's ``PushSubscription.toJSON()`` (its ``expirationTime`` ignored), and the
    page's language."""

    endpoint: str = Field(max_length=1000)
    keys: Keys
    expirationTime: float | None = None  # noqa: N815 - the Push API's own name
    language: str = Field(default="en", max_length=16)


class Endpoint(BaseModel):
    endpoint: str = Field(max_length=1000)


def _notifier(request: Request) -> Any:
    return getattr(request.app.state, "notifier", None)


def _pusher(request: Request) -> Any:
    notifier = _notifier(request)
    if notifier is None or notifier.pusher is None:
        raise TableError(*PUSH_OFF)
    return notifier.pusher


@router.get("/api/notifications", responses={401: {"description": "not logged in (`login_required`)"}})
async def choices(request: Request, lobby: LobbyDep, user: AccountDep) -> dict[str, Any]:
    """The logged-in account's choices, and which channels this server has."""
    if user is None:
        raise TableError(*LOGIN)
    found = await lobby.db.call(store.choices, lobby.store, name_key(user), what="notification choices")
    notifier = _notifier(request)
    return {
        "email": found.email,
        "email_on": found.email_on,
        "language": found.language,
        "push": len(found.subscriptions),
        "mail_available": notifier is not None and notifier.mailer is not None,
        "push_available": notifier is not None and notifier.pusher is not None,
    }


@router.post(
    "/api/notifications",
    responses={
        400: {"description": "not an e-mail address, or e-mail on without one (`bad_email`)"},
        401: {"description": "not logged in (`login_required`)"},
    },
)
async def choose(body: Choices, request: Request, lobby: LobbyDep, user: AccountDep) -> dict[str, Any]:
    """Turn e-mail on or off (with the address it goes to); the language notifications speak."""
    if user is None:
        raise TableError(*LOGIN)
    email = (body.email or "").strip() or None
    if email is not None and not EMAIL.fullmatch(email):
        raise TableError("that is not an e-mail address", "bad_email")
    if body.email_on and email is None:
        raise TableError("give the address e-mail should go to", "bad_email")
    language = language_of(body.language)
    await lobby.db.call(
        store.save_choices, lobby.store, name_key(user), email, body.email_on, language, what="notifications"
    )
    return await choices(request, lobby, user)


@router.get("/api/push/key", responses={404: {"description": "this server sends no Web Push (`push_off`)"}})
async def push_key(request: Request) -> dict[str, str]:
    """The VAPID public key: the Push API's ``applicationServerKey`` (base64url)."""
    return {"key": _pusher(request).public_key}


@router.post(
    "/api/push/subscriptions",
    status_code=201,
    responses={
        400: {"description": "an endpoint or keys the Push API does not make (`bad_subscription`)"},
        401: {"description": "not logged in (`login_required`)"},
        404: {"description": "this server sends no Web Push (`push_off`)"},
    },
)
async def subscribe(
    body: Subscription, request: Request, lobby: LobbyDep, user: AccountDep
) -> dict[str, Any]:
    """Keep this browser's push subscription for the logged-in account."""
    pusher = _pusher(request)
    if user is None:
        raise TableError(*LOGIN)
    _check(body, pusher.plain_http_hosts)
    sub = store.Subscription(body.endpoint, body.keys.p256dh, body.keys.auth)
    await lobby.db.call(
        store.subscribe, lobby.store, name_key(user), sub, language_of(body.language), what="subscribing"
    )
    return {"subscribed": True}


@router.delete(
    "/api/push/subscriptions",
    responses={401: {"description": "not logged in (`login_required`)"}},
)
async def unsubscribe_push(body: Endpoint, lobby: LobbyDep, user: AccountDep) -> dict[str, Any]:
    """Drop this browser's push subscription (the account's own only)."""
    if user is None:
        raise TableError(*LOGIN)
    deleted = await lobby.db.call(
        store.unsubscribe_push, lobby.store, body.endpoint, name_key(user), what="unsubscribing"
    )
    return {"deleted": deleted}


@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> FileResponse:
    """The service worker that shows a push (``static/js/sw.js``), served at the root so that its
    scope is the whole site."""
    return FileResponse(
        STATIC / "js" / "sw.js", media_type="text/javascript", headers={"Cache-Control": "no-cache"}
    )


@router.get("/unsubscribe/{token}", include_in_schema=False)
async def unsubscribe_page(token: str, request: Request) -> HTMLResponse:
    """The page an e-mail's link opens: one button (a GET changes nothing: mail scanners follow links)."""
    return page("unsubscribe.html", request)


@router.post("/unsubscribe/{token}", include_in_schema=False)
async def unsubscribe(token: str, request: Request, lobby: LobbyDep) -> HTMLResponse:
    """E-mail off for the account and address the token names: RFC 8058's one-click POST, or the
    page's button (which posts without the browser's cookies, so no CSRF token is asked of a
    logged-in browser: ``csrf.py`` is unchanged). No login: the signed token is the authority."""
    notifier = _notifier(request)
    found = None if notifier is None else verify(notifier.secret, token)
    if found is None:
        raise TableError("this unsubscribe link was not made by this server", "bad_unsubscribe")
    await lobby.db.call(store.unsubscribe, lobby.store, *found, what="unsubscribing an e-mail")
    return page("unsubscribed.html", request)


def _check(body: Subscription, plain_http_hosts: frozenset[str]) -> None:
    """An https endpoint (plain http only to the hosts the pusher allows: tests' loopback) and
    keys of the right sizes: a P-256 point (65 bytes) and a 16-byte secret."""
    parts = urlsplit(body.endpoint)
    secure = parts.scheme == "https" or (parts.scheme == "http" and parts.hostname in plain_http_hosts)
    if not secure or not parts.hostname:
        raise TableError("a push endpoint is an https URL", "bad_subscription")
    try:
        point, auth = _unb64(body.keys.p256dh), _unb64(body.keys.auth)
    except ValueError:
        raise TableError("a subscription's keys are base64url", "bad_subscription") from None
    if len(point) != 65 or point[0] != 4 or len(auth) != 16:
        raise TableError("a subscription's keys are a P-256 point and a 16-byte secret", "bad_subscription")


def _unb64(text: str) -> bytes:
    if not re.fullmatch(r"[A-Za-z0-9_-]*={0,2}", text):
        raise ValueError(text)
    return base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))
