"""What the server benchmarks share: a free port on loopback (they only ever talk to it), and a
``sakura serve``-like server process on one."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def serve(
    limits: str,
    database_url: str | None,
    tmp: str | Path,
    *,
    deflate: bool = True,
    env: dict[str, str] | None = None,
) -> Iterator[tuple[str, int]]:
    """Start the app under uvicorn as ``sakura serve`` does, with ``limits`` (the keyword
    arguments of ``Limits(...)``, as Python source: the ones a load generator on one address
    must pass) on ``database_url`` or a fresh SQLite file in ``tmp``; wait until it answers;
    yield its base URL and pid; stop it. ``env``: the process's environment (a past revision's
    source on ``PYTHONPATH``, or ``SAKURA_PURE``)."""
    port = free_port()
    db = database_url or f"sqlite:///{Path(tmp) / f'bench-{port}.db'}"
    code = (
        "import uvicorn; from sakura.server import create_app; "
        "from sakura.server.serving import config; from sakura.server.limits import Limits; "
        f"limits = Limits({limits}); "
        f"uvicorn.Server(config(create_app({db!r}, limits), host='127.0.0.1', port={port}, "
        f"limits=limits, ws_per_message_deflate={deflate})).run()"
    )
    process = subprocess.Popen([sys.executable, "-c", code], env=env)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(300):
            try:
                httpx.get(base + "/api/tables", timeout=1)
                break
            except httpx.HTTPError:
                if process.poll() is not None:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.1)
        yield base, process.pid
    finally:
        process.terminate()
        process.wait(30)
