"""How the web app is put on the network: uvicorn, with the limits a public server needs.

``sakura serve`` (and the tests' live servers) run the app through :func:`config`, which sets what
only the server can enforce, before a byte reaches the app:

* WebSocket messages larger than ``Limits.ws_message_bytes`` are refused by the frame parser
  (close code 1009); uvicorn's default read up to 16 MiB first.
* A request, headers and body, must arrive within ``Limits.header_seconds``
  (:class:`RequestDeadline`): a client that opens connections and sends half a request, or
  its headers and then its body byte by byte, ties up nothing for long (the bodies are small:
  ``Limits.body_bytes``).
* A socket that does not read (:class:`AbortingWebSocket`): when its keepalive ping goes
  unanswered, or when the app closes it while its send buffer is full, the connection is
  aborted, not left to drain a buffer that will never drain.
* Stopping is bounded: what is still open ``Limits.shutdown_seconds`` after SIGTERM is cut off
  (uvicorn waits for it forever otherwise), then the app's own shutdown runs; and whatever
  holds the process (:class:`Server`), it is gone ``Limits.exit_seconds`` after the signal.
* One line in the log for a frame that is not valid UTF-8, not a traceback each
  (:class:`OneLineInvalidUtf8`).

These subclass uvicorn's own protocol classes (httptools and websockets' sans-I/O one, the
defaults of ``uvicorn[standard]``) and override only the hooks named; the tests of
``tests/server/test_limits_live.py`` check each against a live server.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import socket
import threading
from types import FrameType
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from sakura.server.limits import Limits
from sakura.server.tasks import stacks


class RequestDeadline(HttpToolsProtocol):
    """HTTP/1.1 whose requests must be complete, headers and body, within ``header_seconds`` of
    the connection (or of the request's first byte, on a kept-alive connection). A WebSocket
    upgrade is complete with its headers: the socket's own limits take over from there."""

    header_seconds = 10.0
    _deadline_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_deadline()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm_deadline()

    def on_headers_complete(self) -> None:
        if self.parser.should_upgrade():
            self._disarm_deadline()
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._disarm_deadline()
        super().on_message_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_deadline()
        super().connection_lost(exc)

    def _arm_deadline(self) -> None:
        self._disarm_deadline()
        self._deadline_timer = self.loop.call_later(self.header_seconds, self._too_slow)

    def _disarm_deadline(self) -> None:
        timer: asyncio.TimerHandle | None = getattr(self, "_deadline_timer", None)
        if timer is not None:
            timer.cancel()
            self._deadline_timer = None

    def _too_slow(self) -> None:
        self._deadline_timer = None
        if not self.transport.is_closing():
            self.transport.abort()


class AbortingWebSocket(WebSocketsSansIOProtocol):
    """websockets' sans-I/O protocol that lets go of a peer that does not read, and whose
    send buffers, the kernel's and asyncio's, are capped (``send_buffer`` each), so that a
    peer that does not read backs up into the table's bounded outbox within a few messages
    instead of pinning megabytes."""

    send_buffer = 128 * 1024

    def connection_made(self, transport: Any) -> None:
        sock = transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.send_buffer)
        transport.set_write_buffer_limits(high=self.send_buffer)
        super().connection_made(transport)

    def keepalive_timeout(self) -> None:
        super().keepalive_timeout()  # queues a close frame behind a buffer that may never drain ...
        self.transport.abort()  # ... so the socket goes now (even one closing), and the app hears of it

    async def send(self, message: Any) -> None:
        closing = message["type"] == "websocket.close" and self.handshake_complete
        if closing and not self.writable.is_set():
            self.transport.abort()  # a close frame cannot get through a full buffer
            return
        await super().send(message)
        if closing and self.close_timer is not None:  # no closing handshake in time: abort, not close
            self.close_timer.cancel()  # (a close waits for a buffer that may never drain)
            self.close_timer = self.loop.call_later(self.close_timeout, self.transport.abort)


class OneLineInvalidUtf8(logging.Filter):
    """uvicorn logs each text frame that is not UTF-8 with a traceback; one line is enough."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and "Invalid UTF-8" in str(record.msg):
            record.exc_info = None
            record.exc_text = None
        return True


log = logging.getLogger("sakura.server")


class Server(uvicorn.Server):
    """uvicorn's server, gone within ``exit_seconds`` of SIGTERM or Ctrl+C, whatever holds it.

    uvicorn's own stop is bounded for the sockets (``timeout_graceful_shutdown``) but not for
    what comes before or after: a cluster process that had worked out hints (its advice
    worker processes made) outlived SIGTERM by more than a minute with its event loop idle and
    the app's shutdown never reached (issue #30). A process manager then waits, the site's
    tables stay leased to it. So the first signal arms a timer, in a thread of its own: if the
    process is still there ``exit_seconds`` later, it says so and exits at once
    (``os._exit``; acknowledged actions are already stored, its tables pass to the other
    processes when their leases run out)."""

    exit_seconds = 9.0

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if not getattr(self, "_exit_timer", None):
            try:  # the signal handler runs in the loop's thread: its tasks, for the log at exit
                loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
            except RuntimeError:
                loop = None
            self._exit_timer = threading.Timer(self.exit_seconds, _exit_now, args=(self.exit_seconds, loop))
            self._exit_timer.daemon = True
            self._exit_timer.start()
        super().handle_exit(sig, frame)


def _exit_now(seconds: float, loop: asyncio.AbstractEventLoop | None = None) -> None:
    log.error(
        "still running %.0f s after the signal to stop: exiting now; its tasks:\n%s", seconds, stacks(loop)
    )
    for handler in logging.getLogger().handlers + log.handlers:
        with contextlib.suppress(Exception):
            handler.flush()
    os._exit(1)


def server(config: uvicorn.Config, limits: Limits) -> Server:
    """A :class:`Server` for ``config`` (see :func:`config`), gone ``limits.exit_seconds`` after
    the signal to stop."""
    instance = Server(config)
    instance.exit_seconds = limits.exit_seconds
    return instance


def listen(host: str, port: int, backlog: int = 2048) -> list[socket.socket]:
    """Sockets bound to ``host:port`` and listening, one an address the name has (``localhost``:
    IPv4 and IPv6, as uvicorn's own ``create_server`` binds it): ``sakura serve`` takes its port
    with them before it says where it is served, opens a browser or creates a database, and
    uvicorn then serves on them (``Server.run(sockets=...)``). ``OSError`` when the port is
    taken or the name unknown, every socket closed again."""
    infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    sockets: list[socket.socket] = []
    unavailable: OSError | None = None
    try:
        for family, kind, proto, _, address in dict.fromkeys(infos):
            sock = socket.socket(family, kind, proto)
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6:  # the IPv4 address has its own socket
                    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                sock.bind(address)
            except OSError as exc:
                sock.close()
                if exc.errno != errno.EADDRNOTAVAIL:
                    raise
                unavailable = exc  # a family this machine has not enabled (as asyncio skips it)
                continue
            sockets.append(sock)
            sock.listen(backlog)
            sock.set_inheritable(True)  # ``--workers``: the children serve on them too
        if not sockets:
            raise unavailable or OSError(errno.EADDRNOTAVAIL, f"no address to listen on for {host!r}")
    except BaseException:
        for sock in sockets:
            sock.close()
        raise
    return sockets


def config(
    app: Any, *, host: str, port: int, limits: Limits, log_level: str = "warning", **extra: Any
) -> uvicorn.Config:
    """The uvicorn configuration of a Sakura server (see the module docstring)."""
    logging.getLogger("uvicorn.error").addFilter(OneLineInvalidUtf8())
    http = type("SakuraHttp", (RequestDeadline,), {"header_seconds": limits.header_seconds})
    ws = type("SakuraWebSocket", (AbortingWebSocket,), {"send_buffer": limits.ws_send_buffer_bytes})
    options: dict[str, Any] = {
        "ws_ping_interval": 20.0,
        "ws_ping_timeout": 20.0,
        "timeout_keep_alive": 5,
        "timeout_graceful_shutdown": limits.shutdown_seconds,
        **extra,
    }
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        http=http,
        ws=ws,
        ws_max_size=limits.ws_message_bytes,
        **options,
    )
