"""Prometheus metrics (issue #30, deliverable 2): off unless asked for, then on an admin port of
their own, scraped after a few actions: every number that should move has moved."""

from __future__ import annotations

import asyncio
import json
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families
from tests.live_server import free_port
from tests.server.conftest import create_table, receive, socket

from sakura.server import create_app
from sakura.server.limits import Limits


def scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics`` on ``port``: (name, labels) -> value."""
    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def play_one_action(ws: Any, seat: int, view: dict[str, Any]) -> dict[str, Any]:
    """Act with the first legal action, wait for it to come back (the update of this seat's
    action), and return the next view in which this seat has something to do."""
    ws.send_text(json.dumps({"type": "act", "action": view["legal_actions"][0]}))
    while (message := ws.receive_json())["type"] != "update" or message["seat"] != seat:
        assert message["type"] != "error", message
    while not message["view"]["legal_actions"]:
        message = receive(ws, "update")
    return dict(message["view"])


def test_metrics_move_with_actions_connections_and_refusals(sqlite_url: str) -> None:
    port = free_port()
    limits = Limits(creates_per_minute=2)
    with TestClient(create_app(sqlite_url, limits, metrics_at=("127.0.0.1", port))) as client:
        before = scrape(port)
        assert before[("sakura_actions_total", ())] == 0
        assert before[("sakura_live_tables", ())] == 0
        created = create_table(client, 2, ["human", "easy"])
        with socket(client, created["table"]["id"], created["token"]) as (ws, welcome):
            during = scrape(port)
            assert during[("sakura_connections", ())] == 1
            assert during[("sakura_live_tables", ())] == 1
            view = welcome["view"]
            for _ in range(3):
                view = play_one_action(ws, welcome["seat"], view)
        create_table(client, 2, ["human", "easy"])
        refused = client.post("/api/tables", json={"players": 2})
        assert refused.status_code == 429
        after = scrape(port)
    assert after[("sakura_actions_total", ())] == 3
    assert after[("sakura_action_seconds_count", ())] == 3
    assert after[("sakura_action_seconds_sum", ())] > 0
    assert (
        after[("sakura_database_call_seconds_count", ())] > before[("sakura_database_call_seconds_count", ())]
    )
    assert after[("sakura_connections", ())] == 0
    assert after[("sakura_rate_limit_refusals_total", (("limit", "http:/api/tables"),))] == 1
    assert after[("sakura_failovers_total", ())] == 0


def test_metrics_are_off_by_default_and_not_on_the_players_port(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url)) as client:
        assert client.get("/metrics").status_code == 404
        assert client.app.state.metrics._server is None  # type: ignore[attr-defined]


def test_a_table_taken_over_counts_as_a_failover(tmp_path: Path) -> None:
    """The keeper of one process takes a table whose owner stopped renewing its lease: the
    process's ``sakura_failovers_total`` says so (PostgreSQL is not needed: SQLite and Redis)."""
    from tests.server.cluster_site import REDIS, cluster_kill, local_lobby, redis_up

    from sakura.server.table_request import NewTable

    if not redis_up(REDIS):
        pytest.skip(f"no Redis server reachable at {REDIS} (set SAKURA_TEST_REDIS_URL)")
    prefix = f"sakura-metrics-{uuid.uuid4().hex[:8]}:"

    async def run() -> tuple[float, float]:
        async with local_lobby(prefix, tmp_path / "db.sqlite") as lobby:
            made, _, _ = await lobby.create(NewTable(players=2))
            before = _failovers(lobby)
            await made.close()  # as if its owner died: gone from memory, its lease lapsed
            del lobby.tables[made.id]
            await lobby.leases.release(made.id)
            await lobby._take_orphans()  # the keeper's round
            assert made.id in lobby.tables
            text = generate_latest(lobby.metrics.registry).decode()
            return before, next(
                float(line.split()[1])
                for line in text.splitlines()
                if line.startswith("sakura_failovers_total ")
            )

    try:
        before, after = asyncio.run(run())
    finally:
        cluster_kill.drop_prefix(REDIS, prefix)
    assert (before, after) == (0, 1)


def _failovers(lobby: Any) -> float:
    """``sakura_failovers_total`` as a scrape of ``lobby``'s registry reads it."""
    text = generate_latest(lobby.metrics.registry).decode()
    return next(
        float(line.split()[1]) for line in text.splitlines() if line.startswith("sakura_failovers_total ")
    )
