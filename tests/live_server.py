"""A live uvicorn server on loopback, in a thread, for tests that need a real network peer
(the browser tests and the terminal app's ``--join``)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

SERVERS: dict[str, Any] = {}  # the uvicorn server behind each running URL, for tests that look inside


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def running_server(
    database: Path | str, limits: Any = None, *, app_options: dict[str, Any] | None = None, **extra: Any
) -> Iterator[str]:
    """Serve the web app as ``sakura serve`` does (its limits, its uvicorn protocols) on a free
    loopback port with a SQLite file (or a database URL); yield its base URL. ``app_options``:
    more of ``create_app``'s keywords (a notifier)."""
    import uvicorn

    from sakura.server import create_app
    from sakura.server.limits import LOOPBACK_HOSTS, Limits
    from sakura.server.serving import config, listen

    # The socket is bound here (as sakura serve binds its own) and handed to uvicorn: no other
    # test (another xdist worker) can take the port between choosing it and serving on it.
    [listener] = listen("127.0.0.1", 0)
    port = listener.getsockname()[1]
    limits = limits or Limits(allowed_hosts=LOOPBACK_HOSTS)
    url = database if isinstance(database, str) else f"sqlite:///{database}"
    instance = uvicorn.Server(
        config(
            create_app(url, limits, **(app_options or {})),
            host="127.0.0.1",
            port=port,
            limits=limits,
            **extra,
        )
    )
    thread = threading.Thread(target=instance.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    while not instance.started:
        assert thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    url = f"http://127.0.0.1:{port}"
    SERVERS[url] = instance
    try:
        yield url
    finally:
        instance.should_exit = True
        thread.join(30)
        listener.close()
        del SERVERS[url]
    assert not thread.is_alive(), "the server did not stop within 30 s of being told to"
