"""The server's front door: checks every request makes before the app sees it.

One plain ASGI middleware, so it covers pages, the API and WebSockets alike:

* **Host** (and a WebSocket's **Origin**) must name this server. A server on localhost answers
  only to ``127.0.0.1``, ``localhost`` and ``[::1]`` (plus ``--allowed-host``), so a web page
  elsewhere cannot reach it through DNS rebinding, and a page of another site cannot open a
  table's socket with the player's browser (a WebSocket is not bound by the same-origin rule).
  The probes ``GET /healthz`` and ``GET /readyz`` answer to any host name: a load balancer
  checks each process by its address.
* **Bodies** are counted in bytes as they arrive and refused past ``Limits.body_bytes``
  (413, at once by ``Content-Length``, else as soon as the count passes), before any of it is
  parsed or held: a 100 MB POST costs the server 16 KB.
* **Headers** that every page wants: a content security policy (scripts and styles from this
  server only, no framing), ``X-Content-Type-Options: nosniff``, ``X-Frame-Options: DENY`` and
  a same-origin referrer policy.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

import orjson

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
]


def host_name(value: str) -> str:
    """The host part of a ``Host`` header or an origin's netloc, lower case, without the port.

    >>> host_name("LocalHost:8000"), host_name("[::1]:8000"), host_name("example.org")
    ('localhost', '::1', 'example.org')
    """
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:].split("]", 1)[0]
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


# A load balancer's probes (routes/health.py) may name the process by its address, whatever the
# site's host names: they change nothing and say only whether the process is alive and ready.
PROBES = frozenset({"/healthz", "/readyz"})


class Guard:
    """See the module docstring. ``allowed_hosts``: host names, or ``("*",)`` for any."""

    def __init__(self, app: ASGIApp, *, allowed_hosts: tuple[str, ...], body_bytes: int) -> None:
        self.app = app
        self.any_host = "*" in allowed_hosts
        self.hosts = {host_name(h) for h in allowed_hosts if h != "*"}
        self.body_bytes = body_bytes

    @property
    def state(self) -> Any:
        """The wrapped app's state (``app.state.lobby``)."""
        return getattr(self.app, "state", None)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get("host", "")
        probe = scope["type"] == "http" and scope.get("method") == "GET" and scope.get("path") in PROBES
        if not self.any_host and not probe and host_name(host) not in self.hosts:
            await self._refuse(scope, send, 400, "this server does not answer to that host name", "bad_host")
            return
        if scope["type"] == "websocket":
            origin = headers.get("origin")
            if origin is not None and not self._origin_ok(origin, host):
                await self._refuse(
                    scope,
                    send,
                    403,
                    "a page of another site may not open this server's sockets",
                    "bad_origin",
                )
                return
            await self.app(scope, receive, send)
            return
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.body_bytes):
            await self._refuse(
                scope, send, 413, f"request body too large (at most {self.body_bytes} bytes)", "too_large"
            )
            return
        await self._http(scope, receive, send)

    def _origin_ok(self, origin: str, host: str) -> bool:
        netloc = urlsplit(origin).netloc.lower()
        if not netloc:
            return False
        if self.any_host:
            return netloc == host.strip().lower()  # same origin as the page the socket serves
        return host_name(netloc) in self.hosts

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        seen = 0
        started = refused = False

        async def counted_receive() -> Message:
            nonlocal seen, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.body_bytes:  # answer now; the app sees the client go
                    refused = True
                    if not started:
                        await self._refuse(
                            scope,
                            send,
                            413,
                            f"request body too large (at most {self.body_bytes} bytes)",
                            "too_large",
                        )
                    return {"type": "http.disconnect"}
            return message

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if refused:
                return  # the 413 went out already
            if message["type"] == "http.response.start":
                started = True
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, counted_receive, send_with_headers)

    @staticmethod
    async def _refuse(scope: Scope, send: Send, status: int, message: str, code: str) -> None:
        if scope["type"] == "websocket":  # before the handshake: an HTTP answer, with the reason
            body = message.encode()
            await send(
                {
                    "type": "websocket.http.response.start",
                    "status": status,
                    "headers": [
                        (b"content-type", b"text/plain; charset=utf-8"),
                        (b"content-length", str(len(body)).encode()),
                    ],
                }
            )
            await send({"type": "websocket.http.response.body", "body": body})
            return
        body = orjson.dumps({"detail": message, "code": code})
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                    *SECURITY_HEADERS,
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
