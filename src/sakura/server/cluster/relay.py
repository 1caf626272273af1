"""Messages between server processes through Redis pub/sub: one channel per process.

A process listens on its own channel (``box:<node>``) and sends to another's. Four kinds of
message travel, as JSON:

* ``req``: a relayed connection's request to its table's owner (hello, act, replace, rematch,
  leave; ``info`` and ``claim`` for HTTP), answered by a ``rep`` with the same ``id``;
* ``msg``: a message the owner's table built for one relayed connection (already serialized
  for that connection's seat: the text is sent to the client as it is);
* ``end``: the owner no longer holds that connection's table: close it (the page reconnects).

Everything one process sends goes out in order through one publisher task, so a connection's
welcome always comes before the reply to its hello, and its updates in the table's order.
Pub/sub keeps nothing for a listener that is not there: when this process's subscription
breaks (Redis restarted, the network dropped), every relayed connection here is closed, and
the pages reconnect and get the whole situation again, so a gap is never silently skipped.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

from sakura.server.table import Connection
from sakura.server.tasks import halt

log = logging.getLogger("sakura.server")

Handler = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]


class Unreachable(Exception):  # noqa: N818 (a condition, not a programming error)
    """The owner did not answer in time (it may be dead: its lease will tell)."""


class Relay:
    """This process's mailbox: ``local`` holds the connections relayed from here, by id."""

    def __init__(self, redis: Any, prefix: str, node: str, handler: Handler) -> None:
        self.redis, self.prefix, self.node, self.handler = redis, prefix, node, handler
        self.local: dict[str, Connection] = {}
        self._replies: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._ids = itertools.count()
        self._out: list[tuple[str, bytes]] = []
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self.subscribed = asyncio.Event()
        self.on_gap: Callable[[], None] | None = None  # called when the subscription broke

    def box(self, node: str) -> str:
        return f"{self.prefix}box:{node}"

    def new_id(self) -> str:
        return f"{self.node}.{next(self._ids)}"

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._publish())]

    async def stop(self) -> None:
        await halt(self._tasks)  # a cancel may be lost in a Redis call's wait_for: tasks.py

    # ---------------------------------------------------------------- sending

    def send(self, node: str, message: dict[str, Any]) -> None:
        """Queue ``message`` for ``node`` (in order with everything else this process sends)."""
        self._out.append((self.box(node), orjson.dumps(message)))
        self._wake.set()

    async def request(self, node: str, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send a ``req`` and wait for its ``rep``; :class:`Unreachable` after ``timeout`` s."""
        rid = self.new_id()
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._replies[rid] = future
        self.send(node, dict(message, k="req", id=rid, **{"from": self.node}))
        try:
            async with asyncio.timeout(timeout):
                return await future
        except TimeoutError:
            raise Unreachable(node) from None
        finally:
            self._replies.pop(rid, None)

    async def _publish(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._out = self._out, []
            if not batch:
                continue
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, data in batch:
                        pipe.publish(channel, data)
                    await pipe.execute()
            except Exception as exc:  # Redis is away: those messages are lost, the gap handling resyncs
                log.warning("relay: could not publish %d message(s): %s", len(batch), exc)
                await asyncio.sleep(0.2)

    # ---------------------------------------------------------------- receiving

    async def _listen(self) -> None:
        backoff = 0.1
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.box(self.node))
                self.subscribed.set()
                backoff = 0.1
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is not None:
                        self._receive(orjson.loads(message["data"]))
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("relay: the subscription broke (%s); relayed connections reconnect", exc)
                self.subscribed.clear()
                self._gap()
                await asyncio.sleep(backoff)
                backoff = min(2.0, backoff * 2)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    def _gap(self) -> None:
        for future in self._replies.values():
            if not future.done():
                future.set_exception(Unreachable("the relay's subscription broke"))
        for conn in list(self.local.values()):
            conn.close(1012, "the server is reconnecting to its peers")
        if self.on_gap is not None:
            self.on_gap()

    def _receive(self, message: dict[str, Any]) -> None:
        kind = message.get("k")
        if kind == "msg":
            conn = self.local.get(message["c"])
            if conn is not None:
                conn.push_text(message["t"])
        elif kind == "rep":
            future = self._replies.get(message["id"])
            if future is not None and not future.done():
                future.set_result(message)
        elif kind == "end":
            conn = self.local.get(message["c"])
            if conn is not None:
                conn.close()
        elif kind == "req":
            asyncio.get_running_loop().create_task(self._answer(message))

    async def _answer(self, message: dict[str, Any]) -> None:
        try:
            reply = await self.handler(message)
        except Exception:
            log.exception("relay: answering %s", message.get("op"))
            reply = {"ok": False, "message": "the table's server failed to answer", "code": "storage"}
        if message.get("id") is not None and message.get("op") != "leave":
            self.send(message["from"], dict(reply, k="rep", id=message["id"]))


class RelayConnection(Connection):
    """At the owner: a connection that lives on another process. The table treats it as its
    own (its seat, its presence, its per-viewer messages); what it is sent goes to that process."""

    def __init__(self, relay: Relay, node: str, cid: str, address: str = "", **kwargs: Any) -> None:
        super().__init__(lambda _text: None, address=address or f"relay:{node}", **kwargs)
        self.relay, self.node, self.cid = relay, node, cid

    def push_text(self, text: str) -> None:
        self.relay.send(self.node, {"k": "msg", "c": self.cid, "t": text})

    def close(self, code: int = 1012, reason: str = "") -> None:
        self.relay.send(self.node, {"k": "end", "c": self.cid})
