"""Baselines for researchers: random, greedy, mcts:100, mcts:300 and the shipped policy, each as a
PettingZoo agent (``sakura.rl.agents``), at 2, 4 and 6 players; and the policy's strength against
greedy bots. Prints Markdown tables with 95% Wilson intervals (docs/rl.md shows them).

Run: ``python benchmarks/rl_baselines.py [--games 2:60,4:30,6:30] [--strength-games 500]``.

* **Against each other**: game ``g`` of an ``n``-player table seats ``n`` of the five agents
  (at 2 players the ten pairs in turn; at 4 the five foursomes in turn; at 6 all five and one
  of them twice, in turn), in an order drawn from ``g``, on the engine's deal ``g``. Each
  agent's *win share* is the share of its seat-games it won (a shared win counts 1/k); its
  fair share is 1/n.
* **Strength against greedy**: the policy at one seat (drawn per game), greedy bots at the
  others, on deals never trained on; fair share 1/n.

Searching agents are slow (``mcts:300`` thinks about 0.1-0.2 s a decision on this machine;
the defaults take about six minutes), so the game counts are small and the intervals wide;
the script prints the counts it used.
"""

from __future__ import annotations

import argparse
import itertools
import random
import time
from collections import defaultdict

from sakura.rl.agents import make_agent
from sakura.rl.pettingzoo_env import SakuraParallelEnv
from sakura.rl.policy import table_key
from sakura.tournament.ratings import wilson

AGENTS = ["random", "greedy", "mcts:100", "mcts:300", "policy"]
STRENGTH_SEED = 50_000  # deals for the strength test: far from the training and evaluation seeds


def lineups(players: int) -> list[list[str]]:
    """The agents seated at each game of a cycle, every agent equally often."""
    if players <= len(AGENTS):
        return [list(c) for c in itertools.combinations(AGENTS, players)]
    extra = players - len(AGENTS)
    return [AGENTS + list(c) for c in itertools.combinations(AGENTS, extra)]


def play(env: SakuraParallelEnv, specs: list[str], seed: int) -> list[float]:
    """One game of ``env`` on the deal ``seed``, seat ``i`` played by ``specs[i]``; each seat's
    share of the win."""
    agents = {
        a: make_agent(spec, env, seed=seed * 10 + i)
        for i, (a, spec) in enumerate(zip(env.possible_agents, specs, strict=True))
    }
    observations, _ = env.reset(seed=seed)
    while env.agents:
        observations = env.step({a: agents[a](a, o) for a, o in observations.items()})[0]
    returns: list[float] = env._state.outcome().returns()
    return returns


def against_each_other(players: int, games: int) -> None:
    config = {"players": players}
    env = SakuraParallelEnv("sakura", config)
    cycle = lineups(players)
    wins: dict[str, float] = defaultdict(float)
    seats: dict[str, int] = defaultdict(int)
    start = time.perf_counter()
    for g in range(games):
        specs = cycle[g % len(cycle)][:]
        random.Random(g).shuffle(specs)
        for spec, share in zip(specs, play(env, specs, g), strict=True):
            wins[spec] += share
            seats[spec] += 1
    minutes = (time.perf_counter() - start) / 60
    fair = 1 / players
    print(
        f"\n**{players} players** ({table_key(env.game)}): {games} games, {minutes:.1f} min; "
        f"fair share {fair:.0%}\n"
    )
    print("| agent | seat-games | win share | 95% interval | × fair share |")
    print("|---|---:|---:|---:|---:|")
    for spec in AGENTS:
        n, w = seats[spec], wins[spec]
        low, high = wilson(w, n)
        print(f"| `{spec}` | {n} | {w / n:.1%} | {low:.1%} – {high:.1%} | {w / n / fair:.2f} |")


def strength(players_list: list[int], games: int) -> None:
    print(f"\n**The policy against greedy bots** ({games} games a table, deals from {STRENGTH_SEED})\n")
    print("| table | policy's win share | 95% interval | fair share | × fair share |")
    print("|---|---:|---:|---:|---:|")
    for players in players_list:
        env = SakuraParallelEnv("sakura", {"players": players})
        won = 0.0
        for g in range(games):
            seat = random.Random(g).randrange(players)
            specs = ["greedy"] * players
            specs[seat] = "policy"
            won += play(env, specs, STRENGTH_SEED + g)[seat]
        low, high = wilson(won, games)
        fair = 1 / players
        print(
            f"| {table_key(env.game)} | {won / games:.1%} | {low:.1%} – {high:.1%} | {fair:.0%} | "
            f"{won / games / fair:.2f} |",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="2:60,4:30,6:30", help="games per table, players:games,...")
    parser.add_argument("--strength-games", type=int, default=500, help="games per table against greedy")
    args = parser.parse_args()
    counts = {int(p): int(g) for p, g in (item.split(":") for item in args.games.split(","))}
    strength(sorted(counts), args.strength_games)
    print("\n### Against each other")
    for players, games in sorted(counts.items()):
        against_each_other(players, games)


if __name__ == "__main__":
    main()
