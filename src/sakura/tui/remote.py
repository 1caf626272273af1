"""A seat at a web table (``sakura play --join URL``), over the server's WebSocket protocol.

:class:`RemoteSession` is the connection and the server's latest word on the table:
``view(seat)``, ``humans``, ``due_humans()``, ``terminal()``, ``setup``, presence. It holds
no game state and no rules: the view is the server's (``view.legal_actions`` says what may
be played), the events are the server's as this seat may see them, and an action is sent as
``{"type": "act", "action": ...}`` (docs/protocol.md). The connection lives in a Textual
worker on the app's event loop; when it drops, the session connects again with the same
token and the server's ``welcome`` restores the exact view. The play sessions that show it
on a game screen are in :mod:`sakura.tui.remote_play`; connecting, in
:mod:`sakura.tui.remote_screens`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast
from urllib.parse import parse_qs, urlsplit

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from sakura.engine import View
from sakura.engine.games.cards import CardsView
from sakura.engine.games.sakura import SakuraView
from sakura.tui.i18n import lt
from sakura.tui.session import BOT_KINDS, CARDS, GAMES, HUMAN, SAKURA, SeatSpec, Setup

Message = dict[str, Any]
V = TypeVar("V", bound=View)
RETRY = (0.2, 0.5, 1.0, 2.0, 4.0)  # seconds between reconnection attempts (the last repeats)


class JoinError(Exception):
    """The table cannot be joined: a bad link, an unknown table, no free seat, a bad token."""


@dataclass(frozen=True, slots=True)
class JoinTarget:
    """Where a table link points: the server's base URL, the table, and a seat's token."""

    base: str  # http(s)://host[:port][/prefix]
    table: str
    token: str | None = None

    @property
    def ws_url(self) -> str:
        scheme = "wss" if self.base.startswith("https") else "ws"
        return f"{scheme}{self.base[self.base.index(':') :]}/ws/{self.table}"

    def personal_link(self, token: str) -> str:
        return f"{self.base}/t/{self.table}#token={token}"


def parse_join_url(url: str) -> JoinTarget:
    """Read a table link: ``http://HOST/t/ID`` (take a free seat) or ``.../t/ID#token=...``.

    >>> parse_join_url("http://127.0.0.1:8000/t/x8Kf2Q#token=abc")
    JoinTarget(base='http://127.0.0.1:8000', table='x8Kf2Q', token='abc')
    >>> parse_join_url("localhost:8000/t/x8Kf2Q").base
    'http://localhost:8000'
    """
    text = url.strip()
    if "://" not in text:
        text = "http://" + text
    parts = urlsplit(text)
    scheme = {"http": "http", "https": "https", "ws": "http", "wss": "https"}.get(parts.scheme)
    if scheme is None or not parts.netloc:
        raise JoinError(f"not a table link: {url!r} (expected http://HOST/t/TABLE, as the browser shows)")
    path = parts.path.rstrip("/")
    prefix, sep, table = path.rpartition("/t/")
    if not sep or not table or "/" in table:
        prefix, sep, table = path.rpartition("/ws/")
    if not sep or not table or "/" in table:
        raise JoinError(f"not a table link: {url!r} (expected http://HOST/t/TABLE, as the browser shows)")
    token = None
    for source in (parts.fragment, parts.query):
        values = parse_qs(source).get("token")
        if values:
            token = values[0]
    return JoinTarget(f"{scheme}://{parts.netloc}{prefix}", table, token)


def view_from_json(data: Mapping[str, Any], game: str = SAKURA) -> View:
    """The view the server sent, read back by the engine's own parser (``SakuraView`` or
    ``CardsView``.from_json: a view printed and parsed is equal); no rules here."""
    kind: type[SakuraView] | type[CardsView] = CardsView if game == CARDS else SakuraView
    return kind.from_json(data)


class RemoteSession(Generic[V]):
    """One seat at a web table: the server's latest view of it, and the connection. ``V`` is
    the table's game's view type, known once the ``welcome`` names the game."""

    hot_seat = False

    def __init__(self, target: JoinTarget, *, watch: bool = False) -> None:
        self.target = target
        self.token = target.token
        self.watch = watch  # no seat: the spectator's view and events (``hello`` without a token)
        self.no_free_seat = False  # an invite link found every seat taken, so this app watches
        self.seat: int | None = None
        self.table: Message = {}
        self.latest: V | None = None
        self.seq = 0
        self.deadline: float | None = None
        self.ws: ClientConnection | None = None
        self.closing = False
        self.claimed = False  # this app took a free seat (so the personal link is news)

    # ------------------------------------------------------------ what the screens read

    @property
    def humans(self) -> tuple[int, ...]:
        return (self.seat,) if self.seat is not None else ()

    @property
    def game(self) -> str:
        """The table's game (``table.game``; a server of before the card game sends none)."""
        return str(self.table.get("game") or SAKURA)

    @property
    def setup(self) -> Setup:
        kinds = BOT_KINDS[self.game]
        seats = tuple(
            SeatSpec(HUMAN if s.get("kind") == "human" else kinds.get(str(s.get("level")), "greedy"))
            for s in self.table.get("seats", ())
        )
        variant = self.table.get("variant") if self.game == SAKURA and len(seats) == 2 else None
        return Setup(len(seats), variant, seats, None, self.game)

    @property
    def seed(self) -> str:
        return self.target.table

    def view(self, seat: int | None) -> V:
        """This seat's view (the only one the server sends it)."""
        assert self.latest is not None, "no welcome yet"
        return self.latest

    def terminal(self) -> bool:
        return self.latest is not None and self.latest.terminal

    def due_bots(self) -> list[int]:
        return []

    def due_humans(self) -> list[int]:
        if self.seat is None or self.latest is None or not self.latest.legal_actions:
            return []
        return [self.seat]

    def away(self) -> frozenset[int]:
        """The human seats whose player has taken them but has no connection now (the
        table's presence: ``connected``), a bot playing for them or not."""
        seats = self.table.get("seats") or ()
        return frozenset(
            i
            for i, s in enumerate(seats)
            if s.get("kind") == "human" and s.get("claimed") and not s.get("connected")
        )

    def seat_name(self, seat: int) -> str | None:
        seats = self.table.get("seats") or ()
        if seat >= len(seats):
            return None
        return str(seats[seat].get("name") or "") or None

    # ------------------------------------------------------------ the network

    async def claim(self) -> None:
        """Without a token, take a free seat (``POST /api/tables/{id}/join``), as the invite does;
        when every seat is taken, watch instead (as the browser does)."""
        if self.token is not None or self.watch:
            return
        url = f"{self.target.base}/api/tables/{self.target.table}/join"
        try:
            async with httpx.AsyncClient(timeout=30) as client:
                response = await client.post(url, json={"seat": None})
        except httpx.HTTPError as exc:
            raise JoinError(
                lt(
                    "Cannot reach the server at {url}: {error}",
                    url=self.target.base,
                    error=str(exc) or type(exc).__name__,
                )
            ) from None
        if response.status_code == 404:
            raise JoinError(lt("There is no table {table} on this server.", table=self.target.table))
        if response.status_code == 409 and _code(response) == "too_many_games":
            raise JoinError(
                lt(
                    "You have as many turn-based games in progress as one may: "
                    "finish one before starting or joining another."
                )
            )
        if response.status_code == 409:  # every seat is taken: watch the table
            self.watch = self.no_free_seat = True
            return
        if response.status_code != 200:
            raise JoinError(
                lt(
                    "No seat to take at table {table}: {reason}",
                    table=self.target.table,
                    reason=_detail(response),
                )
            )
        try:
            self.token = str(response.json()["token"])
        except (ValueError, KeyError, TypeError) as exc:
            raise JoinError(
                lt(
                    "Cannot reach the server at {url}: {error}",
                    url=self.target.base,
                    error=f"{type(exc).__name__}: {exc}",
                )
            ) from None
        self.claimed = True

    async def connect(self) -> Message:
        """Open the socket, say hello, and return the ``welcome`` (a :class:`JoinError` if refused)."""
        try:
            ws = await connect(self.target.ws_url, open_timeout=30, max_size=2**22)
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as exc:
            raise JoinError(
                lt(
                    "Cannot reach the server at {url}: {error}",
                    url=self.target.base,
                    error=str(exc) or type(exc).__name__,
                )
            ) from None
        try:
            await ws.send(json.dumps({"type": "hello", "token": None if self.watch else self.token}))
            while True:
                message = json.loads(await ws.recv())
                if message.get("type") == "error":
                    raise JoinError(_refusal(message, self.target.table))
                if message.get("type") == "welcome":
                    break
            game = (message.get("table") or {}).get("game") or SAKURA
            if game not in GAMES:
                raise JoinError(lt("This table plays {game}, which the terminal app cannot show.", game=game))
            self.welcome(message)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:  # not a Sakura server's answer
            await ws.close()
            raise JoinError(
                lt(
                    "Cannot reach the server at {url}: {error}",
                    url=self.target.base,
                    error=f"{type(exc).__name__}: {exc}",
                )
            ) from None
        except BaseException:
            await ws.close()
            raise
        self.ws = ws
        return dict(message)

    def welcome(self, message: Message) -> None:
        self.seat = message.get("seat")
        self.table = message.get("table") or {}
        self.take(message)

    def take(self, message: Message) -> None:
        """Keep a ``welcome``'s or an ``update``'s view, sequence number and deadline."""
        if isinstance(message.get("view"), dict):
            self.latest = cast(V, view_from_json(message["view"], self.game))
        self.seq = int(message.get("seq") or self.seq)
        self.deadline = message.get("deadline")

    async def listen(
        self, handle: Callable[[Message], Awaitable[None]], status: Callable[[str], None]
    ) -> None:
        """Pass every message to ``handle``, in order; reconnect (same token) when the line drops."""
        attempt = 0
        while not self.closing:
            ws = self.ws
            if ws is not None:
                try:
                    async for raw in ws:
                        attempt = 0
                        await handle(json.loads(raw))
                except ConnectionClosed:
                    pass
                self.ws = None
            if self.closing or self.terminal():
                return
            if attempt == 0:
                status(lt("The connection was lost; connecting again…"))
            await asyncio.sleep(RETRY[min(attempt, len(RETRY) - 1)])
            attempt += 1
            try:
                message = await self.connect()
            except (JoinError, ConnectionClosed) as exc:
                if attempt == 1:  # once: the retries go on quietly
                    status(str(exc))
                continue
            status(lt("Connected again."))
            await handle(message)

    async def act(self, action: str) -> bool:
        """Send an action; False when the connection is down (the view comes back on reconnect)."""
        return await self.send({"type": "act", "action": action})

    async def send(self, message: Message) -> bool:
        if self.ws is None:
            return False
        try:
            await self.ws.send(json.dumps(message))
        except ConnectionClosed:
            return False
        return True

    async def drop(self) -> None:
        """Close the socket as a network failure would (``listen`` connects again)."""
        if self.ws is not None:
            await self.ws.close()

    async def close(self) -> None:
        self.closing = True
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()

    async def record_text(self) -> str:
        """The finished game's record, from ``GET /api/tables/{id}/record``."""
        url = f"{self.target.base}/api/tables/{self.target.table}/record"
        async with httpx.AsyncClient(timeout=30) as client:
            response = await client.get(url)
        if response.status_code != 200:
            raise OSError(_detail(response))
        return response.text


def _code(response: httpx.Response) -> str | None:
    """The refusal's ``code`` (docs/protocol.md), if the answer has one."""
    try:
        code = response.json().get("code")
    except (ValueError, AttributeError):
        return None
    return code if isinstance(code, str) else None


def _detail(response: httpx.Response) -> str:
    try:
        return str(response.json().get("detail") or response.status_code)
    except ValueError:
        return f"HTTP {response.status_code}"


def _refusal(message: Message, table: str) -> str:
    code = message.get("code")
    if code == "bad_token":
        return lt("This link's token opens no seat at this table.")
    if code == "no_table":
        return lt("There is no table {table} on this server.", table=table)
    return str(message.get("message") or code)
