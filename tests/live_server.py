"""A live uvicorn server on loopback, in a thread, for tests that need a real network peer
(the browser tests and the terminal app's ``--join``)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def running_server(database: Path) -> Iterator[str]:
    """Serve the web app on a free loopback port with a SQLite file; yield its base URL."""
    import uvicorn

    from sakura.server import create_app

    port = free_port()
    config = uvicorn.Config(create_app(f"sqlite:///{database}"), host="127.0.0.1", port=port,
                            log_level="warning")
    instance = uvicorn.Server(config)
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    while not instance.started:
        assert thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        instance.should_exit = True
        thread.join(30)
