"""The lobby: all live tables of a server, their creation, and their return after a restart.

Tables are created with a seed from :mod:`secrets` (server side only) and stored at once; on
start-up every unfinished table is rebuilt from its stored actions and carries on, each on its
own: one whose stored game does not replay is logged and shown as damaged, and the others play.

The lobby is bounded (:class:`~sakura.server.limits.Limits`): a table needs at least one human
seat (bot-only games are what ``sakura tournament`` is for), one client address creates at most
``creates_per_minute`` tables, one process holds at most ``live_tables`` unfinished ones, a
finished table leaves memory once nobody has looked at it for ``finished_linger`` seconds (it
stays in the database, and comes back when asked for), and the lists it serves are pages,
rebuilt at most every ``lobby_cache_seconds``.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from sakura.bots import level_spec
from sakura.engine import GameError, available_games, make_game
from sakura.server import finished, protocol
from sakura.server.database import Database
from sakura.server.db import GroupCommit, Store, StoredTable, now
from sakura.server.front import LocalTable, TableFront
from sakura.server.limits import KeyedLimiter, Limits
from sakura.server.metrics import Metrics
from sakura.server.names import optional_name
from sakura.server.table import Seat, Table, TableError
from sakura.server.table_request import (
    DEFAULT_LEVEL,
    NewTable,
    SeatRequest,
    checked_seat_names,
    rated_rules,
    table_options,
)
from sakura.server.turns import DEFAULT_TIMEOUTS, Pace, PaceClock, Schedule, bounds
from sakura.server.turns.moves import Claim, games_here, in_order

if TYPE_CHECKING:
    from sakura.server.advice import Advisor
    from sakura.server.notify.notifier import Notifier

log = logging.getLogger("sakura.server")

RESTORE_PAGE = 200  # unfinished tables read in one database call at start-up


class Lobby:
    """Every live table of one server, by id."""

    def __init__(self, store: Store, limits: Limits | None = None, metrics: Metrics | None = None) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.metrics = metrics or Metrics()  # the app's (server/metrics.py)
        self.db = Database(
            store,
            timeout=self.limits.db_timeout,
            threads=self.limits.db_threads,
            observe=self.metrics.database_seconds.observe,
        )
        self.writer = GroupCommit(store)  # every table's actions, committed in groups
        self.tables: dict[str, Table] = {}
        self.creates = KeyedLimiter(self.limits.creates_per_minute / 60, self.limits.creates_per_minute)
        self._lists: dict[tuple[str, int], tuple[float, Any]] = {}  # cached pages, by (list, page)
        self.advisor: Advisor | None = None  # the app's hints and analyses (server/advice.py)
        self.turns = Schedule(self.db)  # the turn-based tables' deadlines (turns/schedule.py)
        self.turn_locks = bounds.PersonLocks()  # one person's turn-based seats taken one at a time
        self.notifier: Notifier | None = None  # the app's, if any (server/notify): your move, by mail, push

    async def stop(self) -> None:
        """Before the tables close: nothing to let go for one process (many: their leases)."""

    async def peers_unready(self) -> str | None:
        """Why the other processes of the site cannot be reached (``/readyz``): one process
        has none, so never (many: Redis, :class:`~sakura.server.cluster.ClusterLobby`)."""
        return None

    async def restore(self) -> list[Table]:
        """Rebuild every unfinished table from the database (after a restart), a page of
        :data:`RESTORE_PAGE` tables a database call: each call well within ``db_timeout``
        whatever their number, and the event loop free between pages."""
        await self.turns.recall()
        restored = []
        after: str | None = ""
        while after is not None:
            stored_tables, after = await self.db.call(
                self.store.load_unfinished, after, RESTORE_PAGE, what="loading the unfinished tables"
            )
            for stored in stored_tables:
                try:
                    table = self._table(stored)
                except Exception:
                    log.exception("table %s cannot be restored (left out)", stored.id)
                    continue
                if table.damaged is not None:
                    log.error("table %s is damaged: %s", table.id, table.damaged)
                self.tables[table.id] = table
                restored.append(table)
            await asyncio.sleep(0)
        return restored

    def _table(self, stored: StoredTable) -> Table:
        table = Table(stored, self.db, self.writer, self.limits)
        if "pace" in stored.options:  # turn-based: its deadline in the schedule, no bot before it
            table.clock = PaceClock(table, Pace(stored.options["pace"]), self.turns)
            table.seating.grace = None
            if self.notifier is not None:  # your move and the result, when the page is closed
                self.notifier.watch(table)
        table.finished_listeners.append(lambda t: finished.on_finished(self, t))  # archive, ratings
        return table

    async def get(self, table_id: str) -> Table:
        """The table ``table_id``: in memory, or loaded (a finished one, for its record and
        replay). ``KeyError`` if there is none."""
        table = self.tables.get(table_id)
        if table is None:
            stored = await self.db.call(self.store.load, table_id, what=f"loading table {table_id}")
            if stored is None:
                raise KeyError(table_id)
            table = self.tables.get(table_id)  # loaded meanwhile by another request
            if table is None:
                table = self.tables[stored.id] = self._table(stored)
        return table

    async def front(self, table_id: str) -> TableFront:
        """The table ``table_id`` as the routes use it (:mod:`sakura.server.front`); ``KeyError``
        if there is none."""
        return LocalTable(await self.get(table_id), self)

    async def moves(self, claims: Sequence[Claim], account: str | None) -> dict[str, Any]:
        """ "Your move" (:mod:`sakura.server.turns.moves`): every game in progress of these
        seats (table and token) and of ``account``, among this process's tables (many
        processes: every owner's, :class:`~sakura.server.cluster.ClusterLobby`)."""
        return in_order(games_here(self.tables, claims, account, every_table=True).values())

    def live_count(self) -> int:
        return sum(1 for t in self.tables.values() if t.status != "finished")

    async def create(
        self, request: NewTable, *, claim: bool = True, address: str | None = None, account: str | None = None
    ) -> tuple[Table, int | None, str | None]:
        """Create and store a table; the creator takes the first human seat (if any).
        ``address``: the client's, for the rate limit (a rematch passes none). A turn-based
        table's creator takes the seat within their bound (:meth:`turn_slot`), counted before
        anything else (a refusal changes nothing, the rate limit's token included)."""
        if request.pace is None or not claim:
            return await self._create(request, claim=claim, address=address, account=account)
        async with self.turn_slot(account, address or "?"):
            table, seat, token = await self._create(request, claim=claim, address=address, account=account)
            assert seat is not None
            await self.count_turn_seat(table.id, seat, account, address or "?")
            return table, seat, token

    async def _create(
        self, request: NewTable, *, claim: bool, address: str | None, account: str | None
    ) -> tuple[Table, int | None, str | None]:
        if request.game not in available_games():
            known = ", ".join(available_games())
            raise TableError(f"unknown game {request.game!r}; games: {known}", "bad_table")
        config: dict[str, Any] = {"players": request.players}
        if request.variant is not None:
            config["variant"] = request.variant
        try:
            game = make_game(request.game, config)
        except (ValueError, GameError) as exc:
            raise TableError(str(exc), "bad_table") from None
        seat_requests = request.seats or [SeatRequest(kind="human")] + [
            SeatRequest(kind="bot", level=DEFAULT_LEVEL) for _ in range(request.players - 1)
        ]
        if not any(r.kind == "human" for r in seat_requests):
            raise TableError(
                "a table needs at least one player's seat; to watch bots play each other, "
                "use `sakura tournament`",
                "bad_table",
            )
        rated_rules(request, seat_requests, claim=claim, account=account)
        if address is not None and (wait := self.creates.take(address)) is not None:
            raise TableError(
                f"too many new tables from your address; try again in {wait:.0f} s",
                "rate_limited",
                retry_after=wait,
            )
        if self.live_count() >= self.limits.live_tables:
            raise TableError(
                "this server is full (it holds as many games as it may); try again when a game has ended",
                "full",
                retry_after=60,
            )
        creator = optional_name(request.name)  # a name that is not one: refused before anything is made
        names = checked_seat_names(seat_requests, creator if claim else None)
        seats = []
        for r, seat_name in zip(seat_requests, names, strict=True):
            if r.kind == "bot":
                level = r.level or DEFAULT_LEVEL
                # The seat keeps the spec the level stands for in this game (a search's spec
                # starts with "mcts", which the table thinks about off the event loop).
                seats.append(Seat("bot", seat_name or "", bot=level_spec(level, game.name), level=level))
            else:
                seats.append(Seat("human", seat_name or ""))
        stored = StoredTable(
            id=secrets.token_urlsafe(6),
            game=game.name,
            config=game.config_json(),
            seed=secrets.randbits(62),
            seats=[asdict(s) for s in seats],
            timer=request.timer,
            status="playing",
            rematch=None,
            created=now(),
            actions=[],
            rated=request.rated,
            options=table_options(request),
        )
        await self._reserve(stored.id)
        await self.db.call(self.store.create_table, stored, what="creating a table")
        table = self._table(stored)
        self.tables[table.id] = table
        self._lists.clear()
        await self._adopt(table)
        seat, token = None, None
        if claim:
            async with table.lock:
                seat, token = await table.claim(None, creator, account)
        table.start()
        return table, seat, token

    @asynccontextmanager
    async def turn_slot(self, account: str | None, address: str) -> AsyncIterator[None]:
        """Room for one more seat at a turn-based table, held while it is taken (and noted
        with :meth:`count_turn_seat`): refused (``too_many_games``) to a person who holds as
        many as one may (:mod:`sakura.server.turns.bounds`)."""
        who = bounds.holder(account, address)
        async with self.turn_locks.hold(who[0] or who[1] or "?"):
            held = await self.db.call(bounds.count, self.store, *who, what="counting turn-based games")
            refused = bounds.refusal(self.limits, account, held)
            if refused is not None:
                raise refused
            yield

    async def count_turn_seat(self, table_id: str, seat: int, account: str | None, address: str) -> None:
        """A seat just taken at a turn-based table, counted for its player from now on."""
        who = bounds.holder(account, address)
        await self.db.call(bounds.note, self.store, table_id, seat, *who, what="counting a turn-based seat")

    async def _reserve(self, table_id: str) -> None:
        """A new table's id, before it is stored; and :meth:`_adopt`: the table, stored, before
        anyone may play it. Nothing to do for one process (many processes: its lease,
        :class:`~sakura.server.cluster.ClusterLobby`)."""

    async def _adopt(self, table: Table) -> None:
        pass

    def open_tables(self, page: int = 0) -> list[dict[str, Any]]:
        """Tables being played (open seats first): to join or to watch; one page of them."""

        def build() -> list[dict[str, Any]]:
            live = [t.info() for t in self.tables.values() if t.status != "finished"]
            live.sort(key=lambda t: not any(s["kind"] == "human" and not s["claimed"] for s in t["seats"]))
            return live

        everything: list[dict[str, Any]] = self.cached("open", 0, build)
        size = self.limits.lobby_page
        return everything[page * size : (page + 1) * size]

    def live_listing(self) -> dict[str, list[dict[str, Any]]]:
        """The lobby's lists of unfinished tables (:func:`sakura.server.listing.live`)."""
        from sakura.server import listing

        return listing.live(self.tables.values())

    async def finished_ids(self, page: int = 0) -> list[str]:
        """One page of finished games, newest first, from the database."""
        size = self.limits.lobby_page
        hit = self._fresh(("finished", page))
        if hit is not None:
            ids: list[str] = hit
            return ids
        ids = await self.db.call(self.store.finished_ids, size, page * size, what="listing finished games")
        self._keep(("finished", page), ids)
        return ids

    def cached(self, name: str, page: int, build: Any) -> Any:
        """``build()``, or what it gave less than ``lobby_cache_seconds`` ago."""
        hit = self._fresh((name, page))
        return hit if hit is not None else self._keep((name, page), build())

    def _fresh(self, key: tuple[str, int]) -> Any:
        hit = self._lists.get(key)
        if hit is not None and time.monotonic() - hit[0] < self.limits.lobby_cache_seconds:
            return hit[1]
        return None

    def _keep(self, key: tuple[str, int], value: Any) -> Any:
        """Remember ``value``, forgetting pages gone stale: a client walking every page
        number fills nothing for longer than the cache's lifetime."""
        now = time.monotonic()
        stale = [k for k, (stamp, _) in self._lists.items() if now - stamp >= self.limits.lobby_cache_seconds]
        for old in stale:
            del self._lists[old]
        self._lists[key] = (now, value)
        return value

    async def close_table(self, table: Table) -> None:
        """A moderator closed ``table`` (marked in the database): its players told, it stops
        and leaves the lists."""
        self.tables.pop(table.id, None)
        self._lists.clear()
        await table.closed_by_moderator()

    def clear_lists(self) -> None:
        """Forget the cached lists (a table closed, an account deleted: they changed)."""
        self._lists.clear()

    def sweep(self) -> int:
        """Forget finished tables nobody is on and nobody asked for lately (they stay stored);
        returns how many."""
        cutoff = time.monotonic() - self.limits.finished_linger
        gone = [
            t
            for t in self.tables.values()
            if t.status in ("finished", "closed") and not t.connections and t.idle_since < cutoff
        ]
        for table in gone:
            del self.tables[table.id]
        if gone:
            self._lists.clear()
        return len(gone)

    async def rematch(self, table: Table, requester: int | None) -> None:
        """After a finished game: one new table with the same seats; every seated player still
        connected gets, privately, a token for the same seat there."""
        if requester is None:
            raise TableError("only a seated player may ask for a rematch", "not_seated")
        if table.status != "finished":
            raise TableError("the game is not over yet", "not_finished")
        new: TableFront
        async with table.lock:
            if table.rematch_id is not None:
                new = await self.front(table.rematch_id)
            else:
                new = LocalTable(await self._rematch_table(table), self)
                await self.db.call(
                    self.store.update_table,
                    table.id,
                    rematch=new.id,
                    what=f"table {table.id}: storing its rematch",
                )  # stored, then remembered
                table.rematch_id = new.id
            claimed = [s["claimed"] for s in new.info()["seats"]]
            tokens: dict[int, str] = {}
            for conn in list(table.connections):
                seat = conn.seat
                if seat is None or table.seats[seat].kind != "human":
                    continue
                if seat not in tokens and not claimed[seat]:
                    was = table.seats[seat]
                    tokens[seat] = (await new.claim(seat, was.name or None, was.account))[1]
                    if "pace" in table.options:  # counted, not bounded: the game was theirs already
                        await self.count_turn_seat(new.id, seat, was.account, conn.address or "?")
                conn.push(protocol.rematch(new.id, tokens.get(seat), requester))
            table.broadcast_table()

    async def decline_rematch(self, table: Table, seat: int | None) -> None:
        """A seated player says no to the rematch offered: everyone at the table is told."""
        if seat is None:
            raise TableError("only a seated player may decline a rematch", "not_seated")
        if table.rematch_id is None:
            raise TableError("no rematch has been offered", "no_rematch")
        for conn in list(table.connections):
            conn.push(protocol.rematch_declined(seat))

    async def _rematch_table(self, table: Table) -> Table:
        """A new table like ``table``: the same game, options and seats, none claimed."""
        request = NewTable(
            game=table.game.name,
            players=table.game.num_players,
            variant=table.game.config_json().get("variant"),
            timer=None if "pace" in table.options else table.timer,
            pace=table.options.get("pace"),
            timeouts=table.options.get("timeouts", DEFAULT_TIMEOUTS),
            rated=table.rated,
            spectator_chat=table.options.get("spectator_chat", True),
            hints=table.options.get("hints", True),
            seats=[SeatRequest(kind=s.kind, level=s.level, name=s.name or None) for s in table.seats],
        )
        new, _, _ = await self.create(request, claim=False)
        return new
