"""Kill -9 the owner of a table, again and again, on a site of several server processes sharing
PostgreSQL and Redis, and count acknowledged against stored actions.

It starts ``--processes`` servers (``sakura.server.cluster``) on as many loopback ports, in a
fresh PostgreSQL schema and under a fresh Redis key prefix, creates ``--tables`` tables (each
on one process) and seats WebSocket clients that play random legal actions, each connected to
another process than the table's creator, as behind a load balancer; a client whose socket
closes reconnects to the next process (as the page does). ``--kills`` times it picks a table,
finds its owner in Redis and kills that process with SIGKILL (``--at selection``: at any
moment; ``--at choice``: while a seat has a pending forward/back choice), then starts it again
on its port. The other processes take its tables when their leases run out.

Afterwards it checks every action any client was told of: stored, at its place, by its seat
(a client's own actions: the same action). It prints the counts, the failover times (from the
kill to the first action the killed table accepted afterwards) and exits non-zero on any loss.
Loopback only, bounded in count and in time.

    python benchmarks/cluster_kill.py --processes 3 --tables 6 --kills 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

from kill_loop import tally
from loopback import free_port

DEFAULT_PG = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
DEFAULT_REDIS = "redis://127.0.0.1:6379/0"


# ---------------------------------------------------------------------------- services


def pg_schema(base: str = DEFAULT_PG) -> str:
    """A fresh schema (its own ``search_path``) on the PostgreSQL at ``base``."""
    import psycopg
    from sqlalchemy.engine import make_url

    url = make_url(base)
    schema = f"sakura_cluster_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(
        host=url.host or "127.0.0.1",
        port=url.port or 5432,
        user=url.username or "postgres",
        password=url.password,
        dbname=url.database or "test",
        connect_timeout=3,
        autocommit=True,
    ) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    return url.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)


def drop_schema(url_text: str) -> None:
    import psycopg
    from sqlalchemy.engine import make_url

    url = make_url(url_text)
    schema = str(url.query["options"]).split("=", 1)[1]
    with psycopg.connect(
        host=url.host or "127.0.0.1",
        port=url.port or 5432,
        user=url.username or "postgres",
        password=url.password,
        dbname=url.database or "test",
        autocommit=True,
    ) as conn:
        for attempt in range(5):
            try:
                conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
                return
            except psycopg.errors.DeadlockDetected:
                # a write the test's server had under way when it stopped (a worker thread's
                # database call outlives the coroutine that waited for it) met the drop: the
                # server chose the drop as the victim; the write is done or gone now
                if attempt == 4:
                    raise


def drop_prefix(redis_url: str, prefix: str) -> None:
    import redis

    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
    if keys:
        client.delete(*keys)
    client.close()


def start_node(
    db: str,
    redis_url: str,
    prefix: str,
    port: int,
    *,
    lease: float = 2.0,
    wait: bool = True,
    bench: bool = False,
) -> subprocess.Popen[bytes]:
    """One server process of the site, on ``port`` (``bench``: as benchmarks/server.py's)."""
    code = (
        "from sakura.server import create_app; from sakura.server.serving import config; "
        "from sakura.server.limits import Limits; import uvicorn; "
        f"limits = Limits(connections_per_address=100_000, creates_per_minute=100_000, "
        f"live_tables={100_000 if bench else 1000}, "
        f"messages_per_second=1000, message_burst=1000, lease_seconds={lease!r}); "
        f"app = create_app({db!r}, limits, redis_url={redis_url!r}, redis_prefix={prefix!r}); "
        f"uvicorn.Server(config(app, host='127.0.0.1', port={port}, limits=limits)).run()"
    )
    process = subprocess.Popen([sys.executable, "-c", code])
    if wait:
        wait_up(port, process)
    return process


def wait_up(port: int, process: subprocess.Popen[bytes]) -> None:
    for _ in range(600):
        if process.poll() is not None:
            raise SystemExit(f"the server on port {port} exited ({process.returncode})")
        try:  # ready: the database and Redis answer (a process serves before Redis is reached)
            if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise SystemExit(f"the server on port {port} did not start")


def owner_pid(redis_url: str, prefix: str, table: str) -> int | None:
    """The process id of ``table``'s owner (its lease names ``host-pid-random``)."""
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        value = client.get(f"{prefix}lease:{table}")
    finally:
        client.close()
    return None if value is None else int(value.decode().rsplit("-", 2)[1])


# ---------------------------------------------------------------------------- clients


@dataclass
class Told:
    """What the clients heard: (table, seq) -> seat, their own acknowledged actions, when each
    table last accepted an action, and the tables waiting on a forward/back choice."""

    seats: dict[tuple[str, int], int] = field(default_factory=dict)
    own: dict[tuple[str, int], tuple[int, str]] = field(default_factory=dict)
    accepted: dict[str, list[float]] = field(default_factory=dict)
    choosing: dict[str, float] = field(default_factory=dict)
    reconnects: int = 0
    finished: set[str] = field(default_factory=set)


async def seat(
    ports: list[int],
    first: int,
    table: str,
    token: str | None,
    me: int | None,
    *,
    told: Told,
    rng: random.Random,
    stop: asyncio.Event,
    think: float,
    audit: Any = None,
) -> None:
    """One client (a spectator when ``token`` is None); ``audit(message, me)`` checks each message."""
    turn = first
    while not stop.is_set() and table not in told.finished:
        port = ports[turn % len(ports)]
        turn += 1
        try:
            async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{table}", open_timeout=5) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                sent: str | None = None
                legal: list[str] = []
                async for raw in ws:
                    message = json.loads(raw)
                    if audit is not None:
                        audit(message, me)
                    kind = message["type"]
                    if kind == "welcome":  # the past, one step an action: what a reconnection told
                        # (an update published while Redis was down reaches nobody; the welcome
                        # after the reconnection tells of it, and is checked against the store too)
                        for i, step in enumerate(message.get("history") or []):
                            told.seats.setdefault((table, i + 1), step["seat"])
                    if kind == "update":
                        told.seats[(table, message["seq"])] = message["seat"]
                        told.accepted.setdefault(table, []).append(time.monotonic())
                        if me is not None and message["seat"] == me and message["action"] is not None:
                            told.own[(table, message["seq"])] = (me, message["action"])
                            sent = None
                    elif kind == "error":  # not done (the owner was away, or the table moved on): try again
                        sent = None
                        if me is not None and legal and message.get("code") != "illegal":
                            await asyncio.sleep(0.2)
                            sent = rng.choice(legal)
                            await ws.send(json.dumps({"type": "act", "action": sent}))
                    view = message.get("view")
                    if view is None:
                        continue
                    if view["terminal"]:
                        told.finished.add(table)
                        return
                    legal = view["legal_actions"]  # the latest view's, for a retry after an error
                    if me is not None and legal and sent is None and kind in ("welcome", "update"):
                        if "forward" in legal or "back" in legal:
                            told.choosing[table] = time.monotonic()
                        if think:
                            await asyncio.sleep(rng.uniform(0, 2 * think))
                        sent = rng.choice(legal)
                        await ws.send(json.dumps({"type": "act", "action": sent}))
                    if stop.is_set():
                        return
        except (OSError, websockets.WebSocketException, TimeoutError):
            pass
        told.reconnects += 1
        await asyncio.sleep(0.2)


async def create_tables(
    ports: list[int], count: int, players: int, rng: random.Random
) -> list[tuple[str, int, list[str]]]:
    """``count`` tables of human seats, table ``i`` created on process ``i``; (id, process, tokens)."""
    out = []
    for i in range(count):
        port = ports[i % len(ports)]
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            n = players or rng.choice([2, 3, 4])
            created = await http.post("/api/tables", json={"players": n, "seats": [{"kind": "human"}] * n})
            created.raise_for_status()
            data = created.json()
            table = data["table"]["id"]
            tokens = [data["token"]]
            for k in range(n - 1):  # the others join through other processes
                other = ports[(i + k + 1) % len(ports)]
                joined = await http.post(f"http://127.0.0.1:{other}/api/tables/{table}/join", json={})
                joined.raise_for_status()
                tokens.append(joined.json()["token"])
            out.append((table, i % len(ports), tokens))
    return out


def check(db: str, tables: list[str], told: Told) -> tuple[int, int, int, int]:
    """(actions told, stored, lost, different) over ``tables``."""
    return tally(db, tables, told)


# ---------------------------------------------------------------------------- the loop


async def run(args: argparse.Namespace, db: str, prefix: str) -> int:
    ports = [free_port() for _ in range(args.processes)]
    nodes = [start_node(db, args.redis_url, prefix, port, lease=args.lease, wait=False) for port in ports]
    for port, node in zip(ports, nodes, strict=True):
        wait_up(port, node)
    rng = random.Random(args.seed)
    told = Told()
    stop = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    failovers: list[float] = []
    takeovers: list[float] = []
    kills = 0
    try:
        tables: list[str] = []

        async def new_tables() -> None:
            made = await create_tables(ports, args.tables, args.players, rng)
            tables.extend(t for t, _, _ in made)
            for table, home, tokens in made:
                for i, token in enumerate(tokens):  # each seat on another process than the creator
                    client = seat(
                        ports,
                        home + i + 1,
                        table,
                        token,
                        i,
                        told=told,
                        stop=stop,
                        rng=random.Random(rng.random()),
                        think=args.think,
                    )
                    tasks.append(asyncio.create_task(client))

        await new_tables()
        deadline = time.monotonic() + args.seconds
        restarting: set[int] = set()
        pending: list[asyncio.Task[None]] = []

        async def restart(index: int) -> None:
            nodes[index] = await asyncio.to_thread(
                start_node, db, args.redis_url, prefix, ports[index], lease=args.lease
            )
            restarting.discard(index)

        async def measure(table: str, pid: int, killed_at: float, deadline: float) -> None:
            """When another process holds the lease, then the table's first accepted action."""
            owned_at = None
            before = 0
            while time.monotonic() < min(deadline, killed_at + 30) and table not in told.finished:
                if owned_at is None:
                    now_pid = await asyncio.to_thread(owner_pid, args.redis_url, prefix, table)
                    if now_pid is not None and now_pid != pid:
                        owned_at = time.monotonic()
                        takeovers.append(owned_at - killed_at)
                        before = len(told.accepted.get(table, []))
                else:
                    times = told.accepted.get(table, [])
                    if len(times) > before:
                        failovers.append(times[before] - killed_at)
                        return
                await asyncio.sleep(0.02)

        while kills < args.kills:
            if time.monotonic() > deadline:
                break
            while restarting and time.monotonic() < deadline:  # every process up again: two of three stay
                await asyncio.sleep(0.05)
            await asyncio.sleep(rng.uniform(0.3, args.interval))
            alive = [t for t in tables if t not in told.finished]
            if not alive:  # every game is over and kills are left: more tables (bounded by --seconds)
                await new_tables()
                continue
            table = rng.choice(alive)
            if args.at == "choice":  # wait (a little) for a table with a pending forward/back choice
                wait_until = time.monotonic() + 5
                while time.monotonic() < wait_until:
                    recent = [
                        t
                        for t, at in told.choosing.items()
                        if t not in told.finished and time.monotonic() - at < 0.05
                    ]
                    if recent:
                        table = recent[0]
                        break
                    await asyncio.sleep(0.005)
            pid = owner_pid(args.redis_url, prefix, table)
            index = next((i for i, n in enumerate(nodes) if n.pid == pid and i not in restarting), None)
            if index is None:
                continue
            killed_at = time.monotonic()
            os.kill(pid, signal.SIGKILL)
            nodes[index].wait()
            kills += 1
            restarting.add(index)
            pending.append(asyncio.create_task(restart(index)))  # meanwhile the clients play on
            pending.append(asyncio.create_task(measure(table, pid, killed_at, deadline)))
            print(
                f"kill {kills}/{args.kills} (table {table}): {len(told.seats)} actions told so far, "
                f"{len(told.finished)}/{len(tables)} games over",
                flush=True,
            )
        await asyncio.gather(*pending)
        while len(told.finished) < len(tables) and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
    finally:
        stop.set()
        if tasks:
            await asyncio.wait(tasks, timeout=10)
        for task in tasks:
            task.cancel()
        for node in nodes:
            node.send_signal(signal.SIGTERM)
        for node in nodes:
            try:
                node.wait(30)
            except subprocess.TimeoutExpired:
                print(f"process {node.pid} did not stop on SIGTERM within 30 s: killed", flush=True)
                if os.environ.get("SAKURA_DUMP_STUCK"):
                    subprocess.run(["py-spy", "dump", "--pid", str(node.pid)], check=False)
                node.kill()
    total, stored, lost, wrong = check(db, tables, told)
    print(
        f"processes {args.processes}, tables {len(tables)}, finished {len(told.finished)}, "
        f"kills {kills}, reconnects {told.reconnects}"
    )
    for name, times in (("new owner", takeovers), ("failover", failovers)):
        if times:
            print(
                f"{name} (from the kill) over {len(times)} kills: median {statistics.median(times):.2f} s, "
                f"p90 {sorted(times)[int(0.9 * (len(times) - 1))]:.2f} s, max {max(times):.2f} s "
                f"(lease {args.lease} s)"
            )
    print(
        f"actions told to clients {total} (own, acknowledged: {len(told.own)}), "
        f"stored {stored}, lost {lost}, different {wrong}"
    )
    return 1 if lost or wrong or len(told.finished) < len(tables) else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--players", type=int, default=0, help="players a table (0: 2 to 4 at random)")
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--at", choices=["selection", "choice"], default="selection")
    parser.add_argument("--interval", type=float, default=1.5, help="longest wait between two kills (s)")
    parser.add_argument("--think", type=float, default=0.05, help="mean think time of a client (s)")
    parser.add_argument("--lease", type=float, default=2.0, help="the servers' lease time (s)")
    parser.add_argument("--seconds", type=float, default=240, help="stop after this long, whatever is left")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default=None, help="default: a fresh schema on " + DEFAULT_PG)
    parser.add_argument("--redis-url", default=DEFAULT_REDIS)
    args = parser.parse_args()
    db = args.database_url or pg_schema()
    prefix = f"sakura-kill-{uuid.uuid4().hex[:8]}:"
    try:
        code = asyncio.run(run(args, db, prefix))
    finally:
        drop_prefix(args.redis_url, prefix)
        if args.database_url is None:
            drop_schema(db)
    sys.exit(code)


if __name__ == "__main__":
    main()
