"""One table: the engine state of a game, its seats, its connections, its bots and its timer.

The table holds no rules. It asks the engine what is legal (by applying and catching its
errors), stores each accepted action before telling anyone, and sends every connection only
``state.view(seat)`` and the events as ``event.seen_by(seat)`` (spectators: ``None``).
Everything that changes the game happens under the table's lock, one action at a time.
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
from dataclasses import asdict, dataclass
from typing import Any

from sakura.bots import Bot, BotError, make_bot
from sakura.engine import Event, GameError, make_game
from sakura.engine.games.sakura import SakuraGame, SakuraState
from sakura.server import protocol
from sakura.server.db import Store, StoredTable

log = logging.getLogger("sakura.server")

FALLBACK_BOT = "greedy"  # plays for a timed-out or absent player: quick and sensible


class TableError(ValueError):
    """A request a client may not make now (not seated, seat taken, ...); changes nothing."""

    def __init__(self, message: str, code: str = "refused") -> None:
        super().__init__(message)
        self.code = code


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

    def public(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "level": self.level,
                "claimed": self.token_hash is not None, "replaced": self.replaced}


class Connection:
    """One client socket: its seat (or ``None``) and an outbox drained by its own writer task,
    so a slow client never holds up the table."""

    def __init__(self, send: Callable[[dict[str, Any]], Any]) -> None:
        self.seat: int | None = None
        self.outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self._send = send

    def push(self, message: dict[str, Any]) -> None:
        self.outbox.put_nowait(message)

    async def writer(self) -> None:
        while (message := await self.outbox.get()) is not None:
            await self._send(message)


class Table:
    """See the module docstring. Built by :class:`~sakura.server.lobby.Lobby`."""

    def __init__(self, stored: StoredTable, store: Store) -> None:
        self.id = stored.id
        self.store = store
        self.seed = stored.seed  # never leaves the server
        self.game: SakuraGame = make_game("sakura", stored.config)  # type: ignore[assignment]
        self.state: SakuraState = self.game.new_initial_state(stored.seed)
        self.seats = [Seat(**s) for s in stored.seats]
        self.timer = stored.timer
        self.status = stored.status
        self.rematch_id = stored.rematch
        self.created = stored.created
        self.seq = 0
        for seat, text in stored.actions:  # event sourcing: replay through the engine
            self.state.apply_action(seat, self.game.parse_action(text))
            self.seq += 1
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self._bots: dict[tuple[int, str], Bot] = {}
        self._driver: asyncio.Task[None] | None = None
        self._timer_handle: asyncio.TimerHandle | None = None
        self.deadline: float | None = None  # wall-clock time of the timer's end (time.time())
        self.finished_listeners: list[Callable[[Table], None]] = []

    # ---------------------------------------------------------------- seats and connections

    def seat_of(self, token: str | None) -> int | None:
        if not token:
            return None
        digest = hash_token(token)
        for i, seat in enumerate(self.seats):
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                return i
        raise TableError("this token opens no seat at this table", "bad_token")

    def claim(self, seat: int | None, name: str | None) -> tuple[int, str]:
        """Give a free human seat (the first one if ``seat`` is None) a new secret token."""
        free = [i for i, s in enumerate(self.seats) if s.kind == "human" and s.token_hash is None]
        if seat is None:
            if not free:
                raise TableError("no free seat at this table", "no_seat")
            seat = free[0]
        if seat not in free:
            raise TableError(f"seat {seat + 1} is not free", "no_seat")
        token = secrets.token_urlsafe(24)
        self.seats[seat].token_hash = hash_token(token)
        if name:
            self.seats[seat].name = name
        self._save_seats()
        self.broadcast_table()
        return seat, token

    def connected(self) -> list[bool]:
        on = [False] * len(self.seats)
        for c in self.connections:
            if c.seat is not None:
                on[c.seat] = True
        return on

    def info(self) -> dict[str, Any]:
        """Public facts about the table (no token, no seed)."""
        on = self.connected()
        seats = [dict(s.public(), connected=on[i] or s.kind == "bot") for i, s in enumerate(self.seats)]
        return {"id": self.id, "players": self.game.players, "variant": self.game.variant,
                "timer": self.timer, "status": self.status, "seats": seats, "rematch": self.rematch_id,
                "seq": self.seq,
                "round": self.state.round}

    async def join(self, conn: Connection, token: str | None) -> None:
        """Attach a connection (after its hello) and send it the whole situation."""
        async with self.lock:
            seat = self.seat_of(token)
            conn.seat = seat
            self.connections.add(conn)
            if seat is not None and self.seats[seat].replaced:  # the player is back
                self.seats[seat].replaced = False
                self._save_seats()
            conn.push(protocol.welcome(self.info(), seat, self.seq, self.state.view(seat).to_json(),
                                       deadline=self.deadline))
            self.broadcast_table()

    async def leave(self, conn: Connection) -> None:
        async with self.lock:
            self.connections.discard(conn)
            self.broadcast_table()

    def broadcast_table(self) -> None:
        message = protocol.table_info(self.info())
        for c in self.connections:
            c.push(message)

    # ---------------------------------------------------------------- playing

    async def act(self, seat: int | None, text: str, by: str = "player") -> None:
        """Apply ``text`` for ``seat``; the engine's error (and nothing else) if it is illegal."""
        if seat is None:
            raise TableError("spectators cannot act; take a seat to play", "not_seated")
        async with self.lock:
            if by == "player" and self.seats[seat].replaced:
                self.seats[seat].replaced = False
                self._save_seats()
            self._apply(seat, text, by)
        self.kick()

    def _apply(self, seat: int, text: str, by: str) -> None:
        """Under the lock: engine first (it raises before changing anything), then the
        database, then the clients."""
        try:
            action = self.game.parse_action(text)
            events = self.state.apply_action(seat, action)
        except GameError as exc:
            raise TableError(str(exc), "illegal") from None
        self.seq += 1
        self.store.add_action(self.id, self.seq, seat, str(action), by)
        if self.state.is_terminal() and self.status != "finished":
            self.status = "finished"
            self.store.update_table(self.id, status="finished")
        self._arm_timer()
        for c in self.connections:
            c.push(protocol.update(self.seq, seat, action=str(action) if c.seat == seat else None, by=by,
                                   events=_seen(events, c.seat), view=self.state.view(c.seat).to_json(),
                                   deadline=self.deadline))
        if self.status == "finished":
            for listener in self.finished_listeners:
                listener(self)

    async def replace(self, requester: int | None, seat: int) -> None:
        """A seated player asks a bot to play for ``seat``, whose player has left."""
        async with self.lock:
            if requester is None:
                raise TableError("only a seated player may ask for a replacement", "not_seated")
            if not 0 <= seat < len(self.seats) or self.seats[seat].kind != "human":
                raise TableError(f"seat {seat + 1} is not a player's seat", "bad_seat")
            if self.connected()[seat]:
                raise TableError(f"seat {seat + 1}'s player is here", "bad_seat")
            self.seats[seat].replaced = True
            self._save_seats()
            self.broadcast_table()
        self.kick()

    def _save_seats(self) -> None:
        self.store.update_table(self.id, seats=[asdict(s) for s in self.seats])

    # ---------------------------------------------------------------- bots and the timer

    def bot_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == "bot" or s.replaced]

    def kick(self) -> None:
        """Let the bots play whatever is theirs to play (one driver task at a time)."""
        if self._driver is None or self._driver.done():
            self._driver = asyncio.get_running_loop().create_task(self._drive())

    async def _drive(self) -> None:
        while True:
            async with self.lock:
                due = [s for s in self.state.current_players() if s in self.bot_seats()]
                if not due:
                    return
                seat = due[0]
                spec = self.seats[seat].bot or FALLBACK_BOT
                view = self.state.view(seat)
                seq = self.seq
            bot = self._bot(seat, spec)
            if spec.startswith("mcts"):  # a search: keep the event loop free
                action = await asyncio.to_thread(bot.act, view)
            else:
                action = bot.act(view)
            async with self.lock:
                if self.seq != seq and seat not in self.state.current_players():
                    continue
                try:
                    self._apply(seat, str(action), "bot")
                except TableError:  # the situation moved on while the bot thought
                    continue
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

    def _arm_timer(self) -> None:
        """Per decision: when it runs out, a bot plays for each human seat still due."""
        if self._timer_handle is not None:
            self._timer_handle.cancel()
            self._timer_handle = None
        self.deadline = None
        if not self.timer or self.state.is_terminal():
            return
        bots = self.bot_seats()
        if not [s for s in self.state.current_players() if s not in bots]:
            return
        self.deadline = time.time() + self.timer
        loop = asyncio.get_running_loop()
        self._timer_handle = loop.call_later(self.timer, lambda: loop.create_task(self._timeout()))

    def start(self) -> None:
        """After loading or creating: arm the timer and let the bots move."""
        self._arm_timer()
        self.kick()

    async def _timeout(self) -> None:
        async with self.lock:
            bots = self.bot_seats()
            due = [s for s in self.state.current_players() if s not in bots]
            for seat in due:
                if seat not in self.state.current_players():
                    continue
                action = self._bot(seat, FALLBACK_BOT).act(self.state.view(seat))
                self._apply(seat, str(action), "timer")
        self.kick()

    async def close(self) -> None:
        if self._timer_handle is not None:
            self._timer_handle.cancel()
        if self._driver is not None:
            self._driver.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._driver


def _seen(events: list[Event], viewer: int | None) -> list[dict[str, Any]]:
    return [e.seen_by(viewer).to_dict() for e in events]
