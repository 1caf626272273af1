"""Cross-site request forgery: a page of another site must not change anything here with
the reader's cookies.

Every state-changing HTTP request (POST, PUT, PATCH, DELETE) passes two checks before the app
sees it, whatever its route:

1. its ``Origin`` (else its ``Referer``), when the browser sends one, names this very server
   (the request's ``Host``): a cross-site form or fetch is refused (403, code ``csrf``);
2. a request that carries a session cookie carries, in the ``X-CSRF-Token`` header, the token
   of that session (:func:`csrf_token`, given by ``GET /api/me`` and at login), which another
   site cannot read.

A request with no session cookie and no foreign origin (``curl``, the terminal app's
``--join``, the tests) holds no one's authority and goes through, as before accounts existed.

The session cookie is found exactly as the app finds it: through Starlette's own
``HTTPConnection.cookies`` (its ``cookie_parser`` over the request's first ``Cookie`` header).
A second parser (``http.cookies.SimpleCookie`` once) disagrees with it on malformed input: a
broken cookie placed before the session hid the session from the check while the app still
saw the account, and a POST without the token went through.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any
from urllib.parse import urlsplit

import orjson
from starlette.requests import HTTPConnection

SESSION_COOKIE = "sakura_session"
HEADER = "x-csrf-token"
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


def csrf_token(session_token: str) -> str:
    """The token a session's requests carry: derived from the session's secret, so the server
    stores nothing more and a page of another site cannot compute it.

    >>> csrf_token("abc") == csrf_token("abc") != csrf_token("abd")
    True
    """
    return hmac.new(session_token.encode(), b"sakura-csrf", hashlib.sha256).hexdigest()


class CsrfGuard:
    """ASGI middleware: see the module docstring."""

    def __init__(self, app: Any) -> None:
        self.app = app

    @property
    def state(self) -> Any:
        return getattr(self.app, "state", None)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope.get("method", "GET") not in UNSAFE:
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", [])}
        why = refusal(headers, session_cookie(scope))
        if why is None:
            await self.app(scope, receive, send)
            return
        body = orjson.dumps({"detail": why, "code": "csrf"})
        await send(
            {
                "type": "http.response.start",
                "status": 403,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def session_cookie(scope: Any) -> str | None:
    """The session cookie of a request as the app reads it (``request.cookies``), or None."""
    return HTTPConnection(scope).cookies.get(SESSION_COOKIE)


def refusal(headers: dict[str, str], session: str | None) -> str | None:
    """Why a state-changing request with these headers and this session cookie is refused,
    or None."""
    host = headers.get("host", "").strip().lower()
    source = headers.get("origin") or headers.get("referer")
    if source is not None:
        netloc = urlsplit(source).netloc.lower()
        if source == "null" or netloc != host:
            return "a page of another site may not change anything here"
    if session:
        given = headers.get(HEADER, "")
        if not hmac.compare_digest(given.encode("latin-1"), csrf_token(session).encode()):
            return "this request lacks its CSRF token (reload the page and try again)"
    return None
