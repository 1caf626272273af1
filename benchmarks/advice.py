"""Hints and post-game analyses: how long they take. Prints numbers; asserts nothing.

* **hint latency, direct**: :func:`sakura.bots.advise` with the hint spec from each decision
  of one seat of a 4-player game (greedy opponents), in this process;
* **analysis, direct**: :func:`sakura.bots.analysis.analyse` of that seat, the whole game
  (every decision and every round start), one core;
* **through the server** (``--server``): a live server on loopback (its default limits: one
  worker process), a 4-player table played to its end by a WebSocket client; then the time
  from a ``hint`` message to the ``hint`` answer (the first one includes starting the worker
  process), and from ``POST .../analysis/0`` to the analysis stored.

    python benchmarks/advice.py
    python benchmarks/advice.py --spec mcts:400 --server
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sakura.bots import HINT_SPEC, advise, make_bot, resolve_spec  # noqa: E402
from sakura.bots.analysis import analyse  # noqa: E402
from sakura.engine import make_game  # noqa: E402


def greedy_game(seed: int) -> tuple[Any, Any, list[tuple[int, str]]]:
    game = make_game("sakura", {"players": 4})
    state = game.new_initial_state(seed)
    initial = state.clone()
    bots = [make_bot("greedy", game, i) for i in range(4)]
    moves = []
    while not state.is_terminal():
        player = state.current_players()[0]
        action = bots[player].act(state.view(player))
        moves.append((player, str(action)))
        state.apply_action(player, action)
    return game, initial, moves


def direct(spec: str, seed: int) -> None:
    game, initial, moves = greedy_game(seed)
    state = initial.clone()
    times, iterations = [], 0
    for player, text in moves:
        if player == 0 and len(state.legal_actions(0)) > 1:
            started = time.perf_counter()
            advice = advise(game, state.view(0), spec, seed=len(times))
            times.append(time.perf_counter() - started)
            iterations += advice.iterations
        state.apply_action(player, game.parse_action(text))
    median, worst = statistics.median(times) * 1000, max(times) * 1000
    print(
        f"hint, direct ({resolve_spec(spec)}): {len(times)} decisions, median {median:.0f} ms, "
        f"max {worst:.0f} ms, {iterations / sum(times):.0f} iterations/s"
    )
    started = time.perf_counter()
    result = analyse(game, initial, moves, 0, spec)
    seconds = time.perf_counter() - started
    print(
        f"analysis, direct ({result.spec}): a 4-player game of {len(moves)} moves, "
        f"{len(result.decisions)} decisions + {len(result.rounds)} round points in {seconds:.1f} s; "
        f"counts {result.to_json()['counts']}"
    )


def through_the_server() -> None:
    from tests.live_server import running_server
    from websockets.sync.client import connect

    with tempfile.TemporaryDirectory() as tmp, running_server(Path(tmp) / "sakura.db") as url:
        seats = [{"kind": "human"}] + [{"kind": "bot", "level": "medium"}] * 3
        body = json.dumps({"players": 4, "seats": seats}).encode()
        request = urllib.request.Request(f"{url}/api/tables", body, {"content-type": "application/json"})
        created = json.loads(urllib.request.urlopen(request).read())
        table, token = created["table"]["id"], created["token"]
        hints: list[float] = []
        with connect(f"ws{url[4:]}/ws/{table}") as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            waiting = False
            while True:
                message = json.loads(ws.recv())
                if message["type"] not in ("welcome", "update"):
                    continue
                view = message["view"]
                if message["type"] == "update" and message["seat"] == 0:
                    waiting = False
                if view["terminal"]:
                    break
                if waiting or not view["legal_actions"]:
                    continue
                if len(hints) < 8:
                    started = time.perf_counter()
                    ws.send(json.dumps({"type": "hint"}))
                    while (answer := json.loads(ws.recv()))["type"] not in ("hint", "error"):
                        if answer["type"] == "update":  # the others play on meanwhile
                            view = answer["view"]
                    hints.append(time.perf_counter() - started)
                if view["legal_actions"]:
                    ws.send(json.dumps({"type": "act", "action": view["legal_actions"][0]}))
                    waiting = True
        print(
            f"hint, through the server ({resolve_spec(HINT_SPEC)}): first {hints[0] * 1000:.0f} ms "
            f"(starts the worker process), then median {statistics.median(hints[1:]) * 1000:.0f} ms, "
            f"max {max(hints[1:]) * 1000:.0f} ms"
        )
        started = time.perf_counter()
        start = urllib.request.Request(f"{url}/api/tables/{table}/analysis/0", b"", method="POST")
        urllib.request.urlopen(start)
        while True:
            status = json.loads(urllib.request.urlopen(f"{url}/api/tables/{table}/analysis/0").read())
            if status["status"] != "running":
                break
            time.sleep(0.2)
        analysis = status["analysis"]
        print(
            f"analysis, through the server ({analysis['spec']}, one worker process): "
            f"{len(analysis['decisions'])} decisions + {len(analysis['rounds'])} round points in "
            f"{time.perf_counter() - started:.1f} s"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", default=HINT_SPEC, help="the advice bot (default: the hint level)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--server", action="store_true", help="also measure through a live server")
    args = parser.parse_args()
    direct(args.spec, args.seed)
    if args.server:
        through_the_server()


if __name__ == "__main__":
    main()
