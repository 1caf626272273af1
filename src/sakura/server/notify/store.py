"""The notifications' reads and writes, made from the database's worker threads
(:class:`~sakura.server.database.Database`). Accounts are named by their key
(:func:`~sakura.server.names.name_key` of the username), as their rows are."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import Connection, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from sakura.server.db import Store, now
from sakura.server.notify.models import NotifiedRow, NotifySettingsRow, PushSubscriptionRow


@dataclass(frozen=True)
class Subscription:
    """A browser's push subscription: where to send, and the keys the payload is encrypted to."""

    endpoint: str
    p256dh: str
    auth: str


@dataclass(frozen=True)
class Choices:
    """An account's notification choices (both channels off unless it turned them on)."""

    email: str | None = None
    email_on: bool = False
    language: str = "en"
    subscriptions: tuple[Subscription, ...] = field(default=())

    @property
    def mails(self) -> bool:
        return self.email_on and bool(self.email)


def choices(store: Store, key: str) -> Choices:
    """``key``'s choices and subscriptions (the defaults when it never chose)."""
    with store.engine.connect() as conn:
        row = conn.execute(
            select(NotifySettingsRow.email, NotifySettingsRow.email_on, NotifySettingsRow.language).where(
                NotifySettingsRow.account == key
            )
        ).first()
        subs = conn.execute(
            select(PushSubscriptionRow.endpoint, PushSubscriptionRow.p256dh, PushSubscriptionRow.auth)
            .where(PushSubscriptionRow.account == key)
            .order_by(PushSubscriptionRow.created)
        ).all()
    found = tuple(Subscription(*s) for s in subs)
    if row is None:
        return Choices(subscriptions=found)
    return Choices(row.email, row.email_on, row.language, found)


def save_choices(store: Store, key: str, email: str | None, email_on: bool, language: str) -> None:
    with store.engine.begin() as conn:
        conn.execute(delete(NotifySettingsRow).where(NotifySettingsRow.account == key))
        conn.execute(
            insert(NotifySettingsRow).values(account=key, email=email, email_on=email_on, language=language)
        )


def unsubscribe(store: Store, key: str, email: str) -> bool:
    """Turn ``key``'s e-mail off if it still goes to ``email`` (an unsubscribe link); whether it
    was on."""
    with store.engine.begin() as conn:
        done = conn.execute(
            update(NotifySettingsRow)
            .where(
                NotifySettingsRow.account == key,
                NotifySettingsRow.email == email,
                NotifySettingsRow.email_on.is_(True),
            )
            .values(email_on=False)
        )
    return bool(done.rowcount)


def subscribe(store: Store, key: str, sub: Subscription, language: str) -> None:
    """Keep ``sub`` for ``key`` (a browser subscribing again replaces its keys, or moves to
    the account now logged in there); the account's language is the page's."""
    with store.engine.begin() as conn:
        conn.execute(delete(PushSubscriptionRow).where(PushSubscriptionRow.endpoint == sub.endpoint))
        conn.execute(
            insert(PushSubscriptionRow).values(
                endpoint=sub.endpoint, account=key, p256dh=sub.p256dh, auth=sub.auth, created=now()
            )
        )
        changed = conn.execute(
            update(NotifySettingsRow).where(NotifySettingsRow.account == key).values(language=language)
        )
        if not changed.rowcount:
            conn.execute(insert(NotifySettingsRow).values(account=key, language=language))


def unsubscribe_push(store: Store, endpoint: str, key: str | None = None) -> bool:
    """Forget the subscription at ``endpoint`` (``key``'s only, when given); whether there was one."""
    query = delete(PushSubscriptionRow).where(PushSubscriptionRow.endpoint == endpoint)
    if key is not None:
        query = query.where(PushSubscriptionRow.account == key)
    with store.engine.begin() as conn:
        return bool(conn.execute(query).rowcount)


END = "end"  # the ledger's decision for a game's end


def claim(store: Store, table_id: str, seat: int, decision: str) -> bool:
    """Note that ``seat`` at ``table_id`` is told about ``decision``: False if it was already
    (by this process before a restart, or by another before a failover).

    The ledger is pruned as it goes: a game's end is the seat's last notification, so claiming
    it deletes the seat's rows of the decisions before (no decision of a finished game is told
    again), and a finished table keeps one row a seat, not one a round."""
    try:
        with store.engine.begin() as conn:
            conn.execute(
                insert(NotifiedRow).values(table_id=table_id, seat=seat, decision=decision, at=now())
            )
            if decision == END:
                conn.execute(
                    delete(NotifiedRow).where(
                        NotifiedRow.table_id == table_id,
                        NotifiedRow.seat == seat,
                        NotifiedRow.decision != END,
                    )
                )
    except IntegrityError:
        return False
    return True


def forget(conn: Connection, key: str) -> None:
    """An account being deleted: its choices and subscriptions go with it (in its transaction)."""
    conn.execute(delete(PushSubscriptionRow).where(PushSubscriptionRow.account == key))
    conn.execute(delete(NotifySettingsRow).where(NotifySettingsRow.account == key))
