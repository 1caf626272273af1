"""Persistence: every table and every action, kept so that a restart loses no game.

Event sourcing as the engine allows: a table row holds what cannot be recomputed (config,
the server-side seed, the seats, the timer, the status) and one row per applied action holds
``(seq, seat, action text, by, time)``. A table's state is rebuilt by dealing from the seed and
re-applying its actions through the engine, so the database never holds rules or positions.

SQLAlchemy 2 keeps one code path for SQLite (the default: a file, nothing to install) and
PostgreSQL (``postgresql+psycopg://...``). The store's calls are synchronous and short; the
server makes them from worker threads (:mod:`sakura.server.database`), never on its event loop,
and the engine is made so that a stuck database fails fast: a busy timeout on SQLite, connect,
statement and lock timeouts on PostgreSQL, and statement parameters (a seat's secret pick, a
seed, a token's hash) never in an error's text.
Actions, the hot path, go through :class:`GroupCommit`: every action that arrives while a
commit is under way joins the next one, so one transaction (in a worker thread, off the event
loop) stores the actions of many tables at once, and clients hear of an action only once the
transaction that holds it has committed. An acknowledged action is always in the database.
The schema is Alembic's (:mod:`sakura.server.migrations`): the store upgrades the database to
the newest revision when it starts, so a change to the models (:mod:`sakura.server.models`)
comes with a revision.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import create_engine, event, insert, select, update
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.orm import Session, sessionmaker

from sakura.server import moderation_models, people_models  # noqa: F401  (their tables join Base.metadata)
from sakura.server.deadlines import DeadlineWrite, write_deadlines
from sakura.server.models import ActionRow, AnalysisRow, Base, TableRow
from sakura.server.notify import models as notify_models  # noqa: F401  (revision 0009's tables)

__all__ = ["ActionWrite", "Base", "FencedError", "GroupCommit", "Store", "StoredTable", "now"]

log = logging.getLogger("sakura.server")


UPGRADE_WAIT = 60.0  # seconds an upgrade waits for another process's upgrade (SQLite's lock)


@dataclass(frozen=True, slots=True)
class StoredTable:
    """A table as the database holds it, actions in order (``(seat, action text)``)."""

    id: str
    config: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    timer: float | None
    status: str
    rematch: str | None
    created: dt.datetime
    actions: list[tuple[int, str]]
    game: str = "sakura"  # the engine's name for it (``make_game(game, config)``)
    rated: bool = False
    options: dict[str, Any] = field(default_factory=dict)  # {"spectator_chat": False}, ...
    # who made each action, in the same order: "player", "bot" or "timer" (a bot that played
    # for a player whose time ran out: the history says so, as the live update did)
    # (not compared: a database from before the column says "player" for every action)
    actors: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True, slots=True)
class ActionWrite:
    """One accepted action to store; ``finished``: it ended the game (the table's status too)."""

    table_id: str
    seq: int
    seat: int
    action: str
    by: str
    finished: bool = False
    lease: int | None = None  # the writer's lease on the table (many processes); None: one process
    # a turn-based table's deadline row as this action leaves it (it began or ended a
    # decision), written in the same transaction; None: the row stays as it is
    deadline: DeadlineWrite | None = None


class FencedError(Exception):
    """Actions written under a lease the table no longer has (a stale owner): none of them was
    stored. ``tables``: the tables whose writes were refused."""

    def __init__(self, tables: set[str]) -> None:
        super().__init__(f"a newer lease owns table(s) {', '.join(sorted(tables))}: writes refused")
        self.tables = tables


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class Store:
    """The database behind the server: tables and their actions."""

    def __init__(
        self, url: str, *, busy_seconds: float = 2.0, statement_ms: int = 5000, connect_seconds: int = 3
    ) -> None:
        self.url = url
        if url.startswith("sqlite"):
            self.engine: Engine = create_engine(
                url, hide_parameters=True, connect_args={"timeout": busy_seconds}
            )
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            self.engine = create_engine(
                _with_timeouts(url, statement_ms, connect_seconds),
                hide_parameters=True,
                pool_timeout=connect_seconds,
            )
        self._session = sessionmaker(self.engine, expire_on_commit=False)
        from sakura.server import migrations  # its scripts import the models above

        # The upgrade may wait for another process's (servers started together): on SQLite
        # through a patient engine of its own, whose connections wait up to a minute for the
        # lock from their first statement on (the WAL pragma included), where serving ones
        # give up after ``busy_seconds``.
        upgrading = self.engine
        if url.startswith("sqlite"):
            upgrading = create_engine(url, hide_parameters=True, connect_args={"timeout": UPGRADE_WAIT})
            event.listen(upgrading, "connect", _sqlite_pragmas)
        try:
            migrations.upgrade(upgrading)
        except BaseException:  # a database that cannot be upgraded: no connection kept open
            self.engine.dispose()
            raise
        finally:
            if upgrading is not self.engine:
                upgrading.dispose()

    def close(self) -> None:
        self.engine.dispose()

    def create_table(self, row: StoredTable) -> None:
        with self._session.begin() as s:
            s.add(
                TableRow(
                    id=row.id,
                    game=row.game,
                    config=row.config,
                    seed=row.seed,
                    seats=row.seats,
                    timer=row.timer,
                    status=row.status,
                    rematch=row.rematch,
                    created=row.created,
                    rated=row.rated,
                    options=row.options or None,
                )
            )

    def add_action(self, table_id: str, seq: int, seat: int, action: str, by: str) -> None:
        """Store one action in its own transaction."""
        self.add_actions([ActionWrite(table_id, seq, seat, action, by)])

    def add_actions(self, writes: list[ActionWrite]) -> None:
        """The hot path: many actions (of any tables) in one transaction, all or none; a game's
        last action marks its table finished, and an action that began or ended a turn-based
        decision writes its deadline row (:mod:`sakura.server.deadlines`), in the same
        transaction. Core, no ORM."""
        at = now()
        rows = [
            {
                "table_id": w.table_id,
                "seq": w.seq,
                "seat": w.seat,
                "action": w.action,
                "by": w.by,
                "at": at,
                "lease": w.lease,
            }
            for w in writes
        ]
        finished = [w.table_id for w in writes if w.finished]
        deadlines = {w.table_id: w.deadline.due for w in writes if w.deadline is not None}  # the last wins
        with self.engine.begin() as conn:
            leased = {w.table_id: w.lease for w in writes if w.lease is not None}
            if leased:  # fencing: the tables' rows locked until the commit, so no new owner slips in
                current = dict(
                    conn.execute(
                        select(TableRow.id, TableRow.lease).where(TableRow.id.in_(leased)).with_for_update()
                    ).all()
                )
                stale = {t for t, lease in leased.items() if current.get(t) != lease}
                if stale:
                    raise FencedError(stale)
            conn.execute(_INSERT_ACTION, rows)
            if finished:
                conn.execute(update(TableRow).where(TableRow.id.in_(finished)).values(status="finished"))
            if deadlines:
                write_deadlines(conn, deadlines)

    def update_table(self, table_id: str, deadline: DeadlineWrite | None = None, **fields: Any) -> None:
        """Change ``seats``, ``status`` or ``rematch`` of a table; ``deadline``: its turn-based
        deadline row as the change leaves it (the last seat claimed begins the first decision),
        in the same transaction."""
        with self._session.begin() as s:
            row = s.get(TableRow, table_id)
            if row is None:
                raise KeyError(table_id)
            for key, value in fields.items():
                setattr(row, key, value)
            if deadline is not None:
                s.flush()  # the table's row first (the deadline's foreign key)
                write_deadlines(s.connection(), {table_id: deadline.due})

    def load(self, table_id: str) -> StoredTable | None:
        with self._session() as s:
            row = s.get(TableRow, table_id)
            return None if row is None else self._stored(s, row)

    def load_unfinished(
        self, after: str = "", limit: int | None = None
    ) -> tuple[list[StoredTable], str | None]:
        """The tables not finished whose ids come after ``after``, in id order, ``limit`` at
        most (None: all); and the id to go on after (None: no more). Two queries a page (the
        tables, then their actions: one query a table took about 31 s for 10,000 sleeping
        turn-based tables), so that a server restores any number of tables a page at a time,
        each call well within the database's time limit. A row that cannot be read is logged
        and left out, and the others load."""
        unfinished = TableRow.status.not_in(("finished", "closed"))
        with self._session() as s:
            query = select(TableRow).where(unfinished, TableRow.id > after).order_by(TableRow.id)
            rows = list(s.scalars(query if limit is None else query.limit(limit)))
            if not rows:
                return [], None
            actions: dict[str, list[tuple[Any, Any, Any]]] = {}
            for table_id, seat, action, by in s.execute(
                select(ActionRow.table_id, ActionRow.seat, ActionRow.action, ActionRow.by)
                .join(TableRow, TableRow.id == ActionRow.table_id)
                .where(unfinished, ActionRow.table_id > after, ActionRow.table_id <= rows[-1].id)
                .order_by(ActionRow.table_id, ActionRow.seq)
            ):
                actions.setdefault(table_id, []).append((seat, action, by))
            tables = []
            for row in rows:
                try:
                    tables.append(self._stored_with(row, actions.get(row.id, [])))
                except Exception as exc:
                    log.error(
                        "table %s cannot be read from the database (left out): %s: %s",
                        row.id,
                        type(exc).__name__,
                        str(exc).splitlines()[0] if str(exc) else "",
                    )
            more = limit is not None and len(rows) == limit
            return tables, rows[-1].id if more else None

    def finished_ids(self, limit: int = 50, offset: int = 0) -> list[str]:
        with self._session() as s:
            rows = s.scalars(
                select(TableRow.id)
                .where(TableRow.status == "finished")
                .order_by(TableRow.created.desc(), TableRow.id)
                .offset(offset)
                .limit(limit)
            )
            return list(rows)

    def save_analysis(self, table_id: str, seat: int, spec: str, data: dict[str, Any]) -> None:
        """Keep (or replace) the analysis of one seat of a finished game."""
        with self._session.begin() as s:
            row = s.get(AnalysisRow, (table_id, seat))
            if row is None:
                s.add(AnalysisRow(table_id=table_id, seat=seat, spec=spec, data=data, created=now()))
            else:
                row.spec, row.data, row.created = spec, data, now()

    def load_analysis(self, table_id: str, seat: int) -> dict[str, Any] | None:
        with self._session() as s:
            row = s.get(AnalysisRow, (table_id, seat))
            return None if row is None else dict(row.data)

    @staticmethod
    def _stored(s: Session, row: TableRow) -> StoredTable:
        actions = s.execute(
            select(ActionRow.seat, ActionRow.action, ActionRow.by)
            .where(ActionRow.table_id == row.id)
            .order_by(ActionRow.seq)
        ).all()
        return Store._stored_with(row, [(seat, action, by) for seat, action, by in actions])

    @staticmethod
    def _stored_with(row: TableRow, actions: list[tuple[Any, Any, Any]]) -> StoredTable:
        """The table of ``row`` with its ``actions`` (seat, action, by), in order."""
        created = row.created if row.created.tzinfo else row.created.replace(tzinfo=dt.UTC)
        return StoredTable(
            row.id,
            dict(row.config),
            int(row.seed),
            [dict(x) for x in row.seats],
            row.timer,
            row.status,
            row.rematch,
            created,
            [(int(a), str(b)) for a, b, _ in actions],
            game=row.game,
            rated=bool(row.rated),
            options=dict(row.options or {}),
            actors=tuple(str(by) for _, _, by in actions),
        )


_INSERT_ACTION = insert(ActionRow)


def _with_timeouts(url_text: str, statement_ms: int, connect_seconds: int) -> URL:
    """A PostgreSQL URL whose connections give up: on connecting, on a statement, on a lock, and
    on a transaction left idle. Options already in the URL (a ``search_path``) are kept."""
    url = make_url(url_text)
    if not url.drivername.startswith("postgresql"):
        return url
    options = str(url.query.get("options", ""))
    ours = (
        f"-c statement_timeout={statement_ms} -c lock_timeout={statement_ms} "
        f"-c idle_in_transaction_session_timeout={statement_ms * 4}"
    )
    query = {"options": f"{options} {ours}".strip()}
    if "connect_timeout" not in url.query:
        query["connect_timeout"] = str(connect_seconds)
    return url.update_query_dict(query)


Committed = Callable[[BaseException | None], None]
Pending = tuple[ActionWrite, Committed, "asyncio.Future[None]"]


class GroupCommit:
    """Stores actions for the event loop, in order, in groups.

    ``submit(action, done)`` queues ``action`` and returns a future. Actions queued while a
    transaction is being committed wait and go together in the next one (group commit), so
    under load a commit carries the actions of many tables and at rest an action waits for no
    one. Transactions run one after another in one worker thread, off the event loop. When a
    transaction ends, ``done(None)`` (committed) or ``done(error)`` (rolled back: nothing of it
    was stored) is called on the event loop for each of its actions in the order they were
    queued, then the futures are resolved the same way.

    A failed transaction also fails every action still queued for the same tables: a table
    queues an action on top of the ones before it, so none may be stored without them.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self._pending: list[Pending] = []
        self._flusher: asyncio.Task[None] | None = None
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sakura-db")
        self.batches = 0  # transactions committed or failed, for the curious
        self.writes = 0

    def submit(self, action: ActionWrite, done: Committed) -> asyncio.Future[None]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._pending.append((action, done, future))
        if self._flusher is None or self._flusher.done():
            self._flusher = loop.create_task(self._flush())
        return future

    async def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        while self._pending:
            batch, self._pending = self._pending, []
            self.batches += 1
            self.writes += len(batch)
            try:
                await loop.run_in_executor(self._thread, self.store.add_actions, [w for w, _, _ in batch])
            except FencedError as exc:  # a stale owner's writes: refused; the other tables' go again
                refused = [p for p in batch + self._pending if p[0].table_id in exc.tables]
                self._pending = [p for p in batch + self._pending if p[0].table_id not in exc.tables]
                _finish(refused, exc)
            except Exception as exc:  # the whole transaction rolled back: every action in it failed
                failed = {w.table_id for w, _, _ in batch}
                dependent = [p for p in self._pending if p[0].table_id in failed]
                self._pending = [p for p in self._pending if p[0].table_id not in failed]
                _finish(batch + dependent, exc)
            else:
                _finish(batch, None)

    async def aclose(self) -> None:
        """Store what is queued, then stop the worker thread."""
        if self._flusher is not None:
            await asyncio.gather(self._flusher, return_exceptions=True)
        self.close()

    def close(self) -> None:
        self._thread.shutdown(wait=True)


def _finish(writes: list[Pending], error: Exception | None) -> None:
    for action, done, _ in writes:
        try:
            done(error)
        except Exception:
            log.exception("table %s: after storing action %d", action.table_id, action.seq)
    for _, _, future in writes:
        if not future.done():
            if error is None:
                future.set_result(None)
            else:
                future.set_exception(error)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL and synchronous=NORMAL: a commit survives a process crash (not a power cut) and costs
    far less than a full fsync per action.

    Turning a new (rollback-journal) file to WAL can fail at once with "database is locked",
    without SQLite's busy handler being asked: two connections doing it together each hold a
    read lock the other's switch needs, and SQLite answers one of them busy rather than
    deadlock. Servers started together on a new file do just that (CI saw it about once in a
    hundred starts), so the switch is tried again, for as long as the connection's own busy
    timeout allows."""
    cursor = dbapi_connection.cursor()
    try:
        patience = cursor.execute("PRAGMA busy_timeout").fetchone()[0] / 1000
        deadline = time.monotonic() + patience
        pause = 0.005
        while True:
            try:
                cursor.execute("PRAGMA journal_mode=WAL")
                break
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() + pause > deadline:
                    raise
                time.sleep(pause)
                pause = min(pause * 2, 0.1)
        cursor.execute("PRAGMA synchronous=NORMAL")
    finally:
        cursor.close()
