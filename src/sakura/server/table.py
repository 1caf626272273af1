"""One table: the engine state of a game, its seats, its connections, its bots and its timer.

The table holds no rules. It asks the engine what is legal (by applying and catching its
errors), stores each accepted action before telling anyone, and sends every connection only
``state.view(seat)`` and the events as ``event.seen_by(seat)`` (spectators: ``None``).
Everything that changes the game happens under the table's lock, one action at a time.

Two states are kept. ``head`` has every accepted action: the next action is checked and
applied (under the lock) to a clone of it, which becomes the new head, and the action is
queued for the database (:class:`~sakura.server.db.GroupCommit`). ``state`` has the stored
actions only: once the action's transaction commits, its clone becomes ``state`` and only then
do clients hear of it. So a table does not wait for one action's commit to accept the next
(four players choosing at once are stored together), and clients never see an action the
database does not hold. If the write fails, the head falls back to ``state`` (and the actions
queued on top of the failed one fail too): the player gets an ``error`` (code ``storage``) and
the table is exactly as it was, in memory and on disk alike, ready for the next try.

Each message is built and serialized once per viewer (a seat or the spectators) and the same
text is queued to all of that viewer's connections. The ``table`` message (who is seated and
present) goes out only when what it says changes: a spectator coming or going changes nothing
of it, so a thousand watchers cost a thousand welcomes, not half a million broadcasts.

Seat changes (a claim, a replacement, a player's return) are stored through the
:class:`~sakura.server.database.Database`'s worker threads, with a deadline, and applied in
memory only once stored. A seat whose player has gone may be handed to a bot only after it has
been empty for ``Limits.replace_grace`` seconds (everyone is told when: ``replace_after``), so a
page reload never costs anyone their seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from typing import Any

from sakura.bots import Bot, BotError, make_bot
from sakura.engine import Event, Game, GameError, State, make_game
from sakura.server import history, protocol
from sakura.server.database import Database, one_line
from sakura.server.db import ActionWrite, GroupCommit, StoredTable
from sakura.server.errors import TableError
from sakura.server.limits import Limits, TokenBucket

log = logging.getLogger("sakura.server")

FALLBACK_BOT = "greedy"  # plays for a timed-out or absent player: quick and sensible
STORAGE_RETRY = 1.0  # seconds before a bot or the timer tries again after a failed write

__all__ = ["Connection", "Seat", "Table", "TableError", "hash_token"]


def hash_token(token: str) -> str:
    """Tokens are stored hashed: the database alone never lets anyone act for a seat."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(slots=True)
class Seat:
    kind: str  # "human" | "bot"
    name: str = ""  # chosen by the player; empty: the client names the seat from its catalog
    bot: str | None = None  # the bot's spec for a bot seat
    level: str | None = None  # the bot's strength as the lobby names it
    token_hash: str | None = None  # set once a human has claimed the seat
    replaced: bool = False  # a human seat a bot plays for now (the player left)
    account: str | None = None  # the username of the account the seat is bound to (accounts.py)
    forfeit: bool = False  # at a rated table: a bot took over, so the player ranks last (ratings.py)

    def public(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "level": self.level,
            "claimed": self.token_hash is not None,
            "replaced": self.replaced,
            "account": self.account,
        }


class Connection:
    """One client socket: its seat (or ``None``) and an outbox of serialized messages drained
    by its own writer task, so a slow client never holds up the table.

    The outbox is bounded (``Limits.outbox_messages`` and ``outbox_bytes``, in characters of
    JSON, nearly all ASCII): a client that stops reading falls behind, is marked ``behind`` and
    gets dropped by its handler instead of growing the server's memory without end. Its
    messages are rate-limited too (``allow``)."""

    def __init__(
        self, send: Callable[[str], Any], *, address: str = "", limits: Limits | None = None
    ) -> None:
        self.seat: int | None = None
        self.address = address
        self.limits = limits or Limits()
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.queued = 0  # characters in the outbox
        self.behind = False  # the outbox overflowed: the socket is being dropped
        self.bucket = TokenBucket(self.limits.messages_per_second, self.limits.message_burst)
        self.refused = 0  # messages refused in a row by the rate limit
        self.on_behind: Callable[[], None] | None = None  # the handler's: drop the socket
        self.on_close: Callable[[int, str], None] | None = None  # the handler's: close (code, reason)
        self._send = send

    def push(self, message: dict[str, Any]) -> None:
        self.push_text(protocol.dumps(message))

    def push_text(self, text: str) -> None:
        """Queue a message already serialized (shared by every connection of one viewer)."""
        if self.behind:
            return
        full = self.outbox.qsize() >= self.limits.outbox_messages
        if full or self.queued + len(text) > self.limits.outbox_bytes:
            log.warning(
                "dropping a connection from %s: it does not read its messages (%d queued)",
                self.address or "?",
                self.outbox.qsize(),
            )
            self.behind = True
            if self.on_behind is not None:
                self.on_behind()
            return
        self.queued += len(text)
        self.outbox.put_nowait(text)

    def allow(self) -> bool:
        """Take one message from the rate limit: False when this one must be refused."""
        if self.bucket.take():
            self.refused = 0
            return True
        self.refused += 1
        return False

    def close(self, code: int = 1012, reason: str = "the table moved to another server process") -> None:
        """Close the socket (the page reconnects): its table moved (:mod:`sakura.server.cluster`)."""
        if self.on_close is not None:
            self.on_close(code, reason)

    def finish(self) -> None:
        """No more messages: the writer stops after what is queued."""
        self.outbox.put_nowait(None)

    async def writer(self) -> None:
        while (text := await self.outbox.get()) is not None:
            self.queued -= len(text)
            await self._send(text)


class Table:
    """See the module docstring. Built by :class:`~sakura.server.lobby.Lobby`."""

    def __init__(
        self, stored: StoredTable, db: Database, writer: GroupCommit, limits: Limits | None = None
    ) -> None:
        self.id = stored.id
        self.db = db
        self.store = db.store
        self.limits = limits or Limits()
        self.writer = writer  # the lobby's: actions of every table, committed in groups
        self.seed = stored.seed  # never leaves the server
        self.game: Game[Any] = make_game(stored.game, stored.config)
        self.state: State[Any] = self.game.new_initial_state(stored.seed)
        self.seats = [Seat(**s) for s in stored.seats]
        self.timer = stored.timer
        self.status = stored.status
        self.rematch_id = stored.rematch
        self.rated = stored.rated  # accounts only, rated at the end (ratings.py)
        self.options = dict(stored.options)  # {"spectator_chat": False}: the table's choices
        self.created = stored.created
        self.last_seen = stored.created.timestamp()  # the last time anyone was connected
        self.seq = 0
        self.damaged: str | None = None  # why its stored actions do not replay, if they do not
        for seat, text in stored.actions:  # event sourcing: replay through the engine
            try:
                self.state.apply_action(seat, self.game.parse_action(text))
            except (GameError, ValueError, IndexError) as exc:
                self.damaged = (
                    f"stored action {self.seq + 1} ({text!r} by seat {seat + 1}) does not replay: {exc}"
                )
                self.status = "damaged"
                break
            self.seq += 1
        self.actions: list[tuple[int, str]] = list(
            stored.actions[: self.seq]
        )  # stored, replayed: for history
        # the indexes of those actions a bot made when a player's time ran out
        self.timed: set[int] = {i for i, by in enumerate(stored.actors[: self.seq]) if by == "timer"}
        self._history: dict[int | None, tuple[int, list[dict[str, Any]]]] = {}  # viewer -> (seq, past)
        now = time.time()
        # when each seat's player was last seen (a claimed seat nobody is on: since start-up)
        self.absent_since: dict[int, float] = {i: now for i, s in enumerate(self.seats) if s.kind == "human"}
        self.idle_since = time.monotonic()  # last time the table had no connection left
        self._presence = ""  # the last table message sent, to send it only when it changes
        self.replay_cache: list[dict[str, Any]] | None = None  # a finished game's replay, once built
        # every accepted action, stored or on its way: never changed in place, so it may share
        self.head, self.head_seq = self.state, self.seq
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self._bots: dict[tuple[int, str], Bot] = {}
        self._driver: asyncio.Task[None] | None = None
        self._timer_handle: asyncio.TimerHandle | None = None
        self.deadline: float | None = None  # wall-clock time of the timer's end (time.time())
        self.finished_listeners: list[Callable[[Table], None]] = []
        self.lease: int | None = None  # the lease this process owns the table under (many processes)
        self.on_timer: Callable[[Table], None] | None = None  # told each time the deadline changes

    # ---------------------------------------------------------------- seats and connections

    def seat_of(self, token: str | None) -> int | None:
        if not token:
            return None
        digest = hash_token(token)
        for i, seat in enumerate(self.seats):
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                return i
        raise TableError("this token opens no seat at this table", "bad_token")

    def _refuse_if_damaged(self) -> None:
        if self.damaged is not None:
            raise TableError(
                "this table is damaged (its stored game does not replay) and cannot be played; "
                "its record can still be downloaded",
                "damaged",
            )

    async def claim(self, seat: int | None, name: str | None, account: str | None = None) -> tuple[int, str]:
        """Give a free human seat (the first one if ``seat`` is None) a new secret token, bound
        to ``account`` if the player is logged in. Call under the table's lock."""
        self._refuse_if_damaged()
        if self.rated and account is None:
            raise TableError("a rated table is for accounts: log in to take a seat", "login_required")
        if self.rated and any(s.account == account for s in self.seats):
            raise TableError("you already have a seat at this rated table", "no_seat")
        free = [i for i, s in enumerate(self.seats) if s.kind == "human" and s.token_hash is None]
        if seat is None:
            if not free:
                raise TableError("no free seat at this table", "no_seat")
            seat = free[0]
        if seat not in free:
            raise TableError(f"seat {seat + 1} is not free", "no_seat")
        token = secrets.token_urlsafe(24)
        named = name or self.seats[seat].name or (account or "")
        changed = replace(self.seats[seat], token_hash=hash_token(token), name=named, account=account)
        await self._change_seat(seat, changed)
        self.absent_since[seat] = time.time()
        self._arm_timer()  # the clock starts once every human seat is taken
        self.broadcast_table()
        return seat, token

    def connected(self) -> list[bool]:
        on = [False] * len(self.seats)
        for c in self.connections:
            if c.seat is not None:
                on[c.seat] = True
        return on

    def replace_after(self, seat: int, on: list[bool] | None = None) -> float | None:
        """When (``time.time()``) a bot may take over ``seat``: None while its player is here,
        for a bot's seat, an unclaimed one, or one a bot already plays."""
        s = self.seats[seat]
        if s.kind != "human" or s.token_hash is None or s.replaced or self.status != "playing":
            return None
        if (on or self.connected())[seat]:
            return None
        return self.absent_since.get(seat, 0.0) + self.limits.replace_grace

    def info(self) -> dict[str, Any]:
        """Public facts about the table (no token, no seed)."""
        on = self.connected()
        seats = [
            dict(s.public(), connected=on[i] or s.kind == "bot", replace_after=self.replace_after(i, on))
            for i, s in enumerate(self.seats)
        ]
        info = {
            "id": self.id,
            "game": self.game.name,
            "players": self.game.num_players,
            "variant": self.game.config_json().get("variant"),
            "timer": self.timer,
            "status": self.status,
            "seats": seats,
            "rematch": self.rematch_id,
            "seq": self.seq,
            "round": getattr(self.state, "round", None),
            "rated": self.rated,
            "spectator_chat": self.options.get("spectator_chat", True),
        }
        if self.damaged is not None:
            info["damaged"] = True
        # "Suggest" may be asked for unless the creator turned it off; never at a rated table
        info["hints"] = self.options.get("hints", True) and not info.get("rated", False)
        return info

    async def join(self, conn: Connection, token: str | None, account: str | None = None) -> None:
        """Attach a connection (after its hello) and send it the whole situation. Without a
        token, a logged-in ``account`` gets its own seat back (from any browser)."""
        async with self.lock:
            seat = self.seat_of(token)
            if seat is None and account is not None:
                seat = next((i for i, s in enumerate(self.seats) if s.account == account), None)
            if len(self.connections) >= self.limits.connections_per_table:
                raise TableError(
                    f"this table has as many connections as it takes "
                    f"({self.limits.connections_per_table}); try again later",
                    "full",
                )
            if seat is not None and self.seats[seat].replaced:  # the player is back
                await self._change_seat(seat, replace(self.seats[seat], replaced=False))
            conn.seat = seat
            self.connections.add(conn)
            self.last_seen = time.time()
            welcome = protocol.welcome(
                self.info(), seat, self.seq, self.state.view(seat).to_json(), deadline=self.deadline
            )
            welcome["history"] = self.history_for(seat)
            conn.push(welcome)
            self.broadcast_table()

    def history_for(self, viewer: int | None) -> list[dict[str, Any]]:
        """The table's past as ``viewer`` sees it, replayed once per viewer and action (a
        thousand spectators arriving share one replay)."""
        hit = self._history.get(viewer)
        if hit is None or hit[0] != self.seq:
            hit = self._history[viewer] = (
                self.seq,
                history.past(self.game, self.seed, self.actions, viewer, self.timed),
            )
        return hit[1]

    async def leave(self, conn: Connection) -> None:
        async with self.lock:
            self.connections.discard(conn)
            self.last_seen = time.time()
            if conn.seat is not None and not self.connected()[conn.seat]:
                self.absent_since[conn.seat] = time.time()
            if not self.connections:
                self.idle_since = time.monotonic()
            self.broadcast_table()

    def broadcast_table(self) -> None:
        """Tell everyone who is seated and present, if that changed since it was last told."""
        info = self.info()
        presence = protocol.dumps({k: info[k] for k in ("seats", "status", "rematch")})
        if presence == self._presence:
            return
        self._presence = presence
        text = protocol.dumps(protocol.table_info(info))
        for c in self.connections:
            c.push_text(text)

    # ---------------------------------------------------------------- playing

    async def act(self, seat: int | None, text: str, by: str = "player") -> None:
        """Apply ``text`` for ``seat``; the engine's error (and nothing else) if it is illegal,
        a ``storage`` error (and nothing changed) if the database could not store it."""
        if seat is None:
            raise TableError("spectators cannot act; take a seat to play", "not_seated")
        self._refuse_if_damaged()
        async with self.lock:
            if by == "player" and self.seats[seat].replaced:
                await self._change_seat(seat, replace(self.seats[seat], replaced=False))
                self.broadcast_table()
            stored = self._apply(seat, text, by)
        await self._stored(stored)
        self.kick()

    def _apply(self, seat: int, text: str, by: str) -> asyncio.Future[None]:
        """Under the lock: the engine on a clone of the head (it raises before changing
        anything); the clone becomes the head and the action is queued for the database. The
        returned future ends when it is stored (and the clients told) or could not be."""
        try:
            action = self.game.parse_action(text)
            state = self.head.clone()
            events = state.apply_action(seat, action)
        except GameError as exc:
            raise TableError(str(exc), "illegal") from None
        seq = self.head_seq + 1
        finished = state.is_terminal() and not self.head.is_terminal()
        self.head, self.head_seq = state, seq

        def done(error: BaseException | None) -> None:  # called in order, on the event loop
            if error is not None:
                log.error("table %s: could not store action %d: %s", self.id, seq, one_line(error))
                self.head, self.head_seq = self.state, self.seq  # back to what is stored
                return
            self.state, self.seq = state, seq
            self.actions.append((seat, str(action)))
            if by == "timer":
                self.timed.add(len(self.actions) - 1)
            if finished:
                self.status = "finished"
            self._arm_timer()
            self._send_update(seat, str(action), by, events)
            if finished:
                for listener in self.finished_listeners:
                    listener(self)

        write = ActionWrite(self.id, seq, seat, str(action), by, finished, self.lease)
        return self.writer.submit(write, done)

    @staticmethod
    async def _stored(stored: asyncio.Future[None]) -> None:
        try:
            await stored
        except Exception:
            raise TableError(
                "the server could not save this move, so it did not happen; please try again", "storage"
            ) from None

    def _send_update(self, seat: int, action: str, by: str, events: list[Event]) -> None:
        """Build and serialize the update once per viewer (a seat, or the spectators), then queue
        the same text to each of that viewer's connections."""
        texts: dict[int | None, str] = {}
        public: dict[int, dict[str, Any]] = {}  # events every viewer sees alike: converted once
        for c in self.connections:
            viewer = c.seat
            text = texts.get(viewer)
            if text is None:
                text = texts[viewer] = protocol.dumps(
                    protocol.update(
                        self.seq,
                        seat,
                        action=action if viewer == seat else None,
                        by=by,
                        events=_seen(events, viewer, public),
                        view=self.state.view(viewer).to_json(),
                        deadline=self.deadline,
                    )
                )
            c.push_text(text)

    async def replace(self, requester: int | None, seat: int) -> None:
        """A seated player asks a bot to play for ``seat``, whose player has left."""
        async with self.lock:
            if requester is None:
                raise TableError("only a seated player may ask for a replacement", "not_seated")
            if not 0 <= seat < len(self.seats) or self.seats[seat].kind != "human":
                raise TableError(f"seat {seat + 1} is not a player's seat", "bad_seat")
            if self.connected()[seat]:
                raise TableError(f"seat {seat + 1}'s player is here", "bad_seat")
            if self.seats[seat].token_hash is None:
                raise TableError(
                    f"seat {seat + 1} has not been taken yet: its player may still join", "bad_seat"
                )
            if self.seats[seat].replaced:
                raise TableError(f"a bot already plays for seat {seat + 1}", "bad_seat")
            after = self.replace_after(seat)
            if after is not None and (wait := after - time.time()) > 0:
                raise TableError(
                    f"seat {seat + 1}'s player left only a moment ago; a bot may take over in "
                    f"{wait:.0f} s if they are not back",
                    "grace",
                    retry_after=wait,
                )
            await self._change_seat(
                seat, replace(self.seats[seat], replaced=True, forfeit=self.seats[seat].forfeit or self.rated)
            )
            self.broadcast_table()
        self.kick()

    async def _change_seat(self, seat: int, changed: Seat) -> None:
        """Store the seats with ``seat`` changed, then change it in memory (so a failed write
        changes nothing). Under the table's lock."""
        seats = [changed if i == seat else s for i, s in enumerate(self.seats)]
        await self.db.call(
            self.store.update_table,
            self.id,
            seats=[asdict(s) for s in seats],
            what=f"table {self.id}: storing its seats",
        )
        self.seats = seats

    # ---------------------------------------------------------------- bots and the timer

    def bot_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == "bot" or s.replaced]

    def kick(self) -> None:
        """Let the bots play whatever is theirs to play (one driver task at a time)."""
        if not any(s.kind == "bot" or s.replaced for s in self.seats):  # no task for humans only
            return
        if self._driver is None or self._driver.done():
            self._driver = asyncio.get_running_loop().create_task(self._drive())

    async def _drive(self) -> None:
        while True:
            async with self.lock:
                due = [s for s in self.head.current_players() if s in self.bot_seats()]
                if not due:
                    return
                seat = due[0]
                spec = self.seats[seat].bot or FALLBACK_BOT
                view = self.head.view(seat)
                seq = self.head_seq
            bot = self._bot(seat, spec)
            if spec.startswith("mcts"):  # a search: keep the event loop free
                action = await asyncio.to_thread(bot.act, view)
            else:
                action = bot.act(view)
            async with self.lock:
                if self.head_seq != seq and seat not in self.head.current_players():
                    continue
                try:
                    stored = self._apply(seat, str(action), "bot")
                except TableError:  # the situation moved on while the bot thought
                    continue
            try:
                await self._stored(stored)
            except TableError:  # the database is failing: try again a little later
                await asyncio.sleep(STORAGE_RETRY)
            await asyncio.sleep(0)

    def _bot(self, seat: int, spec: str) -> Bot:
        key = (seat, spec)
        if key not in self._bots:
            try:
                self._bots[key] = make_bot(spec, self.game, secrets.randbits(32))
            except BotError:
                log.exception("table %s: bad bot spec %r; using %s", self.id, spec, FALLBACK_BOT)
                self._bots[key] = make_bot(FALLBACK_BOT, self.game, secrets.randbits(32))
        return self._bots[key]

    def _arm_timer(self, seconds: float | None = None) -> None:
        """Per decision: when it runs out, a bot plays for each human seat still due."""
        if self._timer_handle is not None:
            self._timer_handle.cancel()
            self._timer_handle = None
        self.deadline = None
        if self.on_timer is not None:
            self.on_timer(self)
        if not self.timer or self.state.is_terminal() or self.waiting_for_players():
            return
        bots = self.bot_seats()
        if not [s for s in self.state.current_players() if s not in bots]:
            return
        wait = self.timer if seconds is None else seconds
        self.deadline = time.time() + wait
        if self.on_timer is not None:
            self.on_timer(self)
        loop = asyncio.get_running_loop()
        self._timer_handle = loop.call_later(wait, lambda: loop.create_task(self._timeout()))

    def resume_clock(self, deadline: float) -> None:
        """After a failover: a running clock goes on to the ``deadline`` (``time.time()``) the
        previous owner had set, rather than starting again in full."""
        if self.deadline is not None:
            self._arm_timer(max(0.0, deadline - time.time()))

    def waiting_for_players(self) -> bool:
        """An invited seat nobody has taken yet: no clock runs (a bot would play for them)."""
        return any(s.kind == "human" and s.token_hash is None for s in self.seats)

    def start(self) -> None:
        """After loading or creating: arm the timer and let the bots move."""
        if self.damaged is not None:
            return
        self._arm_timer()
        self.kick()

    async def _timeout(self) -> None:
        async with self.lock:
            bots = self.bot_seats()
            due = [s for s in self.head.current_players() if s not in bots]
            writes = []
            for seat in due:
                if seat not in self.head.current_players():
                    continue
                action = self._bot(seat, FALLBACK_BOT).act(self.head.view(seat))
                writes.append(self._apply(seat, str(action), "timer"))
        try:
            for stored in writes:
                await self._stored(stored)
        except TableError:  # not stored: the timer runs again and retries
            self._arm_timer(STORAGE_RETRY)
        self.kick()

    async def close(self) -> None:
        if self._timer_handle is not None:
            self._timer_handle.cancel()
        if self._driver is not None:
            self._driver.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._driver


def _seen(events: list[Event], viewer: int | None, public: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    """The events as ``viewer`` may see them; those that hide nothing (``seen_by`` gives the event
    itself) are converted once, in ``public`` by position, for every viewer."""
    out = []
    for i, event in enumerate(events):
        seen = event.seen_by(viewer)
        if seen is not event:
            out.append(seen.to_dict())
        elif (plain := public.get(i)) is not None:
            out.append(plain)
        else:
            out.append(public.setdefault(i, event.to_dict()))
    return out
