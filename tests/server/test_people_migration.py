"""Revision 0003 on a database made by today's code (revision 0002, no alembic_version table,
as ``test_migrations`` builds it from frozen DDL): every table and action kept, the finished
games enter the archive when the server starts, and the new features work on it."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from typing import Any

from fastapi.testclient import TestClient
from tests.server.conftest import ScriptedPlayer, create_table
from tests.server.test_migrations import _differences, _old_database

from sakura.server import create_app, migrations
from sakura.server.db import Store


def test_a_database_of_revision_0002_upgrades_archives_its_games_and_chats(
    database_url: str, tmp_path: Any
) -> None:
    source = f"sqlite:///{tmp_path / 'source.db'}"
    with TestClient(create_app(source)) as client:
        created = create_table(client, 2, ["human", "easy"], name="Negar")
        table_id = created["table"]["id"]
        ScriptedPlayer(client, table_id, created["token"], seed=9).start().join()
    store = Store(source)
    stored = store.load(table_id)
    store.close()
    assert stored is not None and stored.status == "finished"
    _old_database(database_url, True, replace(stored, options={}, rated=False))
    with TestClient(create_app(database_url)) as client:
        for _ in range(100):  # the archive is caught up in the background
            games = client.get("/api/archive?q=negar").json()["games"]
            if games:
                break
            time.sleep(0.1)
        assert [g["id"] for g in games] == [table_id]
        assert games[0]["seats"][0]["name"] == "Negar" and games[0]["actions"] == len(stored.actions)
        with client.websocket_connect(f"/ws/{table_id}") as ws:  # an old table takes chat
            ws.send_text(json.dumps({"type": "hello"}))
            ws.send_text(json.dumps({"type": "chat", "phrase": "gg"}))
            while (m := ws.receive_json())["type"] != "chat":
                pass
            assert m["phrase"] == "gg" and m["spectator"] is True
    store = Store(database_url)
    try:
        assert migrations.current(store.engine) == migrations.head()
        assert store.load(table_id) == replace(stored, options={}, rated=False)
    finally:
        store.close()
    assert _differences(database_url) == []
