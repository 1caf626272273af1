"""Every bound the server keeps, in one place, and the rate limiters that enforce some of them.

A server that plays games with strangers on the internet must stay up when a client misbehaves:
floods, huge messages, thousands of tables, sockets that never read. Each bound below answers one
such attack with a clear refusal (an ``error`` message, a close frame with a reason, an HTTP
status with words) and leaves everything else as it was. ``docs/web.md`` lists them with the
attacks of ``benchmarks/abuse.py``; ``sakura serve`` takes the few a host may want to change.

>>> bucket = TokenBucket(rate=1.0, burst=2)
>>> [bucket.take(now=0.0), bucket.take(now=0.0), bucket.take(now=0.0), bucket.take(now=1.0)]
[True, True, False, True]
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Limits:
    """The server's bounds; the defaults suit a small public site on one process."""

    # sizes (bytes, counted after UTF-8 encoding, before anything is parsed)
    ws_message_bytes: int = 8 * 1024  # one WebSocket message (uvicorn refuses larger frames)
    body_bytes: int = 16 * 1024  # one HTTP request body
    header_seconds: float = 10.0  # a request, headers and body, must arrive within this (slow loris)
    # stopping (SIGTERM, Ctrl+C): requests and WebSockets still open this long after are cut off,
    # and the process is gone ``exit_seconds`` after the signal whatever holds it (serving.Server)
    shutdown_seconds: float = 5.0
    exit_seconds: float = 9.0

    # connections
    connections_per_table: int = 200  # seats and spectators together
    connections_per_address: int = 32  # WebSockets from one client address, all tables
    outbox_messages: int = 256  # messages queued for a socket that does not read: then dropped
    outbox_bytes: int = 1024 * 1024
    ws_send_buffer_bytes: int = 128 * 1024  # a WebSocket's send buffers: the kernel's and asyncio's
    messages_per_second: float = 30.0  # a connection's sustained rate (a person: about one) ...
    message_burst: int = 60  # ... and its burst; beyond it: an error, the message ignored
    flood_close: int = 200  # refused messages in a row before the connection is closed

    # chat (chat.py): ``chat_burst`` messages in ``chat_window`` seconds per seat and per client
    # address at a table (a reconnect resets neither), and ``chat_spectators`` for all the
    # table's spectators together (what a crowd makes the server send is bounded by it)
    chat_burst: int = 5
    chat_window: float = 10.0
    chat_spectators: int = 20
    chat_welcome: int = 200  # the newest messages a connection gets on arrival
    chat_stored: int = 500  # the newest messages a table keeps; older ones are deleted

    # seats
    replace_grace: float = 45.0  # seconds a seat must be empty before a bot may take it over

    # tables
    live_tables: int = 1000  # unfinished tables one process holds; then creation is refused
    creates_per_minute: float = 10.0  # tables one client address may create (burst: the same)
    # turn-based games one person plays at once (turns/bounds.py): seats at unfinished
    # turn-based tables per account, and per client address for players not logged in
    turn_games_per_account: int = 50
    turn_games_per_address: int = 20
    finished_linger: float = 120.0  # seconds a finished table with nobody on it stays in memory
    lobby_page: int = 50  # tables per page of the lobby's lists
    lobby_cache_seconds: float = 1.0  # the lobby's lists are rebuilt at most this often

    # database
    db_timeout: float = 5.0  # seconds a request waits for the database before a 503
    db_threads: int = 4  # worker threads for the requests' database calls
    sqlite_busy_seconds: float = 2.0  # SQLite's busy timeout (another process holds the lock)
    pg_statement_ms: int = 5000  # PostgreSQL statement_timeout and lock_timeout
    pg_connect_seconds: int = 3

    # advice: hints while playing and post-game analyses, searched in worker processes
    hint_spec: str = "expert"  # the bot whose search gives a hint (sakura.bots.advice.HINT_SPEC)
    analysis_spec: str = "expert"  # the bot that scores a finished game's decisions
    advice_workers: int = 1  # worker processes for both (CPU-bound: at most the cores to spare)
    advice_queue: int = 8  # hints and analysis steps waiting at once; beyond: "busy, try again"
    analyses_running: int = 2  # analyses under way at once (each queues one step at a time)
    # many processes (sakura.server.cluster): a table's lease in Redis lasts this long unrenewed
    lease_seconds: float = 3.0

    # accounts (farm.py): sign-ups one client address may make a day, and the days within which
    # two accounts used from one address or device do not change each other's ratings (0: off)
    signups_per_day: int = 3
    rating_shared_days: float = 30.0

    # the names a client may reach this server by (Host and WebSocket Origin); ("*",): any
    allowed_hosts: tuple[str, ...] = ("*",)


LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")


class TokenBucket:
    """``rate`` tokens a second up to ``burst``; each message takes one."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.stamp: float | None = None

    def take(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        if self.stamp is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def ready(self, now: float | None = None) -> bool:
        """Whether :meth:`take` would give a token now (taking none)."""
        now = time.monotonic() if now is None else now
        if self.stamp is None:
            return self.tokens >= 1
        return min(self.burst, self.tokens + (now - self.stamp) * self.rate) >= 1

    def wait(self) -> float:
        """Seconds until the next token."""
        return max(0.0, (1 - self.tokens) / self.rate) if self.rate > 0 else float("inf")


@dataclass(slots=True)
class KeyedLimiter:
    """One bucket per key (a client address); buckets that are full again are forgotten, so
    the map stays as small as the set of clients active within a minute or so."""

    rate: float
    burst: float
    buckets: dict[str, TokenBucket] = field(default_factory=dict)

    def take(self, key: str) -> float | None:
        """None when allowed; else the seconds to wait."""
        bucket = self.bucket(key)
        return None if bucket.take() else bucket.wait()

    def bucket(self, key: str) -> TokenBucket:
        """``key``'s bucket (a full one for a key not seen lately)."""
        if len(self.buckets) > 10_000:
            self._forget_full()
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = TokenBucket(self.rate, self.burst)
        return bucket

    def _forget_full(self) -> None:
        now = time.monotonic()
        for key, bucket in list(self.buckets.items()):
            if bucket.stamp is None or bucket.tokens + (now - bucket.stamp) * bucket.rate >= bucket.burst:
                del self.buckets[key]
