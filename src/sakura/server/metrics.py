"""Prometheus metrics of one server process, with the official client (``prometheus-client``).

Every app has its own registry (:class:`Metrics`, ``app.state.metrics``; the lobby holds the
same object), so two apps in one process (the tests) count apart. Counting is always on and
costs a lock and an addition per event; serving the numbers is off unless ``sakura serve
--metrics-port N`` asks for it, and then on an admin port of its own, bound to 127.0.0.1 by
default (``--metrics-host``): players never reach ``/metrics``.

The names follow Prometheus' conventions (``_total`` for counters, ``_seconds`` for times):

* ``sakura_live_tables``: unfinished tables this process holds in memory;
* ``sakura_connections``: open WebSockets to this process;
* ``sakura_actions_total``: actions players sent that the table accepted (``rate()`` of it is
  actions per second);
* ``sakura_action_seconds``: from an action's arrival to its acceptance (stored and told);
* ``sakura_database_call_seconds``: each call of the store made from the event loop (not the
  grouped action writes, which the action's time already holds);
* ``sakura_rate_limit_refusals_total{limit}``: refusals by which limit: ``messages`` (a
  socket's message rate), ``connections`` (per address), ``chat``, and ``http`` plus the route
  for a 429 of the HTTP API (``http:/api/tables``, ``http:/api/login``, ...);
* ``sakura_failovers_total``: tables this process took over from a process that stopped
  renewing their lease (``--redis-url`` only).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server

# from a fast local action (a millisecond) to one held by a stalled database (seconds)
ACTION_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
DATABASE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class Metrics:
    """One process's metrics (see the module docstring)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.live_tables = Gauge("sakura_live_tables", "Unfinished tables held in this process", registry=r)
        self.connections = Gauge("sakura_connections", "Open WebSockets to this process", registry=r)
        self.actions = Counter("sakura_actions", "Actions players sent that were accepted", registry=r)
        self.action_seconds = Histogram(
            "sakura_action_seconds",
            "Time from an action's arrival to its acceptance",
            buckets=ACTION_BUCKETS,
            registry=r,
        )
        self.database_seconds = Histogram(
            "sakura_database_call_seconds",
            "Time of each store call made from the event loop",
            buckets=DATABASE_BUCKETS,
            registry=r,
        )
        self.refusals = Counter(
            "sakura_rate_limit_refusals", "Requests refused by a rate limit", ["limit"], registry=r
        )
        self.failovers = Counter(
            "sakura_failovers", "Tables taken over from a process that stopped renewing them", registry=r
        )
        self.notifications = Counter(
            "sakura_notifications",
            "Notifications handed to a channel (mail, push), by result (sent, failed, gone)",
            ["channel", "result"],
            registry=r,
        )
        self._server: Any = None

    def watch(self, live_tables: Callable[[], float], connections: Callable[[], float]) -> None:
        """Read the two gauges from the app's own state at each scrape."""
        self.live_tables.set_function(live_tables)
        self.connections.set_function(connections)

    def refused(self, limit: str) -> None:
        self.refusals.labels(limit=limit).inc()

    def serve(self, port: int, host: str = "127.0.0.1") -> int:
        """Serve ``/metrics`` on ``host:port`` in a thread of its own; the port (0: chosen)."""
        server, _thread = start_http_server(port, addr=host, registry=self.registry)
        self._server = server
        bound: int = server.server_address[1]
        return bound

    def close(self) -> None:
        if self._server is not None:
            server, self._server = self._server, None
            server.shutdown()  # its loop ends within half a second
            server.server_close()
