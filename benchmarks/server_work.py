"""The engine's share of a server's action: what ``sakura.server.table`` asks of the engine for
each accepted action, without the network, the database or asyncio around it.

Run: ``python benchmarks/server_work.py [--games 40] [--players 4] [--rounds 3]``. Plays random
games and, for every action, does what a table does with it: parse the action's text, apply it
to a clone of the state (``apply_action``, every check and event), then for each viewer (every
seat and the spectators) the events as that viewer sees them and the view, as the update's JSON
text (the server's own ``table._seen`` and ``protocol.dumps``). Prints µs an action for each
part, in both builds side by side (``benchmarks/builds.py``); asserts nothing.

``benchmarks/server.py`` measures the whole server's CPU an action (1 ms or so): this script
says how much of it is the engine's, the part a compiled engine can speed up.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from builds import compare_builds
from sakura.engine.games.sakura import SakuraGame
from sakura.server import protocol
from sakura.server.table import _seen


def measure(players: int, games: int) -> dict[str, float]:
    game = SakuraGame(players)
    rng = random.Random(0)
    viewers: list[int | None] = [*range(players), None]
    apply_s = views_s = 0.0
    actions = 0
    for seed in range(games):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            player = state.current_players()[0]
            text = str(rng.choice(state.legal_actions(player)))
            t0 = time.process_time()
            action = game.parse_action(text)
            state = state.clone()
            events = state.apply_action(player, action)
            t1 = time.process_time()
            public: dict[int, dict[str, Any]] = {}
            for viewer in viewers:  # as Table._send_update builds each viewer's message
                protocol.dumps(
                    protocol.update(
                        actions + 1,
                        player,
                        action=text if viewer == player else None,
                        by="player",
                        events=_seen(events, viewer, public),
                        view=state.view(viewer).to_json(),
                        deadline=None,
                    )
                )
            t2 = time.process_time()
            apply_s += t1 - t0
            views_s += t2 - t1
            actions += 1
    return {
        "apply": apply_s / actions * 1e6,
        "views": views_s / actions * 1e6,
        "total": (apply_s + views_s) / actions * 1e6,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    if not compare_builds(__file__, higher_is_better=False):
        return
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()
    best: dict[str, float] = {}
    for _ in range(3):  # the least disturbed of three
        r = measure(args.players, args.games)
        best = r if not best or r["total"] < best["total"] else best
    print(f"{args.players} players, {args.games} random games, µs an action (best of 3)")
    print(f"{'part':<34}{'µs':>10}")
    print(f"{'parse, clone, apply_action':<34}{best['apply']:>10.1f}")
    print(f"{'events and views as JSON':<34}{best['views']:>10.1f}")
    print(f"{'engine work an action':<34}{best['total']:>10.1f}")


if __name__ == "__main__":
    main()
