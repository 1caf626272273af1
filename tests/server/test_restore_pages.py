"""A server restores its unfinished tables a page at a time (one database call a page, each
well within ``db_timeout`` however many tables there are): every unfinished table comes back
once, with its actions in order, whatever the page size; a finished one stays out, and a row
that cannot be read is left out without stopping the pages after it. SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest

from sakura.engine import make_game
from sakura.server import lobby as lobby_module
from sakura.server.db import ActionWrite, Store, StoredTable
from sakura.server.lobby import Lobby


def some_actions(seed: int, count: int) -> list[tuple[int, str]]:
    """The first ``count`` actions of a two-player game (each time the first legal one)."""
    state = make_game("sakura", {"players": 2}).new_initial_state(seed)
    played = []
    for _ in range(count):
        seat = state.current_players()[0]
        action = state.legal_actions(seat)[0]
        state.apply_action(seat, action)
        played.append((seat, str(action)))
    return played


def seven_tables(store: Store) -> dict[str, list[tuple[int, str]]]:
    """Tables t0..t6, t<i> with i actions; t3 finished, t5's seats unreadable. Returns the
    actions of those a restore brings back."""
    seats = [{"kind": "human", "name": "Ada", "token_hash": "0" * 64}, {"kind": "human", "name": "Bo"}]
    back = {}
    for i in range(7):
        table_id, played = f"t{i}", some_actions(100 + i, i)
        store.create_table(
            StoredTable(
                table_id, {"players": 2}, 100 + i, seats, None, "playing", None, dt.datetime.now(dt.UTC), []
            )
        )
        if played:
            store.add_actions(
                [ActionWrite(table_id, n, seat, text, "player") for n, (seat, text) in enumerate(played, 1)]
            )
        if i == 3:
            store.update_table(table_id, status="finished")
        elif i == 5:
            store.update_table(table_id, seats="no seats")  # a JSON string: not a list of seats
        else:
            back[table_id] = played
    return back


@pytest.mark.parametrize("page", [1, 2, 5, None])
def test_the_pages_bring_back_every_unfinished_table_once(database_url: str, page: int | None) -> None:
    store = Store(database_url)
    try:
        back = seven_tables(store)
        loaded: dict[str, list[tuple[int, str]]] = {}
        after: str | None = ""
        calls = 0
        while after is not None:
            tables, after = store.load_unfinished(after, page)
            calls += 1
            for table in tables:
                assert table.id not in loaded
                loaded[table.id] = table.actions
        assert loaded == back
        assert calls == (1 if page is None else 6 // page + 1)  # t5 read, left out: its page counts
    finally:
        store.close()


def test_a_lobby_restores_page_by_page(database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lobby_module, "RESTORE_PAGE", 2)
    store = Store(database_url)
    try:
        back = seven_tables(store)

        async def restore() -> dict[str, int]:
            lobby = Lobby(store)
            try:
                return {t.id: t.seq for t in await lobby.restore()}
            finally:
                for table in lobby.tables.values():
                    await table.close()
                await lobby.writer.aclose()
                lobby.db.close()

        assert asyncio.run(restore()) == {t: len(played) for t, played in back.items()}
    finally:
        store.close()
