"""Rating farms: one person's second account must not feed the first one's rating.

A rated game between two accounts of one person (one browser, two logins) moved ratings like any
other (27.6 against 22.4 from a single self-played game), and sign-up took some 300 accounts an
hour from one address. What is prevented here, and how (``docs/web.md`` says the same for the
site's users):

* **Marks**: each account's client addresses and devices (a random ``sakura_device`` cookie, set
  at sign-up and login, kept a year) are noted, hashed, with when they were last seen: at sign-up,
  at login, and when it creates or joins a table.
* **No rating between accounts that share a mark** within ``Limits.rating_shared_days`` (30 days):
  the rated game is played to its end as usual, and at the end nobody's rating changes; the
  table says why (``info()["unrated"]``).
* **Sign-ups per address**: ``Limits.signups_per_day`` accounts a day from one address (3), then
  a clear refusal (429) until the day has passed.
* Ratings are provisional for the first games (:func:`sakura.server.ratings.shown`).

Not prevented: a person with two addresses and two browsers (a phone on mobile data, a laptop on
Wi-Fi), or one who waits out the window; nor a family or a school behind one address, whose
accounts simply do not rate each other (they may still play, and rate everyone else).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from typing import Any

from fastapi import Request, Response
from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError

from sakura.server.db import Store, now
from sakura.server.models import TableRow
from sakura.server.people_models import AccountMarkRow, AccountRow, RatedGameRow

DEVICE_COOKIE = "sakura_device"
DEVICE_DAYS = 365
SHARED = "not rated: two of its accounts were used from the same address or device"


def mark(kind: str, value: str) -> str:
    """The stored form of an address or a device token: hashed, never the value itself.

    >>> mark("address", "192.0.2.1") == mark("address", "192.0.2.1") != mark("device", "192.0.2.1")
    True
    """
    return hashlib.sha256(f"sakura-mark\n{kind}\n{value}".encode()).hexdigest()


def address_mark(request: Any) -> str:
    return mark("address", request.client.host if request.client else "?")


def marks_of(request: Any) -> list[str]:
    """The marks a request (or a socket) carries: its address, and its device cookie if any."""
    found = [address_mark(request)]
    device = request.cookies.get(DEVICE_COOKIE)
    if device and len(device) <= 64:
        found.append(mark("device", device))
    return found


def give_device(request: Request, response: Response) -> str:
    """The device cookie of this browser, set now if it had none; its mark."""
    device = request.cookies.get(DEVICE_COOKIE)
    if not device or len(device) > 64:
        device = secrets.token_urlsafe(24)
        response.set_cookie(
            DEVICE_COOKIE,
            device,
            max_age=DEVICE_DAYS * 86400,
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
            path="/",
        )
    return mark("device", device)


# ------------------------------------------------------------------ the store's calls (worker threads)


def note(store: Store, account: str, marks: list[str]) -> None:
    """Remember that ``account`` (its key) was used with these marks, now."""
    seen = now()
    with store.engine.begin() as conn:
        for m in dict.fromkeys(marks):
            changed = conn.execute(
                update(AccountMarkRow)
                .where(AccountMarkRow.account == account, AccountMarkRow.mark == m)
                .values(seen=seen)
            ).rowcount
            if not changed:
                try:
                    with conn.begin_nested():
                        conn.execute(insert(AccountMarkRow), {"account": account, "mark": m, "seen": seen})
                except IntegrityError:  # noted meanwhile by another request
                    pass


def signups_since(store: Store, address: str, since: dt.datetime) -> int:
    """Accounts made from this address mark since ``since``."""
    with store.engine.connect() as conn:
        count = conn.scalar(
            select(func.count())
            .select_from(AccountRow)
            .where(AccountRow.signup_mark == address, AccountRow.created >= since)
        )
    return int(count or 0)


def shared(store: Store, accounts: list[str], days: float) -> bool:
    """True when two of these accounts (keys) were used with one mark within ``days``."""
    if days <= 0 or len(set(accounts)) < 2:
        return False
    since = now() - dt.timedelta(days=days)
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(AccountMarkRow.mark)
            .where(AccountMarkRow.account.in_(set(accounts)), AccountMarkRow.seen >= since)
            .group_by(AccountMarkRow.mark)
            .having(func.count(func.distinct(AccountMarkRow.account)) > 1)
            .limit(1)
        ).first()
    return rows is not None


def leave_unrated(store: Store, table_id: str, klass: str, why: str, mode: str = "realtime") -> bool:
    """Count a rated table as done without changing any rating, and keep why in its options
    (the table's info says it); False if it had been settled already."""
    with store.engine.begin() as conn:
        try:
            with conn.begin_nested():
                conn.execute(
                    insert(RatedGameRow), {"table_id": table_id, "klass": klass, "mode": mode, "at": now()}
                )
        except IntegrityError:
            return False
        options = conn.scalar(select(TableRow.options).where(TableRow.id == table_id)) or {}
        conn.execute(
            update(TableRow).where(TableRow.id == table_id).values(options={**options, "unrated": why})
        )
    return True
