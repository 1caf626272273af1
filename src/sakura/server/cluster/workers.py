"""``sakura serve --workers N``: N server processes on one machine sharing one listening socket.

The parent binds the port once and starts N children (``spawn``: each a fresh interpreter with
its own event loop, app and lobby); the kernel hands each new connection to one of them, and
the cluster (:mod:`sakura.server.cluster`, so ``--redis-url`` is required) does the rest: any
child serves any table. A child that dies is started again (its tables fail over meanwhile);
Ctrl+C or SIGTERM stops them all: each is asked to stop (SIGTERM: uvicorn's graceful shutdown,
bounded by ``Limits.shutdown_seconds``) and killed if it has not within ``STOP_GRACE`` seconds
more, so no child outlives the parent.
"""

from __future__ import annotations

import multiprocessing
import signal
import socket
import sys
import time
from typing import Any

STOP_GRACE = 10.0  # beyond Limits.shutdown_seconds: the app's own shutdown (leases, writes)


def _child(sockets: list[socket.socket], options: dict[str, Any]) -> None:

    from sakura.server import create_app
    from sakura.server.logs import config as log_config
    from sakura.server.serving import config, server

    limits = options["limits"]
    notifier = None
    if options.get("notify") is not None:  # sakura serve's notifications: the keys it made, read
        from sakura.server.notify.config import notifier_from

        notifier = notifier_from(**options["notify"])
    app = create_app(
        options["database_url"],
        limits,
        redis_url=options["redis_url"],
        redis_prefix=options["redis_prefix"],
        notifier=notifier,
    )
    child = server(
        config(
            app,
            host=options["host"],
            port=options["port"],
            limits=limits,
            proxy_headers=options["proxy_headers"],
            log_config=log_config(options.get("log_format", "text")),
        ),
        limits,
    )
    child.run(sockets=sockets)


def run_workers(
    count: int, *, host: str, port: int, sockets: list[socket.socket] | None = None, **options: Any
) -> None:
    """Serve on ``host:port`` with ``count`` processes until interrupted; on ``sockets`` when
    the caller has bound them already (``sakura serve`` takes its port first)."""
    if sockets is None:
        from sakura.server.serving import listen

        sockets = listen(host, port)
    options.update(host=host, port=port)
    context = multiprocessing.get_context("spawn")
    children: list[Any] = []
    stopping = False

    def stop(*_: Any) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        while not stopping:
            children = [c for c in children if c.is_alive()]
            while len(children) < count and not stopping:
                child = context.Process(target=_child, args=(sockets, options), daemon=False)
                child.start()
                children.append(child)
            time.sleep(0.5)
    finally:
        for child in children:
            child.terminate()
        deadline = time.monotonic() + options["limits"].shutdown_seconds + STOP_GRACE
        for child in children:
            child.join(max(0.0, deadline - time.monotonic()))
        for child in children:
            if child.is_alive():
                print(f"worker {child.pid} did not stop in time: killed", file=sys.stderr)
                child.kill()
                child.join()
        for sock in sockets:
            sock.close()
