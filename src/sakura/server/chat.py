"""Table chat: seated players and spectators say a word, stored with the table.

A message is checked (:func:`~sakura.server.names.clean_chat`: 1 to 300 characters, no control
or direction-override character), limited (``Limits.chat_burst`` messages in
``Limits.chat_window`` seconds per seat and per client address at the table, so a reconnect
resets nothing, and ``Limits.chat_spectators`` for all the table's spectators together, which
bounds what a crowd makes the server send; a clear error with the seconds to wait), refused to
spectators where the table says "spectators may not chat", stored through the
:class:`~sakura.server.database.Database`'s batched writer (one transaction for every message
said meanwhile: a crowd cannot stall the event loop with commits; a restart loses nothing), and
only then sent to everyone at the table. A table keeps its newest ``Limits.chat_stored``
messages; older ones are deleted as new ones come. A connection gets the newest messages on
arrival (``chat_history``), and the replay shows each kept message at the step it was said
(its ``seq``).

Quick phrases travel as their key (``gg``, ``wp``, ...): each reader sees them in their own
language. Muting a seat is the reader's own business, kept by their page. Text is text: the
pages insert it with ``textContent`` only (``docs/web.md``).
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, insert, select

from sakura.server import moderation
from sakura.server.db import Store, now
from sakura.server.errors import TableError
from sakura.server.limits import KeyedLimiter, Limits, TokenBucket
from sakura.server.names import clean_chat, optional_name
from sakura.server.people_models import ChatRow
from sakura.server.protocol import Chat, dumps
from sakura.server.table import Connection, Table

PHRASES = ("gg", "wp", "oops", "hello", "thanks", "blossom")


@dataclass
class _TableChat:
    senders: KeyedLimiter  # per seat ("seat 2") and per client address ("from 203.0.113.9")
    spectators: TokenBucket  # all the table's spectators together
    messages: list[dict[str, Any]] | None = None  # the newest ones, once loaded
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @classmethod
    def new(cls, limits: Limits) -> _TableChat:
        rate = limits.chat_burst / limits.chat_window
        crowd = TokenBucket(limits.chat_spectators / limits.chat_window, limits.chat_spectators)
        return cls(KeyedLimiter(rate, limits.chat_burst), crowd)

    def allow(self, conn: Connection) -> None:
        """Take a token from every bucket the message counts against, or none (a refusal)."""
        buckets = [self.senders.bucket(f"from {conn.address}")]
        if conn.seat is not None:
            buckets.append(self.senders.bucket(f"seat {conn.seat}"))
        else:
            buckets.append(self.spectators)
        if all(b.ready() for b in buckets):
            for b in buckets:
                b.take()
            return
        limits = conn.limits
        wait = max(b.wait() if not b.ready() else 0.0 for b in buckets)
        crowd = conn.seat is None and not self.spectators.ready()
        most = (
            f"this table's spectators may send {limits.chat_spectators} in {limits.chat_window:g} s together"
            if crowd
            else f"at most {limits.chat_burst} in {limits.chat_window:g} s"
        )
        raise TableError(
            f"too many chat messages: {most}; wait {wait:.0f} s",
            "chat_rate_limited",
            retry_after=round(wait, 3),
        )


@dataclass
class _Speaker:
    name: str | None = None  # a spectator's name, if they gave one


_tables: weakref.WeakKeyDictionary[Table, _TableChat] = weakref.WeakKeyDictionary()
_speakers: weakref.WeakKeyDictionary[Connection, _Speaker] = weakref.WeakKeyDictionary()


def _speaker(conn: Connection) -> _Speaker:
    speaker = _speakers.get(conn)
    if speaker is None:
        speaker = _speakers[conn] = _Speaker()
    return speaker


def _public(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "chat",
        "id": row["id"],
        "seq": row["seq"],
        "seat": row["seat"],
        "name": row["name"],
        "spectator": row["seat"] is None,
        "text": row["text"],
        "phrase": row["phrase"],
        "at": row["at"].isoformat(timespec="seconds"),
    }


# ------------------------------------------------------------------ the store's calls (worker threads)


def store_messages(store: Store, items: Sequence[tuple[dict[str, Any], int]]) -> list[int]:
    """Store each ``(row, keep)`` in one transaction, then delete each table's messages older
    than its newest ``keep``; the rows' ids, in order."""
    ids: list[int] = []
    keep: dict[str, int] = {}
    with store.engine.begin() as conn:
        for row, most in items:
            ids.append(int(conn.execute(insert(ChatRow).returning(ChatRow.id), row).scalar_one()))
            keep[row["table_id"]] = most
        for table_id, most in keep.items():
            newest = (
                select(ChatRow.id)
                .where(ChatRow.table_id == table_id)
                .order_by(ChatRow.id.desc())
                .offset(most - 1)
                .limit(1)
                .scalar_subquery()
            )
            conn.execute(delete(ChatRow).where(ChatRow.table_id == table_id, ChatRow.id < newest))
    return ids


def load_messages(store: Store, table_id: str, limit: int | None = None) -> list[dict[str, Any]]:
    """The table's messages, oldest first (the newest ``limit`` of them)."""
    query = (
        select(ChatRow)
        .where(ChatRow.table_id == table_id, ChatRow.hidden.is_(None))  # hidden: kept, shown to nobody
        .order_by(ChatRow.id.desc())
    )
    if limit is not None:
        query = query.limit(limit)
    with store.engine.connect() as conn:
        rows = [dict(r._mapping) for r in conn.execute(query)]
    rows.reverse()
    for r in rows:
        if r["at"].tzinfo is None:
            r["at"] = r["at"].replace(tzinfo=now().tzinfo)
    return [_public(r) for r in rows]


# ------------------------------------------------------------------ the event loop's side


def _chat(table: Table, limits: Limits) -> _TableChat:
    chat = _tables.get(table)
    if chat is None:
        chat = _tables[table] = _TableChat.new(limits)
    return chat


async def _loaded(table: Table, limits: Limits) -> _TableChat:
    chat = _chat(table, limits)
    async with chat.lock:
        if chat.messages is None:
            chat.messages = await table.db.call(
                load_messages,
                table.store,
                table.id,
                limits.chat_welcome,
                what=f"table {table.id}: loading its chat",
            )
    return chat


async def greet(table: Table, conn: Connection, name: str | None) -> None:
    """After a connection's hello: remember a spectator's name, send the newest messages (a
    message said meanwhile may come both alone and in the history: pages know it by its id)."""
    try:
        _speaker(conn).name = optional_name(name) if name is not None else None
    except TableError:
        _speaker(conn).name = None  # a name that is not one: the spectator stays "a spectator"
    try:
        chat = await _loaded(table, conn.limits)
    except TableError as exc:
        conn.push(
            {"type": "error", "code": exc.code, "message": f"the chat's history could not be loaded: {exc}"}
        )
        return
    conn.push({"type": "chat_history", "messages": list(chat.messages or [])})


async def say(table: Table, conn: Connection, message: Chat) -> None:
    """Store and relay one message; a :class:`TableError` (and nothing stored) if refused."""
    seat = conn.seat
    if seat is None and not table.options.get("spectator_chat", True):
        raise TableError("spectators may not chat at this table", "chat_closed")
    if (message.text is None) == (message.phrase is None):
        raise TableError("a chat message is either text or a quick phrase", "bad_chat")
    text = clean_chat(message.text) if message.text is not None else None
    if seat is not None and await moderation.bans(table.store).banned(table.db, table.seats[seat].account):
        raise TableError("this account is banned: it may not chat", "banned")
    _chat(table, conn.limits).allow(conn)
    name = table.seats[seat].name or None if seat is not None else _speaker(conn).name
    chat = await _loaded(table, conn.limits)
    row: dict[str, Any] = {
        "table_id": table.id,
        "seq": table.seq,
        "seat": seat,
        "name": name,
        "text": text,
        "phrase": message.phrase,
        "at": now(),
    }
    row["id"] = await table.db.batched(
        store_messages, (row, conn.limits.chat_stored), what=f"table {table.id}: storing chat messages"
    )
    public = _public(row)
    assert chat.messages is not None
    chat.messages.append(public)
    del chat.messages[: -conn.limits.chat_welcome]
    wire = dumps(public)
    for c in table.connections:
        c.push_text(wire)


def hidden(table: Table, chat_id: int) -> None:
    """A moderator hid message ``chat_id`` (already marked in the database): out of the newest
    kept here, and out of every page at the table now."""
    chat = _tables.get(table)
    if chat is not None and chat.messages is not None:
        chat.messages[:] = [m for m in chat.messages if m["id"] != chat_id]
    wire = dumps({"type": "chat_hidden", "id": chat_id})
    for c in table.connections:
        c.push_text(wire)


async def for_replay(table: Table) -> list[dict[str, Any]]:
    """Every message of the table, oldest first, each with the step it was said at."""
    return await table.db.call(
        load_messages, table.store, table.id, what=f"table {table.id}: loading its chat"
    )
