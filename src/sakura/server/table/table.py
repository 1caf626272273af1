"""One table: a game being played, composed of parts with one job each.

* :class:`~.seats.Seating`: the seats, their tokens, the connections, who is here;
* :class:`~.commit.Commits`: the engine's states, the stored actions and the way an action is
  checked, stored and only then told (event sourcing: replayed at construction);
* :class:`~.bots.BotDriver`: the bots' moves, and a bot's for a player whose time ran out;
* :class:`~.clock.Clock`: the time each decision may take;
* :class:`~.outbox.Broadcast`: the messages to every connection, built once per viewer.

The table holds no rules. It asks the engine what is legal (by applying and catching its
errors) and sends every connection only ``state.view(seat)`` and the events as
``event.seen_by(seat)`` (spectators: ``None``). Everything that changes the game happens under
the table's ``lock``, one action at a time. Seat changes (a claim, a replacement, a player's
return) are stored through the :class:`~sakura.server.database.Database`'s worker threads, with
a deadline, and kept in memory only once stored.
"""

from __future__ import annotations

import asyncio
import functools
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import asdict, replace
from typing import Any

from sakura.engine import Game, State, make_game
from sakura.server import protocol
from sakura.server.database import Database
from sakura.server.db import GroupCommit, StoredTable
from sakura.server.deadlines import DeadlineWrite
from sakura.server.errors import TableError
from sakura.server.limits import Limits
from sakura.server.names import fold
from sakura.server.table.bots import BotDriver
from sakura.server.table.clock import Clock, TableClock
from sakura.server.table.commit import Commits, Stored
from sakura.server.table.outbox import Broadcast, Connection
from sakura.server.table.seats import Seat, Seating, bot_seats, hash_token, waiting_for_players

DAMAGED = (
    "this table is damaged (its stored game does not replay) and cannot be played; "
    "its record can still be downloaded"
)


CLOSED = "a moderator closed this table: the game ended without a result and is not rated"
HANDED = "your time ran out too often: a bot plays this seat for good"


@functools.lru_cache(maxsize=64)
def shared_game(name: str, config: str) -> Game[Any]:
    """The game of ``name`` with ``config`` (JSON), made once and shared by every table that
    plays it: a game is immutable, and making one per table was half the time of restoring
    10,000 tables (``benchmarks/turn_based.py``), and a part of each table's memory."""
    return make_game(name, json.loads(config))


class Table:
    """See the module docstring. Built by :class:`~sakura.server.lobby.Lobby`."""

    def __init__(
        self, stored: StoredTable, db: Database, writer: GroupCommit, limits: Limits | None = None
    ) -> None:
        self.id = stored.id
        self.db, self.store = db, db.store
        self.limits = limits or Limits()
        self.game: Game[Any] = shared_game(stored.game, json.dumps(stored.config, sort_keys=True))
        self.status = stored.status
        self.rematch_id = stored.rematch
        self.rated = stored.rated  # accounts only, rated at the end (ratings.py)
        self.options = dict(stored.options)  # {"spectator_chat": False}: the table's choices
        self.created = stored.created
        self.seating = Seating(
            [Seat(**s) for s in stored.seats],
            grace=self.limits.replace_grace,
            since=stored.created.timestamp(),
        )
        self.commits = Commits(stored.id, self.game, stored, writer)
        if self.commits.damaged is not None:
            self.status = "damaged"
        self.bots = BotDriver(self)
        self.clock: TableClock = Clock(stored.timer, self.bots.timeout)  # runs out: a bot plays for them
        self.broadcast = Broadcast()
        self.lock = asyncio.Lock()
        self.replay_cache: list[dict[str, Any]] | None = None  # a finished game's replay, once built
        self.finished_listeners: list[Callable[[Table], None]] = []
        self.decision_listeners: list[Callable[[Table], None]] = []  # told after each arm_clock

    # ---------------------------------------------------------------- the parts' facts, read often

    @property
    def seats(self) -> list[Seat]:
        return self.seating.seats

    @property
    def connections(self) -> set[Connection]:
        return self.seating.connections

    @property
    def state(self) -> State[Any]:
        """The state of the stored actions (what clients have been told)."""
        return self.commits.state

    @property
    def seq(self) -> int:
        return self.commits.seq

    @property
    def damaged(self) -> str | None:
        return self.commits.damaged

    @property
    def timer(self) -> float | None:
        return self.clock.seconds

    @property
    def deadline(self) -> float | None:
        return self.clock.deadline

    @property
    def last_seen(self) -> float:
        return self.seating.last_seen

    @last_seen.setter
    def last_seen(self, value: float) -> None:
        self.seating.last_seen = value

    @property
    def idle_since(self) -> float:
        return self.seating.idle_since

    @property
    def lease(self) -> int | None:
        """The lease this process owns the table under (many processes), or None."""
        return self.commits.lease

    @lease.setter
    def lease(self, value: int | None) -> None:
        self.commits.lease = value

    def watch_clock(self, listener: Callable[[Table], None] | None) -> None:
        """Tell ``listener`` each time the clock's deadline changes (many processes: the owner
        stores it, :mod:`sakura.server.cluster.owner`); None: tell no one."""
        self.clock.on_change = None if listener is None else lambda: listener(self)

    # ---------------------------------------------------------------- seats and connections

    def _refuse_if_damaged(self) -> None:
        if self.damaged is not None:
            raise TableError(DAMAGED, "damaged")
        if self.status == "closed":
            raise TableError(CLOSED, "closed")

    async def claim(self, seat: int | None, name: str | None, account: str | None = None) -> tuple[int, str]:
        """Give a free human seat (the first one if ``seat`` is None) a new secret token, bound
        to ``account`` if the player is logged in. Call under the table's lock."""
        self._refuse_if_damaged()
        seat = self.seating.claimable(seat, account, rated=self.rated)
        token = secrets.token_urlsafe(24)
        named = name or self.seats[seat].name or (account or "")
        others = [s.name for i, s in enumerate(self.seats) if i != seat and s.name]
        if named and fold(named) in {fold(n) for n in others}:
            raise TableError(
                f"another seat at this table is called {named!r}, or looks like it", "name_taken"
            )
        await self.change_seat(
            seat, replace(self.seats[seat], token_hash=hash_token(token), name=named, account=account)
        )
        self.seating.seen(seat)
        self.arm_clock()  # the clock starts once every human seat is taken
        self.broadcast_table()
        return seat, token

    def info(self) -> dict[str, Any]:
        """Public facts about the table (no token, no seed)."""
        info = {
            "id": self.id,
            "game": self.game.name,
            "players": self.game.num_players,
            "variant": self.game.config_json().get("variant"),
            "timer": self.timer,
            "status": self.status,
            "seats": self.seating.public(playing=self.status == "playing"),
            "rematch": self.rematch_id,
            "seq": self.seq,
            "round": self.state.progress().round,
            "rated": self.rated,
            "spectator_chat": self.options.get("spectator_chat", True),
        }
        if self.damaged is not None:
            info["damaged"] = True
        if "unrated" in self.options:  # a rated table whose accounts did not rate each other (farm.py)
            info["unrated"] = self.options["unrated"]
        if "pace" in self.options:  # turn-based (turns/pace.py): a move's time, the timeouts allowed
            info["pace"], info["timeouts"], info["timer"] = (
                self.options["pace"],
                self.options.get("timeouts"),
                None,
            )
        # "Suggest" may be asked for unless the creator turned it off; never at a rated table
        info["hints"] = self.options.get("hints", True) and not info.get("rated", False)
        return info

    async def join(self, conn: Connection, token: str | None, account: str | None = None) -> None:
        """Attach a connection (after its hello) and send it the whole situation. Without a
        token, a logged-in ``account`` gets its own seat back (from any browser)."""
        async with self.lock:
            seat = self.seating.seat_of(token)
            if seat is None and account is not None:
                seat = self.seating.seat_of_account(account)
            if len(self.connections) >= self.limits.connections_per_table:
                raise TableError(
                    f"this table has as many connections as it takes "
                    f"({self.limits.connections_per_table}); try again later",
                    "full",
                )
            if seat is not None and self.seats[seat].replaced and not self.seats[seat].handed:  # back
                await self.change_seat(seat, replace(self.seats[seat], replaced=False))
            conn.seat = seat
            self.seating.arrive(conn)
            welcome = protocol.welcome(
                self.info(), seat, self.seq, self.state.view(seat).to_json(), deadline=self.deadline
            )
            welcome["history"] = self.history_for(seat)
            conn.push(welcome)
            self.broadcast_table()

    def history_for(self, viewer: int | None) -> list[dict[str, Any]]:
        return self.commits.past(viewer)

    async def leave(self, conn: Connection) -> None:
        async with self.lock:
            self.seating.depart(conn)
            self.broadcast_table()

    def broadcast_table(self) -> None:
        """Tell everyone who is seated and present, if that changed since it was last told."""
        self.broadcast.presence(self.info(), self.connections)

    async def change_seat(self, seat: int, changed: Seat) -> None:
        """Store the seats with ``seat`` changed, then change it in memory (so a failed write
        changes nothing). Under the table's lock. A change that starts or stops the clock of a
        turn-based table (the last free seat claimed, the last player due handed to the bot)
        stores its deadline in the same transaction, and arms the clock with it."""
        seats = [changed if i == seat else s for i, s in enumerate(self.seats)]
        planned = self.clock.plan(self._clock_runs(self.state, seats), self.state.progress(), None)
        await self.db.call(
            self.store.update_table,
            self.id,
            planned,
            seats=[asdict(s) for s in seats],
            what=f"table {self.id}: storing its seats",
        )
        self.seating.seats = seats
        if planned is not None:
            self.arm_clock(planned=planned)

    # ---------------------------------------------------------------- playing

    async def act(self, seat: int | None, text: str, by: str = "player") -> None:
        """Apply ``text`` for ``seat``; the engine's error (and nothing else) if it is illegal,
        a ``storage`` error (and nothing changed) if the database could not store it."""
        if seat is None:
            raise TableError("spectators cannot act; take a seat to play", "not_seated")
        self._refuse_if_damaged()
        if by == "player" and self.seats[seat].handed:
            raise TableError(HANDED, "handed")
        async with self.lock:
            if by == "player" and self.seats[seat].replaced:
                await self.change_seat(seat, replace(self.seats[seat], replaced=False))
                self.broadcast_table()
            stored = self.apply(seat, text, by)
        await self.commits.wait(stored)
        self.bots.kick()

    def apply(self, seat: int, text: str, by: str) -> asyncio.Future[None]:
        """Under the lock: the action on the commit path (with the deadline it leaves, for a
        turn-based table); once stored, everyone is told."""
        return self.commits.apply(seat, text, by, self._told, self._plan)

    def _plan(self, before: State[Any], after: State[Any]) -> DeadlineWrite | None:
        runs = self._clock_runs(after, self.seats)
        return self.clock.plan(runs, after.progress(), before.progress())

    def _told(self, done: Stored) -> None:
        """An action is stored: the game may be over, the clock starts again, everyone hears."""
        if done.finished:
            self.status = "finished"
        self.arm_clock(planned=done.deadline)
        self.broadcast.update(self.connections, self.state, self.seq, done, deadline=self.deadline)
        if done.finished:
            for listener in self.finished_listeners:
                listener(self)

    async def replace(self, requester: int | None, seat: int) -> None:
        """A seated player asks a bot to play for ``seat``, whose player has left."""
        if not self.clock.replaces_absent:
            raise TableError(
                "at a turn-based table a player may be away until their deadline; "
                "then a bot plays that move for them",
                "turn_based",
            )
        async with self.lock:
            changed = self.seating.replacement(
                requester, seat, rated=self.rated, playing=self.status == "playing"
            )
            await self.change_seat(seat, changed)
            self.broadcast_table()
        self.bots.kick()

    # ---------------------------------------------------------------- the clock and the bots

    def arm_clock(self, seconds: float | None = None, planned: DeadlineWrite | None = None) -> None:
        """Per decision: when it runs out, a bot plays for each human seat still due.
        ``planned``: the deadline row the write just stored left (turn-based tables)."""
        self.clock.arm(self._clock_runs(self.state, self.seats), seconds, planned)
        for listener in self.decision_listeners:  # notifications (server/notify): a decision may begin
            listener(self)

    @staticmethod
    def _clock_runs(state: State[Any], seats: list[Seat]) -> bool:
        """Whether a clock runs in ``state`` with ``seats``: a game under way, every seat
        taken, a player (not a bot) due."""
        bots = bot_seats(seats)
        humans_due = [s for s in state.current_players() if s not in bots]
        return not state.is_terminal() and not waiting_for_players(seats) and bool(humans_due)

    def resume_clock(self, deadline: float) -> None:
        """After a failover: a running clock goes on to the ``deadline`` (``time.time()``) the
        previous owner had set, rather than starting again in full."""
        if self.deadline is not None and not self.clock.keeps_deadline:
            self.arm_clock(max(0.0, deadline - time.time()))

    def start(self) -> None:
        """After loading or creating: arm the clock and let the bots move."""
        if self.damaged is not None:
            return
        self.arm_clock()
        self.bots.kick()

    async def close(self) -> None:
        self.clock.close()
        await self.bots.close()

    async def closed_by_moderator(self) -> None:
        """A moderator closed the table (already marked in the database): no more moves, no
        result, no rating; everyone at it is told, then its clock and bots stop."""
        async with self.lock:
            self.status = "closed"
            for conn in self.connections:
                conn.push({"type": "closed", "message": CLOSED})
            self.broadcast_table()
        await self.close()
