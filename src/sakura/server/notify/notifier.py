"""The :class:`Notifier` the app is given: when a turn-based table tells whom, through what.

**When.** A turn-based table calls it each time its clock is armed for the decision pending
(``Table.decision_listeners``) and when its game ends (``Table.finished_listeners``); the lobby
installs both (``Lobby._table``). An account with nothing turned on costs one read a decision,
and no write. For a decision, each human seat that is due, bound to an
account, not handed to a bot, and with no connection open at the table (its player is looking)
is told once per round and kind of decision (``4:selection``; a seat whose fellow players
move stays in the same decision): the in-memory map answers at once, and the ledger row (``sakura_notified``,
:func:`.store.claim`) makes it once whatever restarts or failovers happen. A seat whose player
was looking when the decision began is not told later for it. At the end, each human seat bound
to an account and not at the table is told the result (handed to the bot or not).

**What.** Only what the seat may know: the table, the round, its own deadline; at the end the
result, which every player sees. The words are the account's language (:mod:`.texts`).

**How.** Each notification is a background task: the account's choices are read from the
database's worker threads, mail goes out through ``aiosmtplib`` (asynchronous), each push in a
worker thread of the notifier's own (``pywebpush`` is synchronous). A channel that fails is logged and counted
(``sakura_notifications_total{channel, result}``); the table never waits for it or hears of it.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sakura.server.names import name_key
from sakura.server.notify import store
from sakura.server.notify.texts import text
from sakura.server.notify.tokens import sign

if TYPE_CHECKING:
    from sakura.server.lobby import Lobby
    from sakura.server.notify.mail import Mailer
    from sakura.server.notify.push import Pusher
    from sakura.server.table import Table

log = logging.getLogger("sakura.server")

PUSH_THREADS = 4  # pushes under way at once (each waits on a push service)


@dataclass(frozen=True)
class Notice:
    """One notification for one seat: what happened (``move`` or ``end``) and its words' values."""

    table_id: str
    seat: int
    account: str  # the username the seat is bound to
    decision: str  # ``round:kind``, or ``end``
    kind: str
    values: dict[str, Any]


class Notifier:
    """See the module docstring. ``site_url``: the address links point to (``https://host``);
    ``secret``: what unsubscribe links are signed with; ``mailer``, ``pusher``: the channels
    configured (None: that channel is off on this server)."""

    def __init__(
        self,
        site_url: str,
        secret: bytes,
        *,
        mailer: Mailer | None = None,
        pusher: Pusher | None = None,
    ) -> None:
        self.site_url = site_url.rstrip("/")
        self.secret = secret
        self.mailer = mailer
        self.pusher = pusher
        self.lobby: Lobby | None = None
        self.counts: Counter[tuple[str, str]] = Counter()  # (channel, result): sent, failed, gone
        self._told: dict[str, dict[int, str]] = {}  # table -> seat -> the last decision told or seen
        self._tasks: set[asyncio.Task[None]] = set()
        # pushes wait on push services (up to PUSH_SECONDS each): threads of their own, so a slow
        # service never holds the event loop's default threads (password hashing, ...)
        self._pushing = ThreadPoolExecutor(PUSH_THREADS, thread_name_prefix="sakura-push")

    # ---------------------------------------------------------------- what the lobby calls

    def attach(self, lobby: Lobby) -> None:
        """Serve ``lobby``'s tables (before they are restored)."""
        self.lobby = lobby
        lobby.notifier = self

    def watch(self, table: Table) -> None:
        """Tell ``table``'s seats when their move begins and when the game ends."""
        table.decision_listeners.append(self.decision)
        table.finished_listeners.append(self.finished)

    def decision(self, table: Table) -> None:
        """The table's clock was armed: the seats due for a decision just begun are told."""
        state = table.state
        if table.status != "playing" or state.is_terminal() or table.seating.waiting_for_players():
            return
        progress = state.progress()
        key = f"{progress.round}:{progress.decision}"  # a seat due again in it is told once
        bots = set(table.seating.bot_seats())
        values = {"table": table.id, "round": progress.round, "deadline": _when(table.deadline)}
        for seat in state.current_players():
            if seat not in bots:
                self._consider(table, seat, key, "move", values)

    def finished(self, table: Table) -> None:
        """The game ended: its players not at the table are told the result."""
        outcome = table.state.outcome()
        if outcome is None or table.status != "finished":
            return
        names = [s.name or s.account or str(i + 1) for i, s in enumerate(table.seats)]
        winners = ", ".join(names[w] for w in outcome.winners)
        for seat, held in enumerate(table.seats):
            if held.kind == "human":
                values = {"table": table.id, "score": outcome.scores[seat], "winners": winners}
                self._consider(table, seat, store.END, "end", values)
        self._told.pop(table.id, None)  # nothing more to tell at this table (the ledger keeps the rest)

    async def idle(self) -> None:
        """Until every notification begun so far is sent or failed (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await self.idle()
        self._pushing.shutdown(wait=False, cancel_futures=True)

    # ---------------------------------------------------------------- deciding and sending

    def _consider(self, table: Table, seat: int, decision: str, kind: str, values: dict[str, Any]) -> None:
        held = table.seats[seat]
        handed = held.handed and kind == "move"  # a seat handed to the bot still hears the result
        told = self._told.setdefault(table.id, {})
        if held.account is None or handed or told.get(seat) == decision:
            return
        told[seat] = decision  # told now, or looking now: not again for it
        if any(c.seat == seat for c in table.connections):
            return
        notice = Notice(table.id, seat, held.account, decision, kind, dict(values))
        task = asyncio.get_running_loop().create_task(self._send(notice))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send(self, notice: Notice) -> None:
        lobby = self.lobby
        if lobby is None or (self.mailer is None and self.pusher is None):
            return
        key = name_key(notice.account)
        try:
            choices = await lobby.db.call(store.choices, lobby.store, key, what="notification choices")
            mails = self.mailer is not None and choices.mails
            if not mails and not (self.pusher is not None and choices.subscriptions):
                return  # nothing turned on: nothing sent, nothing written
            if not await lobby.db.call(
                store.claim, lobby.store, notice.table_id, notice.seat, notice.decision, what="notifying"
            ):
                return  # told already (before a restart, or by the table's previous process)
        except Exception:
            log.warning("table %s: seat %d not notified (storage)", notice.table_id, notice.seat + 1)
            self._count("any", "failed")
            return
        language = choices.language
        title = text(language, f"{notice.kind}.title")
        body = text(language, f"{notice.kind}.body", **notice.values)
        url = f"{self.site_url}/t/{notice.table_id}"
        payload = {"title": title, "body": body, "url": url, "tag": f"sakura-{notice.table_id}"}
        sends = []
        if self.mailer is not None and choices.mails and choices.email:
            sends.append(self._mail(notice, choices.email, language, payload))
        if self.pusher is not None:
            sends.extend(self._push(key, sub, payload) for sub in choices.subscriptions)
        await asyncio.gather(*sends)

    async def _mail(self, notice: Notice, email: str, language: str, words: dict[str, str]) -> None:
        from sakura.server.notify.mail import Mail

        assert self.mailer is not None
        unsubscribe = f"{self.site_url}/unsubscribe/{sign(self.secret, name_key(notice.account), email)}"
        mail = Mail(
            to=email,
            subject=words["title"],
            lines=(words["body"],),
            url=words["url"],
            open_text=text(language, "mail.open", url=words["url"]),
            unsubscribe_url=unsubscribe,
            unsubscribe_text=text(language, "mail.unsubscribe"),
            why=text(language, "mail.why", account=notice.account, unsubscribe=unsubscribe),
            language=language,
        )
        try:
            await self.mailer.send(mail)
        except Exception as exc:  # the channel failed: logged and counted, nothing else changes
            log.warning(
                "table %s: mail for seat %d failed: %s", notice.table_id, notice.seat + 1, type(exc).__name__
            )
            self._count("mail", "failed")
            return
        self._count("mail", "sent")

    async def _push(self, key: str, sub: store.Subscription, payload: dict[str, Any]) -> None:
        from sakura.server.notify.push import GoneError

        assert self.pusher is not None and self.lobby is not None
        try:
            await asyncio.get_running_loop().run_in_executor(self._pushing, self.pusher.send, sub, payload)
        except GoneError:
            self._count("push", "gone")
            lobby = self.lobby
            try:
                await lobby.db.call(store.unsubscribe_push, lobby.store, sub.endpoint, key, what="push gone")
            except Exception:
                log.warning("an expired push subscription could not be deleted (next time)")
            return
        except Exception as exc:
            log.warning("a push failed: %s", type(exc).__name__)
            self._count("push", "failed")
            return
        self._count("push", "sent")

    def _count(self, channel: str, result: str) -> None:
        self.counts[channel, result] += 1
        if self.lobby is not None:
            self.lobby.metrics.notifications.labels(channel=channel, result=result).inc()


def _when(deadline: float | None) -> str:
    """A deadline as a notification says it (UTC: the reader's zone is not known here)."""
    if deadline is None:
        return "-"
    return dt.datetime.fromtimestamp(deadline, dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
