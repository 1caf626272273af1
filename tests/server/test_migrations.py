"""The schema is Alembic's: a database of any age upgrades to the newest revision on start-up,
keeps its tables and actions, and plays on; the models and the newest revision agree.

The databases "made by older code" are built here from frozen copies of the DDL that code ran
(``create_all`` of its models), never from today's models, so a change to the models cannot
change what these tests start from. SQLite always, PostgreSQL where a server is reachable.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from fastapi.testclient import TestClient
from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    create_engine,
    inspect,
    make_url,
    text,
)
from tests.server.conftest import ScriptedPlayer, create_table, socket
from typer.testing import CliRunner

from sakura.cli.main import app as cli
from sakura.records import GameRecord, replay
from sakura.server import create_app, migrations
from sakura.server.db import Base, Store, StoredTable


def _schema(with_game: bool) -> MetaData:
    """The tables as the code before migrations made them: with the ``game`` column (the card
    game's time, up to today) or without (before it)."""
    metadata = MetaData()
    game = [Column("game", String(32), nullable=False, server_default="sakura")] if with_game else []
    Table(
        "sakura_tables",
        metadata,
        Column("id", String(32), primary_key=True),
        *game,
        Column("config", JSON, nullable=False),
        Column("seed", BigInteger, nullable=False),
        Column("seats", JSON, nullable=False),
        Column("timer", Float, nullable=True),
        Column("status", String(16), nullable=False),
        Column("rematch", String(32), nullable=True),
        Column("created", DateTime(timezone=True), nullable=False),
    )
    Table(
        "sakura_actions",
        metadata,
        Column("table_id", String(32), ForeignKey("sakura_tables.id"), primary_key=True),
        Column("seq", Integer, primary_key=True),
        Column("seat", Integer, nullable=False),
        Column("action", String(64), nullable=False),
        Column("by", String(16), nullable=False),
        Column("at", DateTime(timezone=True), nullable=False),
    )
    return metadata


def _differences(url: str) -> list[Any]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return list(compare_metadata(MigrationContext.configure(conn), Base.metadata))
    finally:
        engine.dispose()


def _half_played(tmp_path: Any) -> tuple[StoredTable, str]:
    """A 4-player table 12 actions in (a human and three bots), as the server stored it, and the
    human's token."""
    source = f"sqlite:///{tmp_path / 'source.db'}"
    with TestClient(create_app(source)) as client:
        created = create_table(client, 4, ["human", "easy", "medium", "easy"])
        table_id, token = created["table"]["id"], created["token"]
        ScriptedPlayer(
            client, table_id, token, seed=3, stop_when=lambda m: m["type"] == "update" and m["seq"] >= 12
        ).start().join()
    store = Store(source)
    try:
        stored = store.load(table_id)
    finally:
        store.close()
    assert stored is not None and len(stored.actions) >= 12 and stored.status == "playing"
    return stored, token


def _old_database(url: str, with_game: bool, stored: StoredTable) -> None:
    """``stored`` written into a database made the old way (no ``alembic_version``)."""
    metadata = _schema(with_game)
    engine = create_engine(url)
    try:
        metadata.create_all(engine)
        row = {
            "id": stored.id,
            "config": stored.config,
            "seed": stored.seed,
            "seats": stored.seats,
            "timer": stored.timer,
            "status": stored.status,
            "rematch": stored.rematch,
            "created": stored.created,
        }
        if with_game:
            row["game"] = stored.game
        actions = [
            {
                "table_id": stored.id,
                "seq": seq,
                "seat": seat,
                "action": action,
                "by": "player",
                "at": stored.created,
            }
            for seq, (seat, action) in enumerate(stored.actions, 1)
        ]
        with engine.begin() as conn:
            conn.execute(metadata.tables["sakura_tables"].insert(), row)
            conn.execute(metadata.tables["sakura_actions"].insert(), actions)
        assert not inspect(engine).has_table("alembic_version")
    finally:
        engine.dispose()


@pytest.mark.parametrize("with_game", [True, False], ids=["today", "before-the-card-game"])
def test_a_database_made_before_migrations_is_upgraded_and_plays_on(
    database_url: str, tmp_path: Any, with_game: bool
) -> None:
    stored, token = _half_played(tmp_path)
    _old_database(database_url, with_game, stored)
    store = Store(database_url)
    try:
        assert migrations.current(store.engine) == migrations.head()
        assert store.load(stored.id) == stored  # every field and every action kept
    finally:
        store.close()
    assert _differences(database_url) == []  # the same schema as a database made new
    with TestClient(create_app(database_url)) as client:
        with socket(client, stored.id, token) as (_, welcome):
            assert welcome["seat"] == 0 and welcome["seq"] >= len(stored.actions)  # bots may go on
        player = ScriptedPlayer(client, stored.id, token, seed=4).start()
        player.join()
        assert not player.errors and player.last_view is not None and player.last_view["terminal"]
        record = GameRecord.loads(client.get(f"/api/tables/{stored.id}/record").text)
        assert replay(record).is_terminal()
        assert [(m.player, m.action) for m in record.moves[: len(stored.actions)]] == stored.actions


def test_an_empty_database_gets_the_newest_revision_and_matches_the_models(database_url: str) -> None:
    store = Store(database_url)
    try:
        assert migrations.current(store.engine) == migrations.head()
        if store.engine.dialect.name == "postgresql":  # in the URL's schema, nowhere else
            schema = str(make_url(database_url).query["options"]).split("=", 1)[1]
            with store.engine.connect() as conn:
                names = set(
                    conn.scalars(
                        text("SELECT table_name FROM information_schema.tables WHERE table_schema = :s"),
                        {"s": schema},
                    )
                )
            assert names == {"alembic_version", *Base.metadata.tables}
    finally:
        store.close()
    assert _differences(database_url) == []
    Store(database_url).close()  # a second start finds nothing to do
    with TestClient(create_app(database_url)) as client:
        created = create_table(client, 3, ["human", "easy", "easy"])
        player = ScriptedPlayer(client, created["table"]["id"], created["token"], seed=5).start()
        player.join()
        assert player.last_view is not None and player.last_view["terminal"]


def test_the_models_and_the_newest_revision_agree() -> None:
    """A column added to a model without a revision (or a revision without the model) fails
    here: Alembic compares an upgraded database with the models."""
    engine = create_engine("sqlite://")
    try:
        migrations.upgrade(engine)
        with engine.connect() as conn:
            assert list(compare_metadata(MigrationContext.configure(conn), Base.metadata)) == []
            model = MetaData()
            for table in Base.metadata.tables.values():
                table.to_metadata(model)
            model.tables["sakura_tables"].append_column(Column("rating", Integer, nullable=True))
            found = compare_metadata(MigrationContext.configure(conn), model)
            assert [d[0] for d in found] == ["add_column"]  # the check can fail
    finally:
        engine.dispose()


def _at_once(work: Any, threads: int = 3) -> None:
    """``work()`` in ``threads`` threads released together, as processes started at once."""
    start = threading.Barrier(threads)

    def go() -> None:
        start.wait()
        work()

    running = [threading.Thread(target=go) for _ in range(threads)]
    for t in running:
        t.start()
    for t in running:
        t.join(60)


def test_servers_starting_together_upgrade_one_at_a_time(database_url: str) -> None:
    """Processes of one site start at once (``--workers``): each upgrade waits for the other."""
    failures: list[BaseException] = []

    def open_store() -> None:
        try:
            Store(database_url).close()
        except BaseException as exc:
            failures.append(exc)

    _at_once(open_store)
    assert failures == []
    engine = create_engine(database_url)
    try:
        assert migrations.current(engine) == migrations.head()
    finally:
        engine.dispose()


def test_connections_turning_a_new_file_to_wal_together_all_succeed(tmp_path: Any) -> None:
    """Servers started together on a new SQLite file all turn it to WAL at once. SQLite answers
    one of two such switches "database is locked" at once, without waiting (it would deadlock),
    about once in a hundred tries here: the store's connections try again instead (CI failed
    the test above on it). Many fresh files, three connections each, none may fail."""
    import sqlite3

    from sakura.server.db import _sqlite_pragmas

    failures: list[str] = []
    for trial in range(300):
        path = tmp_path / f"new-{trial}.db"

        def open_new(path: Any = path) -> None:
            connection = sqlite3.connect(path, timeout=10)
            try:
                _sqlite_pragmas(connection, None)
                mode = connection.execute("PRAGMA journal_mode").fetchone()[0]
                if mode != "wal":
                    failures.append(f"{path.name}: {mode}")
            except sqlite3.OperationalError as exc:
                failures.append(f"{path.name}: {exc}")
            finally:
                connection.close()

        _at_once(open_new)
    assert failures == []


def test_a_starting_server_waits_for_another_process_holding_the_sqlite_lock(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process holds SQLite's lock longer than a serving statement waits, as a slow
    upgrade on a loaded machine does: the starting server waits for it, from its very first
    statement (the WAL pragma of a new connection) on, and then opens the database.

    The holder lets go once the starting server has been waiting for the lock for longer than
    a serving connection would (``busy_seconds``, made short here), seen from the server's
    own first attempt on."""
    import sqlite3
    import time

    from sakura.server import db as db_module

    busy = 0.2
    path = tmp_path / "sakura.db"
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN EXCLUSIVE")  # a rollback-journal database, locked for writing and reading
    trying, released = threading.Event(), threading.Event()
    first_try: list[float] = []
    pragmas = db_module._sqlite_pragmas

    def watched(connection: Any, record: Any) -> None:
        if not first_try:
            first_try.append(time.monotonic())
            trying.set()
        pragmas(connection, record)

    monkeypatch.setattr(db_module, "_sqlite_pragmas", watched)

    def release() -> None:
        assert trying.wait(30), "the server never tried to open the database"
        while time.monotonic() < first_try[0] + 3 * busy:  # past a serving connection's patience
            released.wait(0.01)
        holder.execute("COMMIT")
        holder.close()
        released.set()

    threading.Thread(target=release).start()
    store = Store(f"sqlite:///{path}", busy_seconds=busy)  # raised "database is locked" before
    try:
        assert released.is_set(), "the server opened a database another process held locked"
        assert migrations.current(store.engine) == migrations.head()
    finally:
        store.close()


def test_a_revision_table_the_migrations_do_not_know_is_refused(sqlite_url: str) -> None:
    """A database from a newer Sakura (a revision these scripts lack) is not touched."""
    engine = create_engine(sqlite_url)
    migrations.upgrade(engine)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    engine.dispose()
    with pytest.raises(Exception, match="9999"):
        Store(sqlite_url)


def test_sakura_db_current_and_upgrade(sqlite_url: str, tmp_path: Any) -> None:
    runner = CliRunner()
    before = runner.invoke(cli, ["db", "current", "--database-url", sqlite_url])
    assert before.exit_code == 0 and before.output.startswith("no revision"), before.output
    upgraded = runner.invoke(cli, ["db", "upgrade", "--database-url", sqlite_url])
    assert upgraded.exit_code == 0 and upgraded.output == f"at {migrations.head()} (the newest)\n"
    after = runner.invoke(cli, ["db", "current", "--database-url", sqlite_url])
    assert after.output == f"{migrations.head()} (the newest)\n"
    missing = f"sqlite:///{tmp_path / 'no-such-folder' / 'x.db'}"
    failed = runner.invoke(cli, ["db", "upgrade", "--database-url", missing])
    assert failed.exit_code == 2 and "error: " in failed.output and "Traceback" not in failed.output
    assert "no-such-folder of the SQLite file does not exist" in failed.output
