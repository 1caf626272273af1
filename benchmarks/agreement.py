"""How often a bot decides as a best response with many samples does: decision quality without
playing whole games.

Run: ``nice -n 10 python benchmarks/agreement.py br:300 br:1500 mcts:1500 greedy --views 20
--reference br:6000``. The views are selection decisions of four-player ``greedy`` games (every
third decision with two or more legal cards, seeded); the reference decides each once, then
every spec decides each from its own seed, and the script prints how many of its decisions
match the reference's, with the CPU time a decision. The reference against itself with another
seed gives the floor: the cards it disagrees on are within its own noise.
"""

from __future__ import annotations

import argparse
import time

from sakura.bots import make_bot
from sakura.engine import View, make_game


def views(count: int, seed: int) -> list[View]:
    game = make_game("sakura", {"players": 4})
    out: list[View] = []
    g = 0
    while len(out) < count:
        state = game.new_initial_state(seed=seed + g)
        g += 1
        bots = [make_bot("greedy", game, seed=i) for i in range(4)]
        k = 0
        while not state.is_terminal():
            acting = state.current_players()
            seen = {p: state.view(p) for p in acting}
            for p in acting:
                if len(seen[p].legal_actions) > 1 and k % 3 == 0 and len(out) < count:
                    out.append(seen[p])
                k += 1
                state.apply_action(p, bots[p].act(seen[p]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("specs", nargs="+")
    parser.add_argument("--views", type=int, default=20)
    parser.add_argument("--reference", default="br:6000")
    parser.add_argument("--seed", type=int, default=500)
    args = parser.parse_args()
    game = make_game("sakura", {"players": 4})
    points = views(args.views, args.seed)
    reference = [str(make_bot(args.reference, game, seed=99).act(v)) for v in points]
    print(f"reference {args.reference} (seed 99) decided {len(points)} views", flush=True)
    for spec in [args.reference, *args.specs]:
        start = time.process_time()
        same = 0
        for view, best in zip(points, reference, strict=True):  # a fresh bot a view, seed 5
            same += str(make_bot(spec, game, seed=5).act(view)) == best
        ms = 1000 * (time.process_time() - start) / len(points)
        print(f"{spec}: agrees with {args.reference} on {same} of {len(points)} views, {ms:.0f} ms CPU")


if __name__ == "__main__":
    main()
