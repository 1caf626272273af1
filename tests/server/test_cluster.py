"""Many server processes on one PostgreSQL and one Redis (``sakura.server.cluster``), tested as
they run: real processes on loopback ports, real WebSocket clients, kill -9, SIGSTOP.

Each test works in a fresh PostgreSQL schema and under a fresh Redis key prefix, so it shares
nothing with other runs; it is skipped, with the reason, where PostgreSQL or Redis is absent.
The kill loops are ``benchmarks/cluster_kill.py`` with small counts.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.cluster_site import (
    BENCHMARKS,
    REDIS,
    Site,
    cluster_kill,
    local_lobby,
    next_message,
    redis_up,
    seated_table,
)
from tests.server.conftest import eventually
from tests.server.test_hidden_information import cards_in, visible


def _entitled(db: str, table_id: str, seats: list[int | None]) -> dict[int | None, list[set[int]]]:
    """``result[seat][k]``: the cards ``seat`` may see in a message about action ``k`` (as in
    test_hidden_information, from the stored table)."""
    from sakura.engine import make_game
    from sakura.server.db import Store

    store = Store(db)
    try:
        stored = store.load(table_id)
    finally:
        store.close()
    assert stored is not None
    game = make_game(stored.game, stored.config)
    state: Any = game.new_initial_state(stored.seed)
    out: dict[int | None, list[set[int]]] = {s: [visible(state, s)] for s in seats}
    steps: list[Any] = []
    state.set_step_hook(lambda s: steps.append(s.clone()))
    for seat, text in stored.actions:
        before = {s: visible(state, s) for s in seats}
        steps.clear()
        state.apply_action(seat, game.parse_action(text))
        for s in seats:
            allowed = before[s] | visible(state, s)
            for step in steps:
                allowed |= visible(step, s)
            out[s].append(allowed)
    return out


async def _play(
    site: Site,
    table: str,
    tokens: list[str],
    firsts: list[int],
    *,
    spectators: int = 0,
    seconds: float = 120,
    think: float = 0.0,
    told: cluster_kill.Told | None = None,
) -> tuple[cluster_kill.Told, dict[Any, list[Any]]]:
    """Clients for ``tokens`` (seat ``i`` on process ``firsts[i]``) and spectators play to the
    end; what they were told (``told``: given, to watch it meanwhile), and every message each
    client got, by (seat, client)."""
    told = told or cluster_kill.Told()
    stop = asyncio.Event()
    heard: dict[Any, list[Any]] = {}

    def audit_for(key: Any) -> Any:
        return lambda message, _me: heard.setdefault(key, []).append(message)

    tasks = [
        asyncio.create_task(
            cluster_kill.seat(
                site.ports,
                firsts[i],
                table,
                token,
                i,
                told=told,
                rng=random.Random(i),
                stop=stop,
                think=think,
                audit=audit_for((i, 0)),
            )
        )
        for i, token in enumerate(tokens)
    ]
    tasks += [
        asyncio.create_task(
            cluster_kill.seat(
                site.ports,
                k + 1,
                table,
                None,
                None,
                told=told,
                rng=random.Random(k),
                stop=stop,
                think=think,
                audit=audit_for((None, k)),
            )
        )
        for k in range(spectators)
    ]
    try:
        await asyncio.wait_for(asyncio.gather(*tasks[: len(tokens)]), seconds)
    finally:
        stop.set()
        await asyncio.wait(tasks, timeout=5)  # the spectators see the stop and leave
        for task in tasks:
            task.cancel()
    return told, heard


def test_four_seats_on_three_processes_play_to_the_end_and_each_sees_only_its_view(site_of: Any) -> None:
    site = site_of(3)
    table, tokens = seated_table(site, 4)
    told, heard = asyncio.run(_play(site, table, tokens, [0, 1, 2, 1], spectators=1))
    assert table in told.finished
    assert site.owner(table) == 0  # the creator owned it throughout; the others relayed
    total, stored, lost, wrong = cluster_kill.check(site.db, [table], told)
    assert (lost, wrong) == (0, 0) and stored == total > 20
    allowed = _entitled(site.db, table, [0, 1, 2, 3, None])
    checked = 0
    for (seat, _), messages in heard.items():
        assert messages[0]["type"] == "welcome" and messages[0]["seat"] == seat
        for message in messages:
            assert all(t not in str(message) for t in tokens), "a token was sent over the table's socket"
            if "seq" not in message:
                continue
            may = allowed[seat][message["seq"]]
            if message["type"] == "welcome":
                may = set().union(*allowed[seat][: message["seq"] + 1])
            extra = set(cards_in(message)) - may
            assert not extra, f"seat {seat} was sent {sorted(extra)} in {message}"
            checked += 1
    assert checked > 100 and (None, 0) in heard  # the spectator heard the whole game too


def _kill_loop(pg: str, *args: str) -> str:
    done = subprocess.run(
        [
            sys.executable,
            str(BENCHMARKS / "cluster_kill.py"),
            "--database-url",
            pg,
            "--redis-url",
            REDIS,
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.soak
def test_kill_the_owner_in_selection_twenty_times_and_lose_nothing(pg: str, prefix: str) -> None:
    """20 kills at random moments (new tables start when the games are over), 3 processes kept
    (a killed one starts again); the loop ends with every game finished (its exit status)."""
    out = _kill_loop(
        pg,
        "--processes",
        "3",
        "--tables",
        "6",
        "--players",
        "4",
        "--kills",
        "20",
        "--lease",
        "1.5",
        "--think",
        "0.5",
        "--interval",
        "1.0",
        "--seconds",
        "400",
    )
    summary = out.strip().splitlines()[-1]
    assert "lost 0, different 0" in summary and "actions told to clients 0 " not in summary
    assert "kill 20/20" in out


def test_kill_the_owner_during_a_forward_back_choice(pg: str, prefix: str) -> None:
    out = _kill_loop(
        pg,
        "--processes",
        "3",
        "--tables",
        "3",
        "--players",
        "4",
        "--kills",
        "4",
        "--at",
        "choice",
        "--lease",
        "1.5",
        "--think",
        "0.2",
        "--seconds",
        "200",
    )
    assert "lost 0, different 0" in out.strip().splitlines()[-1] and "kill 4/4" in out


def test_a_stale_owner_paused_past_its_lease_cannot_write(site_of: Any) -> None:
    """SIGSTOP the owner; another process takes the table; the stale owner, resumed, is handed an
    action by its own client: the database refuses it (its lease number is old)."""
    from sqlalchemy import create_engine, text
    from websockets.sync.client import connect

    site = site_of(2, lease=1.0)
    table, tokens = seated_table(site, 2, on=0)
    engine = create_engine(site.db)
    with connect(f"ws://127.0.0.1:{site.ports[0]}/ws/{table}") as stale:
        stale.send(f'{{"type": "hello", "token": "{tokens[0]}"}}')
        welcome = json.loads(stale.recv(10))
        legal = welcome["view"]["legal_actions"]
        os.kill(site.nodes[0].pid, signal.SIGSTOP)
        try:
            deadline = time.monotonic() + 30
            while site.owner(table) != 1:  # the lease lapses; process 1 takes the table (it asks for it)
                assert time.monotonic() < deadline, "nobody took the table"
                httpx.get(f"http://127.0.0.1:{site.ports[1]}/api/tables/{table}", timeout=10)
                time.sleep(0.2)
            stale.send(f'{{"type": "act", "action": "{legal[0]}"}}')  # waits in the stopped process's socket
        finally:
            os.kill(site.nodes[0].pid, signal.SIGCONT)
        replies = []
        try:
            while True:
                replies.append(json.loads(stale.recv(10)))
        except Exception:  # closed: the stale process dropped the table and sent its clients away
            pass
    assert not [m for m in replies if m["type"] == "update"], replies
    with engine.connect() as conn:
        stored = conn.execute(
            text("SELECT count(*) FROM sakura_actions WHERE table_id = :t"), {"t": table}
        ).scalar()
        lease = conn.execute(text("SELECT lease FROM sakura_tables WHERE id = :t"), {"t": table}).scalar()
    engine.dispose()
    assert stored == 0 and lease == 2  # nothing written; the new owner's lease is the table's
    # and the table plays on at its new owner, through either process
    told, _ = asyncio.run(_play(site, table, tokens, [1, 0]))
    assert table in told.finished and cluster_kill.check(site.db, [table], told)[2:] == (0, 0)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _redis_server(port: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    for _ in range(200):
        if redis_up(f"redis://127.0.0.1:{port}/0"):
            return server
        time.sleep(0.05)
    raise AssertionError("redis-server did not start")


@pytest.mark.skipif(
    shutil.which("redis-server") is None, reason="no redis-server to start (apt install redis-server)"
)
def test_redis_restarted_mid_game_play_resumes_and_nothing_is_lost(site_of: Any) -> None:
    """A Redis of this test's own (the shared one stays up), stopped mid-game and started again
    empty: the processes reconnect, leases are taken again, the game ends with every
    acknowledged action stored."""
    port = _free_port()
    redis_server = _redis_server(port)
    try:
        site = site_of(3, redis_url=f"redis://127.0.0.1:{port}/0")
        table, tokens = seated_table(site, 3)

        async def game() -> cluster_kill.Told:
            told = cluster_kill.Told()
            play = asyncio.create_task(
                _play(site, table, tokens, [0, 1, 2], think=0.05, seconds=150, told=told)
            )
            nonlocal redis_server
            mid_game = await eventually(lambda: len(told.accepted.get(table, [])) >= 3 or play.done())
            assert mid_game and not play.done(), "the game never got going"
            redis_server.terminate()
            redis_server.wait(10)
            gone = time.monotonic()
            # the processes notice: the relayed clients are sent away (to reconnect); and Redis
            # stays away longer than a lease, so that every lease has lapsed when it is back
            assert await eventually(lambda: told.reconnects > 0), "nobody noticed that Redis was gone"
            await eventually(lambda: time.monotonic() > gone + site.lease)
            redis_server = await asyncio.to_thread(_redis_server, port)
            told, _ = await play
            return told

        told = asyncio.run(game())
        assert table in told.finished and told.reconnects > 0
        total, stored, lost, wrong = cluster_kill.check(site.db, [table], told)
        assert (lost, wrong) == (0, 0) and total == stored
    finally:
        redis_server.terminate()
        redis_server.wait(10)


def test_the_database_refuses_an_action_under_an_old_lease(database_url: str) -> None:
    """Fencing itself, on SQLite and PostgreSQL: once a newer lease is taken, a write under the old
    one is refused whole, and a group commit still stores the other tables' actions with it."""
    from sakura.server.cluster.fencing import raise_lease
    from sakura.server.db import ActionWrite, FencedError, GroupCommit, Store, StoredTable, now

    store = Store(database_url)
    try:
        for name in ("a", "b"):
            store.create_table(StoredTable(name, {"players": 2}, 1, [], None, "playing", None, now(), []))
        old = raise_lease(store, "a")
        store.add_actions([ActionWrite("a", 1, 0, "play 1", "player", lease=old)])
        new = raise_lease(store, "a")  # another process took table a
        assert new == old + 1
        with pytest.raises(FencedError) as refused:
            store.add_actions([ActionWrite("a", 2, 0, "play 2", "player", lease=old)])
        assert refused.value.tables == {"a"}
        b = raise_lease(store, "b")

        async def group() -> list[BaseException | None]:
            writer = GroupCommit(store)
            results: list[BaseException | None] = []
            futures = [
                writer.submit(ActionWrite("a", 2, 0, "play 2", "player", lease=old), results.append),
                writer.submit(ActionWrite("b", 1, 1, "play 9", "player", lease=b), results.append),
            ]
            await asyncio.gather(*futures, return_exceptions=True)
            await writer.aclose()
            return results

        results = asyncio.run(group())
        assert isinstance(results[0], FencedError) and results[1] is None
        assert [x.actions for x in (store.load("a"), store.load("b")) if x is not None] == [
            [(0, "play 1")],
            [(1, "play 9")],
        ]
        store.add_actions([ActionWrite("a", 2, 1, "play 3", "player", lease=new)])  # the new owner writes
        loaded = store.load("a")
        assert loaded is not None and loaded.actions == [(0, "play 1"), (1, "play 3")]
    finally:
        store.close()


def test_the_lobby_lists_the_tables_of_every_process(site_of: Any) -> None:
    site = site_of(3)
    ids = set()
    for on in (0, 1):
        created = httpx.post(
            f"http://127.0.0.1:{site.ports[on]}/api/tables",
            timeout=30,
            json={"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]},
        )
        ids.add(created.json()["table"]["id"])
    deadline = time.monotonic() + 30
    while True:  # the keepers publish every third of a lease
        lists = httpx.get(f"http://127.0.0.1:{site.ports[2]}/api/tables", timeout=10).json()
        listed = {t["id"] for t in lists["listing"]["open"]}
        if ids <= listed:
            break
        assert time.monotonic() < deadline, lists
        time.sleep(0.3)
    assert ids <= {t["id"] for t in lists["open"]}
    assert all(t["seats"][1]["claimed"] is False for t in lists["listing"]["open"] if t["id"] in ids)


def test_bots_play_at_the_owner_for_a_player_on_another_process(site_of: Any) -> None:
    site = site_of(2)
    created = httpx.post(
        f"http://127.0.0.1:{site.ports[0]}/api/tables",
        timeout=30,
        json={
            "players": 3,
            "seats": [
                {"kind": "human"},
                {"kind": "bot", "level": "easy"},
                {"kind": "bot", "level": "medium"},
            ],
        },
    ).json()
    table = created["table"]["id"]
    told, _ = asyncio.run(_play(site, table, [created["token"]], [1]))
    assert table in told.finished and site.owner(table) == 0
    bots = {seat for (_t, _seq), seat in told.seats.items()} - {0}
    assert bots == {1, 2}  # the bots' moves reached the relayed player
    assert cluster_kill.check(site.db, [table], told)[2:] == (0, 0)


def test_a_timer_survives_failover_with_its_deadline(site_of: Any) -> None:
    """The owner dies while a player's clock runs: the new owner keeps the deadline (the welcome
    after the reconnection names the same one) and its timer plays for the player."""
    from websockets.sync.client import connect

    site = site_of(2, lease=1.0)
    created = httpx.post(
        f"http://127.0.0.1:{site.ports[0]}/api/tables",
        timeout=30,
        json={"players": 2, "timer": 20, "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}]},
    ).json()
    table, token = created["table"]["id"], created["token"]
    with connect(f"ws://127.0.0.1:{site.ports[1]}/ws/{table}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        first = json.loads(ws.recv(10))
        # the bot chooses its card on its own time: kill only once it has (its choice is then a
        # stored action, and the position the new owner rebuilds is this one)
        while not first["view"]["chosen"][1]:
            message = json.loads(ws.recv(30))
            if message["type"] == "update":
                first = dict(message, type="welcome")
    assert first["type"] == "welcome" and first["deadline"] is not None
    # the owner stores a re-armed deadline in Redis just after telling it: kill once it has
    # (killed between the two, the new owner keeps the deadline stored before, some ms older)
    deadline = time.monotonic() + 10
    while site.stored_deadline(table) != pytest.approx(first["deadline"], abs=1e-6):
        assert time.monotonic() < deadline, "the owner never stored the deadline it told"
        time.sleep(0.02)
    os.kill(site.nodes[0].pid, signal.SIGKILL)
    site.nodes[0].wait()
    deadline = time.monotonic() + 30
    while site.owner(table) != 1:
        assert time.monotonic() < deadline, "nobody took the table"
        time.sleep(0.2)
    while True:  # a process that is not ready for the table yet says to retry
        with connect(f"ws://127.0.0.1:{site.ports[1]}/ws/{table}") as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            again = json.loads(ws.recv(10))
            if again["type"] != "error" or again["code"] != "storage":
                assert again["type"] == "welcome" and again["seq"] == first["seq"], again
                assert again["deadline"] == pytest.approx(first["deadline"], abs=0.01)
                while True:  # the clock runs out at the new owner: a bot plays for the player
                    message = json.loads(ws.recv(40))
                    if message["type"] == "update" and message["seat"] == 0:
                        assert message["by"] == "timer"
                        return
        assert time.monotonic() < deadline, f"the new owner never served the table: {again}"
        time.sleep(0.5)


def test_the_deadline_stored_is_the_last_one_set_whatever_order_redis_answers_in(
    prefix: str, tmp_path: Path
) -> None:
    """A re-armed timer clears its deadline, then sets the new one. Were the two commands in
    flight at once, on two connections, the clearing one could land last and the table's next
    owner would restart the clock in full; they are stored one after the other, the last set
    last. (Here the clearing command is made the slower one.)"""

    class SlowDelete:
        def __init__(self, redis: Any) -> None:
            self.redis = redis

        async def delete(self, key: str) -> Any:
            await asyncio.sleep(0.2)
            return await self.redis.delete(key)

        def __getattr__(self, name: str) -> Any:
            return getattr(self.redis, name)

    class Timed:
        def __init__(self, deadline: float | None) -> None:
            self.id, self.deadline = "t1", deadline

    async def run() -> tuple[float | None, float | None]:
        async with local_lobby(prefix, tmp_path / "db.sqlite") as lobby:
            real = lobby.redis
            lobby.timers.redis = SlowDelete(real)
            for deadline in (None, time.time() + 20, None, time.time() + 30):
                lobby.timers.changed(Timed(deadline))
                await asyncio.sleep(0)  # the writer starts: the next change comes while it is in flight
            # two slow clearings and two settings, one after the other
            stored_all = await eventually(lambda: "t1" not in lobby.timers.writers)
            assert stored_all, "the deadlines were never all stored"
            stored = await real.get(f"{prefix}deadline:t1")
        return (None if stored is None else float(stored)), deadline

    stored, last = asyncio.run(run())
    assert stored == pytest.approx(last, abs=1e-6)


def test_a_player_arriving_while_the_table_is_taken_over_waits_for_it(prefix: str, tmp_path: Path) -> None:
    """Failover: this process is rebuilding a table from the database when its player's hello
    arrives, here or relayed by another process. Both wait for the table (they used to be told
    "storage, try again")."""
    from sakura.server.table_request import NewTable

    async def run() -> tuple[Any, Any, Any]:
        async with local_lobby(prefix, tmp_path / "db.sqlite") as lobby:
            made, _, _ = await lobby.create(NewTable(players=2))
            table_id = made.id
            await made.close()  # as if its owner died: gone from memory, its lease lapsed
            del lobby.tables[table_id]
            await lobby.leases.release(table_id)
            load = lobby.store.load

            loading = threading.Event()

            def slow_load(*args: Any) -> Any:
                loading.set()
                time.sleep(0.3)  # the rebuild takes a moment
                return load(*args)

            lobby.store.load = slow_load  # type: ignore[method-assign]
            taking = asyncio.get_running_loop().create_task(lobby._take(table_id))
            # the lease is taken, the table is being loaded
            assert await asyncio.to_thread(loading.wait, 30), "the table was never loaded"
            assert table_id in lobby._taking and table_id not in lobby.tables
            arrived, relayed = await asyncio.gather(
                lobby.get(table_id),
                lobby._answer({"table": table_id, "op": "info", "from": "elsewhere", "c": "1"}),
            )
            taken = await taking
        return arrived, relayed, taken

    arrived, relayed, taken = asyncio.run(run())
    assert taken is not None and arrived is taken
    assert relayed["ok"] and relayed["info"]["id"] == taken.id, relayed


def test_serve_with_workers_shares_one_port(pg: str, prefix: str, tmp_path: Path) -> None:
    """``sakura serve --workers 2``: two processes behind one port; tables created through it
    are all listed, whichever process answers, and SIGTERM stops them all, even one that does
    not answer (stopped here with SIGSTOP: it is killed once its time to stop is up)."""
    from sakura.server.cluster.workers import STOP_GRACE
    from sakura.server.limits import Limits

    port = cluster_kill.free_port()
    log = (tmp_path / "serve.log").open("w+b")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "sakura.cli.main",
            "serve",
            "--workers",
            "2",
            "--port",
            str(port),
            "--no-open",
            "--database-url",
            pg,
            "--redis-url",
            REDIS,
            "--redis-prefix",
            prefix,
        ],
        stdout=subprocess.DEVNULL,
        stderr=log,
        start_new_session=True,
    )
    pids: set[int] = set()
    try:
        cluster_kill.wait_up(port, server)
        ids: set[str] = set()
        # new connections go to either worker: both soon own a table. The second worker may
        # start accepting seconds after the first (a loaded machine), so the first may take
        # many tables in a row: each comes from an address of its own on loopback (127.0.0.N),
        # so no address meets its bound on new tables (ten a minute).
        while len(pids) < 2:
            assert len(ids) < 250, f"one worker took {len(ids)} connections in a row"
            address = f"127.0.0.{len(ids) + 2}"  # up to 127.0.0.251
            with httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=30) as client:
                created = client.post(f"http://127.0.0.1:{port}/api/tables", json={"players": 2})
            assert created.status_code == 201, created.text
            table = created.json()["table"]["id"]
            ids.add(table)
            pid = cluster_kill.owner_pid(REDIS, prefix, table)
            assert pid is not None, f"table {table} has no lease"
            pids.add(pid)
        deadline = time.monotonic() + 30
        while True:
            listed = {
                t["id"]
                for t in httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=10).json()["listing"][
                    "playing"
                ]
            }
            if ids <= listed:
                break
            assert time.monotonic() < deadline, (ids, listed)
            time.sleep(0.3)
        os.kill(min(pids), signal.SIGSTOP)
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(Limits().shutdown_seconds + STOP_GRACE + 20)
        except subprocess.TimeoutExpired:
            log.seek(0)
            pytest.fail(
                "SIGTERM did not stop the workers; their log ends:\n"
                + log.read().decode(errors="replace")[-3000:]
            )
        for pid in pids:
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)
        log.seek(0)
        assert f"worker {min(pids)} did not stop in time: killed" in log.read().decode(errors="replace")
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGKILL)  # whatever is left of the group, whatever failed
        server.wait()
        log.close()


def test_chat_its_history_and_hints_work_for_a_player_on_another_process(site_of: Any) -> None:
    # The table is owned by process 0; seat 1 plays through process 1. What seat 1 says is
    # stored once by the owner and reaches seat 0; the history reaches a late spectator on
    # process 1; a hint asked on process 1 is searched at the owner from seat 1's view.
    import websockets

    site = site_of(2)
    table, tokens = seated_table(site, 2)

    async def run() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
        urls = [f"ws://127.0.0.1:{port}/ws/{table}" for port in site.ports]
        async with websockets.connect(urls[0]) as home, websockets.connect(urls[1]) as away:
            await home.send(json.dumps({"type": "hello", "token": tokens[0]}))
            await away.send(json.dumps({"type": "hello", "token": tokens[1]}))
            await next_message(home, "welcome")
            await next_message(away, "welcome")
            await away.send(json.dumps({"type": "chat", "text": "سلام from afar"}))
            said = await next_message(home, "chat")
            echoed = await next_message(away, "chat")
            await away.send(json.dumps({"type": "hint"}))
            hint = await next_message(away, "hint", seconds=120)
            async with websockets.connect(urls[1]) as late:
                await late.send(json.dumps({"type": "hello", "name": "Late"}))
                history = (await next_message(late, "chat_history"))["messages"]
            return said, echoed, hint, history

    said, echoed, hint, history = asyncio.run(run())
    assert site.owner(table) == 0
    assert said["text"] == echoed["text"] == "سلام from afar" and said["seat"] == 1
    assert [m["text"] for m in history] == ["سلام from afar"]  # stored once, by the owner
    assert hint["seat"] == 1 and hint["actions"]
    legal = {a["action"] for a in hint["actions"]}
    assert all(text.startswith("play ") for text in legal)  # seat 1's own cards, chosen now
