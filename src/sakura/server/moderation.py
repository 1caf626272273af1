"""Moderation's reads and writes, each a store call for a worker thread
(:class:`~sakura.server.database.Database`), and the banned accounts as the event loop sees them.

* The admin role is granted and revoked from the command line (``sakura admin grant NAME``):
  whoever runs it holds the database already. An admin's page (``/admin``) then bans and
  unbans accounts, hides chat messages, closes tables and reads the reports and the audit log
  (:mod:`sakura.server.routes.admin`).
* A ban marks the account and ends its sessions in the same transaction: it cannot sign in,
  its cookie opens nothing, and its seats may not chat (:class:`Bans`, read by the chat).
* A hidden message stays in its row, marked: nobody is sent it again, the audit log and the
  reports still show what was said.
* Every action of a moderator (and each grant or revoke) is one row of the audit log, written
  in the transaction of the change itself: no change without its line, no line without it.
* An account deleted by its owner: sessions, ratings and rating history go; its games, finished
  or not, stay, its seats in them unnamed and unbound (``name`` empty: the pages name the seat
  by its colour); then the account's row goes, so its name may be taken again by anyone, who
  gets none of its seats.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import weakref
from typing import Any

from sqlalchemy import delete, insert, select, update

from sakura.server.database import Database
from sakura.server.db import Store, now
from sakura.server.models import TableRow, TurnSeatRow
from sakura.server.moderation_models import AuditRow, ReportRow
from sakura.server.names import name_key
from sakura.server.notify import store as notify_store
from sakura.server.people_models import (
    AccountMarkRow,
    AccountRow,
    ArchivePlayerRow,
    ArchiveRow,
    ChatRow,
    RatingHistoryRow,
    RatingRow,
    SessionRow,
)

ADMIN = "admin"
COMMAND_LINE = "(command line)"  # the actor of a grant or revoke made by ``sakura admin``
BANS_SECONDS = 5.0  # how old the banned accounts a process checks chat against may be
LISTED = 100  # reports, audit lines and banned accounts the admin page lists


def _audit(conn: Any, actor: str, action: str, target: str, detail: str | None = None) -> None:
    conn.execute(
        insert(AuditRow),
        {
            "at": now(),
            "actor": actor,
            "action": action,
            "target": target[:64],
            "detail": (detail or None) and detail[:300],
        },
    )


# ------------------------------------------------------------------ accounts


def set_role(store: Store, username: str, role: str | None, actor: str = COMMAND_LINE) -> str | None:
    """Give ``username`` the ``role`` (None: none); the account's username, or None if none."""
    with store.engine.begin() as conn:
        found = conn.execute(select(AccountRow.username).where(AccountRow.key == name_key(username))).scalar()
        if found is None:
            return None
        conn.execute(update(AccountRow).where(AccountRow.key == name_key(username)).values(role=role))
        _audit(conn, actor, "grant" if role else "revoke", str(found), role)
    return str(found)


def role_of(store: Store, username: str) -> str | None:
    with store.engine.connect() as conn:
        role = conn.execute(select(AccountRow.role).where(AccountRow.key == name_key(username))).scalar()
    return None if role is None else str(role)


def set_banned(
    store: Store, username: str, banned: bool, actor: str, reason: str | None = None
) -> str | None:
    """Ban (its sessions end in the same transaction) or unban ``username``; its username, or
    None if there is no such account."""
    key = name_key(username)
    with store.engine.begin() as conn:
        found = conn.execute(select(AccountRow.username).where(AccountRow.key == key)).scalar()
        if found is None:
            return None
        conn.execute(update(AccountRow).where(AccountRow.key == key).values(banned=now() if banned else None))
        if banned:
            conn.execute(delete(SessionRow).where(SessionRow.account == key))
        _audit(conn, actor, "ban" if banned else "unban", str(found), reason)
    return str(found)


def is_banned(store: Store, username: str) -> bool:
    with store.engine.connect() as conn:
        banned = conn.execute(select(AccountRow.banned).where(AccountRow.key == name_key(username))).scalar()
    return banned is not None


def banned_accounts(store: Store) -> list[dict[str, Any]]:
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(AccountRow.username, AccountRow.banned)
            .where(AccountRow.banned.is_not(None))
            .order_by(AccountRow.banned.desc())
            .limit(LISTED)
        ).all()
    return [{"username": r[0], "banned": _iso(r[1])} for r in rows]


def delete_account(store: Store, username: str) -> tuple[list[str], list[str]]:
    """Delete ``username``'s account (see the module docstring); the ids of the finished games
    whose seats were unnamed, and of the tables in play where a seat was unbound (their
    owners, wherever they are served, unbind it in memory too)."""
    key = name_key(username)
    with store.engine.begin() as conn:
        games = list(
            conn.execute(select(ArchivePlayerRow.table_id).where(ArchivePlayerRow.account == key)).scalars()
        )
        for table_id in games:
            for model, column in ((ArchiveRow, ArchiveRow.table_id), (TableRow, TableRow.id)):
                seats = conn.execute(select(model.seats).where(column == table_id)).scalar()
                if seats is not None:
                    changed = [_unnamed(s) if _is(s, key) else s for s in seats]
                    conn.execute(update(model).where(column == table_id).values(seats=changed))
        # unfinished tables: the seat is unbound too, or whoever signs up with the freed name next
        # would be given it (a logged-in account gets its seats back from any browser)
        playing = []
        for table_id, seats in conn.execute(
            select(TableRow.id, TableRow.seats).where(TableRow.status == "playing")
        ).all():
            if any(_is(s, key) for s in seats):
                changed = [_unnamed(s) if _is(s, key) else s for s in seats]
                conn.execute(update(TableRow).where(TableRow.id == table_id).values(seats=changed))
                playing.append(table_id)
        conn.execute(delete(ArchivePlayerRow).where(ArchivePlayerRow.account == key))
        # its turn-based seats count for nobody now (turns/bounds.py), not for the freed name
        conn.execute(update(TurnSeatRow).where(TurnSeatRow.account == key).values(account=None))
        conn.execute(delete(SessionRow).where(SessionRow.account == key))
        conn.execute(delete(RatingRow).where(RatingRow.account == key))
        conn.execute(delete(RatingHistoryRow).where(RatingHistoryRow.account == key))
        conn.execute(delete(AccountMarkRow).where(AccountMarkRow.account == key))  # farm.py's marks
        conn.execute(update(ReportRow).where(ReportRow.reporter == key).values(reporter=None))
        notify_store.forget(conn, key)  # its e-mail address and push subscriptions (notify/)
        conn.execute(delete(AccountRow).where(AccountRow.key == key))
        _audit(conn, key, "delete", key, f"by its owner; {len(games)} finished games unnamed")
    return games, playing


def _is(seat: dict[str, Any], key: str) -> bool:
    return bool(seat.get("account")) and name_key(str(seat["account"])) == key


def _unnamed(seat: dict[str, Any]) -> dict[str, Any]:
    return {**seat, "name": "", "account": None}


# ------------------------------------------------------------------ chat and tables


def hide_message(store: Store, chat_id: int, actor: str) -> str | None:
    """Hide message ``chat_id`` (and close its reports); its table's id, or None if none."""
    with store.engine.begin() as conn:
        row = conn.execute(
            select(ChatRow.table_id, ChatRow.text, ChatRow.phrase).where(ChatRow.id == chat_id)
        ).first()
        if row is None:
            return None
        conn.execute(update(ChatRow).where(ChatRow.id == chat_id).values(hidden=now()))
        conn.execute(
            update(ReportRow)
            .where(ReportRow.chat_id == chat_id, ReportRow.handled.is_(None))
            .values(handled=now())
        )
        _audit(conn, actor, "hide", f"{row[0]}:{chat_id}", row[1] or row[2])
    return str(row[0])


def close_table(store: Store, table_id: str, actor: str, reason: str | None) -> bool:
    """Mark an unfinished table closed (ended without a result, so never rated); False if it is
    not in play."""
    with store.engine.begin() as conn:
        status = conn.execute(select(TableRow.status).where(TableRow.id == table_id)).scalar()
        if status != "playing":
            return False
        conn.execute(update(TableRow).where(TableRow.id == table_id).values(status="closed"))
        _audit(conn, actor, "close", table_id, reason)
    return True


def add_report(store: Store, chat_id: int, reporter: str | None, reason: str | None) -> bool:
    """A report of message ``chat_id``, what was said copied in; False if there is no such
    (visible) message."""
    columns = (ChatRow.table_id, ChatRow.seat, ChatRow.name, ChatRow.text, ChatRow.phrase)
    with store.engine.begin() as conn:
        found = conn.execute(select(*columns).where(ChatRow.id == chat_id, ChatRow.hidden.is_(None))).first()
        if found is None:
            return False
        conn.execute(
            insert(ReportRow),
            {
                **found._mapping,
                "chat_id": chat_id,
                "reporter": reporter and name_key(reporter),
                "reason": reason,
                "at": now(),
            },
        )
    return True


def open_reports(store: Store) -> list[dict[str, Any]]:
    """The reports no moderator has handled yet, newest first, each with the message."""
    message = (ReportRow.table_id, ReportRow.seat, ReportRow.name, ReportRow.text, ReportRow.phrase)
    query = (
        select(ReportRow.id, ReportRow.chat_id, *message, ReportRow.reason, ReportRow.at)
        .where(ReportRow.handled.is_(None))
        .order_by(ReportRow.id.desc())
        .limit(LISTED)
    )
    with store.engine.connect() as conn:
        rows = [dict(r._mapping) for r in conn.execute(query)]
    return [{**r, "table": r.pop("table_id"), "at": _iso(r["at"])} for r in rows]


def audit_log(store: Store) -> list[dict[str, Any]]:
    """The newest lines of the audit log."""
    columns = (AuditRow.at, AuditRow.actor, AuditRow.action, AuditRow.target, AuditRow.detail)
    with store.engine.connect() as conn:
        rows = [
            dict(r._mapping)
            for r in conn.execute(select(*columns).order_by(AuditRow.id.desc()).limit(LISTED))
        ]
    return [{**r, "at": _iso(r["at"])} for r in rows]


def _iso(at: dt.datetime | None) -> str | None:
    if at is None:
        return None
    return (at if at.tzinfo else at.replace(tzinfo=dt.UTC)).isoformat(timespec="seconds")


# ------------------------------------------------------------------ the event loop's side


def _banned_keys(store: Store) -> set[str]:
    with store.engine.connect() as conn:
        return set(conn.execute(select(AccountRow.key).where(AccountRow.banned.is_not(None))).scalars())


class Bans:
    """The banned accounts' keys of one database, read again when older than ``BANS_SECONDS``
    (another process may have banned one) and at once after this process bans or unbans."""

    def __init__(self) -> None:
        self.keys: set[str] = set()
        self.read_at = -BANS_SECONDS
        self.lock = asyncio.Lock()

    async def banned(self, db: Database, username: str | None) -> bool:
        if username is None:
            return False
        loop = asyncio.get_running_loop()
        async with self.lock:
            if loop.time() - self.read_at >= BANS_SECONDS:
                self.keys = await db.call(_banned_keys, db.store, what="reading the banned accounts")
                self.read_at = loop.time()
        return name_key(username) in self.keys

    def changed(self) -> None:
        self.read_at = -BANS_SECONDS


_bans: weakref.WeakKeyDictionary[Store, Bans] = weakref.WeakKeyDictionary()


def bans(store: Store) -> Bans:
    """The :class:`Bans` of ``store``'s database (one per app: tests run several at once)."""
    found = _bans.get(store)
    if found is None:
        found = _bans[store] = Bans()
    return found
