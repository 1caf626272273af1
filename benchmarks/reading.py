"""How much the hand reading knows: does a sampled hand make an opponent play its true card?

Run: ``python benchmarks/reading.py [--games 10] [--samples 30] [--temperatures 0.02,0.05,0.3]``.

Four ``greedy`` players play; at every selection from the second round on, seat 0's view is
sampled (uniformly, and by the reading ``sakura_reading.SakuraHandReader`` at each
temperature, from seat 0's own earlier views), and for each other seat the script asks: is
the heuristic's best card of the sampled hand, on the true board, the card that seat then
really played? ``greedy`` plays exactly that card of its true hand, so a search that imagines
its opponents as the heuristic (``model=0``) foresees a card as often as this rate says.
The script prints the rate for each way of sampling, and the share of the true hand's cards
that sampled hands hold.
"""

from __future__ import annotations

import argparse
from typing import Any

from sakura.bots import make_bot
from sakura.bots.sakura_heuristic import SakuraHeuristic
from sakura.bots.sakura_reading import SakuraHandReader
from sakura.engine import make_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--temperatures", default="0.02,0.05,0.3")
    args = parser.parse_args()
    game: Any = make_game("sakura", {"players": 4})
    reader = SakuraHandReader(game)
    h = SakuraHeuristic(game)
    ways: list[float | None] = [None, *(float(t) for t in args.temperatures.split(","))]
    hits = {w: [0, 0, 0] for w in ways}  # foreseen, asked, true cards held

    def best(board: Any, seat: int, hand: Any) -> int:
        return max(hand, key=lambda c: (h._select_value(board, seat, c, seat) - h.keep[c], -c))

    for seed in range(args.games):
        state = game.new_initial_state(seed)
        bots = [make_bot("greedy", game, seed * 10 + p) for p in range(4)]
        history: list[Any] = []
        while not state.is_terminal():
            view = state.view(0)
            selecting = view.pending is None and not any(view.chosen)
            board = (state.emperor, list(state.pos), list(state.tokens), state.scored)
            hands = [set(hand) for hand in state.hands]
            played: dict[int, int] = {}
            for p in state.current_players():
                action = bots[p].act(state.view(p))
                if selecting:
                    played[p] = action.card
                state.apply_action(p, action)
            if selecting and history and board[3] < len(h.sakuras):
                for way in ways:
                    likely = None if way is None else reader.likely(history, view, way)
                    for i in range(args.samples):
                        sample: Any = game.sample_state(view, i, likely=likely)
                        for p in (1, 2, 3):
                            got = hits[way]
                            got[0] += best(board, p, sample.hands[p]) == played[p]
                            got[1] += 1
                            got[2] += len(hands[p] & set(sample.hands[p]))
            if selecting:
                history.append(view)
    for way, (foreseen, asked, held) in hits.items():
        name = "uniform" if way is None else f"reading at T={way}"
        print(
            f"{name:>22}: the opponent's card foreseen {foreseen / asked:.1%} "
            f"(of {asked}); true cards in a sampled hand {held / asked / 5:.1%}"
        )


if __name__ == "__main__":
    main()
