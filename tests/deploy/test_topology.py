"""The deployment of ``deploy/`` run on this machine (issue #30, deliverable 4): PostgreSQL,
Redis, three ``sakura serve`` processes (the command line of ``deploy/systemd/sakura@.service``)
and Debian's nginx in front with ``deploy/nginx/sakura.conf`` rendered by ``deploy/render.py``
(TLS with a self-signed certificate, an unprivileged port, a temporary folder, no daemon).

A whole game is played through the proxy over WebSockets (``wss://``); midway the process that
owns the table is killed (SIGKILL); the pages reconnect through nginx, which passes them to the
processes left, one of which takes the table over; the game is finished. Skipped, with the
reason, where nginx, openssl, PostgreSQL or Redis is missing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import ssl
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.cluster_site import redis_up
from tests.server.conftest import eventually, wait_until

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "deploy"))
from render import render  # noqa: E402  (deploy/render.py)

import cluster_kill  # noqa: E402  (fresh schema, Redis prefix, free ports, a table's owner)

REDIS = os.environ.get("SAKURA_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
PG = os.environ.get("SAKURA_TEST_POSTGRES_URL", cluster_kill.DEFAULT_PG)
NGINX = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)
SAKURA = Path(sys.executable).with_name("sakura")


@pytest.fixture
def services() -> Iterator[tuple[str, str]]:
    """A fresh PostgreSQL schema and Redis key prefix (the reason to skip when either is absent)."""
    if NGINX is None:
        pytest.skip("nginx is not installed (apt-get install nginx-light; .ci/run does)")
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed (the test makes a self-signed certificate with it)")
    if not redis_up(REDIS):
        pytest.skip(f"no Redis server reachable at {REDIS} (set SAKURA_TEST_REDIS_URL)")
    try:
        db = cluster_kill.pg_schema(PG)
    except Exception as exc:
        pytest.skip(f"no PostgreSQL server reachable at {PG} ({type(exc).__name__})")
    prefix = f"sakura-deploy-{uuid.uuid4().hex[:8]}:"
    try:
        yield db, prefix
    finally:
        cluster_kill.drop_schema(db)
        cluster_kill.drop_prefix(REDIS, prefix)


def _certificate(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-subj", "/CN=localhost"),
            *("-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def _nginx_conf(folder: Path, site: str) -> Path:
    """A whole nginx.conf around the site's file, everything in ``folder``, in the foreground."""
    for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (folder / sub).mkdir()
    (folder / "sakura.conf").write_text(site)
    user = "user root;\n" if os.geteuid() == 0 else ""  # workers write the temp folders here
    conf = folder / "nginx.conf"
    conf.write_text(
        f"{user}daemon off;\nworker_processes 1;\npid {folder}/nginx.pid;\n"
        f"error_log {folder}/error.log warn;\nevents {{ worker_connections 256; }}\n"
        f"http {{\n    access_log {folder}/access.log;\n"
        + "".join(f"    {sub}_temp_path {folder}/{sub};\n" for sub in ("fastcgi", "uwsgi", "scgi", "proxy"))
        + f"    client_body_temp_path {folder}/body;\n    include {folder}/sakura.conf;\n}}\n"
    )
    return conf


@contextlib.contextmanager
def _processes(commands: list[list[str]], log: Path) -> Iterator[list[subprocess.Popen[bytes]]]:
    out = log.open("ab")
    started: list[subprocess.Popen[bytes]] = []
    try:
        for command in commands:
            started.append(subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT))
        yield started
    finally:
        for process in started:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in started:
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        out.close()


def _wait_answering(url: str, processes: list[subprocess.Popen[bytes]], log: Path, **kw: Any) -> None:
    def answers() -> bool:
        dead = [p.args for p in processes if p.poll() is not None]
        assert not dead, f"exited: {dead}\n{log.read_text()[-3000:]}"
        with contextlib.suppress(httpx.HTTPError):
            return httpx.get(url, timeout=2, **kw).status_code == 200
        return False

    wait_until(answers, 120, f"an answer from {url} (log: {log})")


async def _player(
    wss: str, table: str, token: str, *, tls: ssl.SSLContext, rng: random.Random, told: Any
) -> None:
    """One seat's page: plays random legal actions to the end, reconnecting (through nginx)
    whenever its socket closes, as the page does."""
    import websockets

    while True:
        try:
            async with websockets.connect(f"{wss}/ws/{table}", ssl=tls, open_timeout=10) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                acted = None
                async for raw in ws:
                    message = json.loads(raw)
                    if message["type"] == "error":
                        acted = None
                    view = message.get("view")
                    if view is None:
                        continue
                    told["seq"] = max(told["seq"], int(message.get("seq") or 0))
                    if view["terminal"]:
                        told["ended"] += 1
                        return
                    if view["legal_actions"] and acted != message.get("seq"):
                        await ws.send(
                            json.dumps({"type": "act", "action": rng.choice(view["legal_actions"])})
                        )
                        acted = message.get("seq")
        except (OSError, TimeoutError, websockets.WebSocketException):
            told["reconnects"] += 1
        await asyncio.sleep(0.2)  # the page's pause before it reconnects


def test_three_processes_behind_nginx_play_a_game_through_tls_and_survive_a_kill(
    services: tuple[str, str], tmp_path: Path
) -> None:
    db, prefix = services
    ports = [cluster_kill.free_port() for _ in range(3)]
    https, http = cluster_kill.free_port(), cluster_kill.free_port()
    cert, key = _certificate(tmp_path)
    site = render(
        ports, server_name="localhost", cert=str(cert), key=str(key), https_port=https, http_port=http
    )
    conf = _nginx_conf(tmp_path, site)
    log = tmp_path / "processes.log"
    serve = [
        [
            *(str(SAKURA), "serve", "--no-open", "--host", "127.0.0.1", "--port", str(port)),
            "--proxy-headers",
            *("--allowed-host", "localhost", "--allowed-host", "127.0.0.1"),
            *("--database-url", db, "--redis-url", REDIS, "--redis-prefix", prefix),
        ]
        for port in ports
    ]
    nginx = [[str(NGINX), "-p", str(tmp_path), "-c", str(conf), "-e", str(tmp_path / "error.log")]]
    subprocess.run([*nginx[0], "-t"], check=True, capture_output=True)  # the rendered file is valid
    with _processes(serve, log) as servers, _processes(nginx, log) as proxy:
        for port in ports:
            _wait_answering(f"http://127.0.0.1:{port}/api/tables", servers, log)
        base = f"https://localhost:{https}"
        tls = ssl.create_default_context(cafile=str(cert))
        _wait_answering(f"{base}/api/tables", proxy, log, verify=tls)
        redirect = httpx.get(f"http://127.0.0.1:{http}/api/tables", headers={"host": "localhost"})
        assert redirect.status_code == 301 and redirect.headers["location"].startswith("https://localhost")

        with httpx.Client(base_url=base, verify=tls, timeout=30) as client:
            created = client.post("/api/tables", json={"players": 3, "seats": [{"kind": "human"}] * 3}).json()
            table, tokens = created["table"]["id"], [created["token"]]
            for _ in range(2):
                tokens.append(client.post(f"/api/tables/{table}/join", json={}).json()["token"])
        told: dict[str, int] = {"seq": 0, "ended": 0, "reconnects": 0}

        async def game() -> int:
            wss = f"wss://localhost:{https}"
            players = [
                asyncio.create_task(_player(wss, table, t, tls=tls, rng=random.Random(i), told=told))
                for i, t in enumerate(tokens)
            ]
            # the game under way: then its owner dies
            assert await eventually(lambda: told["seq"] >= 6 or any(p.done() for p in players))
            assert not any(p.done() for p in players), "the game ended before the kill"
            owner = cluster_kill.owner_pid(REDIS, prefix, table)
            [victim] = [s for s in servers if s.pid == owner]
            victim.send_signal(signal.SIGKILL)
            await asyncio.wait_for(asyncio.gather(*players), 240)
            return victim.wait(10)

        killed = asyncio.run(game())
        assert killed == -signal.SIGKILL
        assert told["ended"] == len(tokens) and told["reconnects"] >= 1
        with httpx.Client(base_url=base, verify=tls, timeout=30) as client:
            info = client.get(f"/api/tables/{table}").json()
        assert info["status"] == "finished", info
        assert sum(s.poll() is None for s in servers) == 2
