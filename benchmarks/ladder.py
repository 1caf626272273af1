"""The ladder's strength: one round-robin of every level, and ``master`` against the marks.

Run: ``nice -n 10 python benchmarks/ladder.py [--games 200] [--gauntlet 200] [--jobs 2]``.

1. **Round-robin** of the levels (``sakura tournament LEVELS --mode round-robin``: 4-player
   tables of distinct levels, every seat rotation of a line-up on one duplicate deal):
   openskill ratings (mu ± sigma), each level's ms a decision in the games, its win rate, and
   the *head-to-head share* of every pair: over the games both played, how often the row
   level finished ahead of the column level (won, then tokens; a tie counts half), with its
   95% interval clustered by deal. The ladder is *monotone* when each level finishes ahead of
   the one below it with an interval above 50%; the script says, pair by pair, whether the
   intervals separate. Then each level's *self-inflicted bumps* a game (its painter bumped
   while its own card resolved), as a multiple of ``club``'s.
2. **Gauntlets**: ``master`` against three ``greedy`` and against three ``mcts:300`` (seat
   rotation, duplicate deals), its share of wins in multiples of the fair share with 95%
   intervals, against the marks 2.0× and 1.3×.
3. ``--speed``: each level's ms a decision, one process, over real decision points.
4. ``--rule N``: how well the search's rollout rule (``Heuristic.rollout_action``, what MCTS
   imagines everyone plays) does as a player of its own, against ``greedy`` on N deals in
   every seat: the quality of the search's model of the players.

Every number depends only on ``--seed`` (iteration-limited bots), not on ``--jobs`` or load,
except the thinking times.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from sakura.bots import LEVEL_NAMES, heuristic_for, make_bot
from sakura.engine import make_game
from sakura.engine.rng import SplitMix64
from sakura.tournament.balance import SakuraCollector
from sakura.tournament.head_to_head import cell, head_to_head
from sakura.tournament.intervals import RATE, Clustered
from sakura.tournament.play import GameResult
from sakura.tournament.ratings import standings
from sakura.tournament.runner import run_games
from sakura.tournament.schedule import GAUNTLET, ROUND_ROBIN, TournamentPlan

MARKS = {"greedy": 2.0, "mcts:300": 1.3}


def progress(label: str, total: int) -> Any:
    done = [0]
    start = time.perf_counter()

    def tick(_: GameResult) -> None:
        done[0] += 1
        if done[0] % 10 == 0 or done[0] == total:
            rate = done[0] / (time.perf_counter() - start)
            print(f"  {label}: {done[0]}/{total} games, {rate:.2f} games/s", file=sys.stderr, flush=True)

    return tick


def bump_rates(results: Sequence[GameResult], levels: Sequence[str]) -> None:
    """Each level's self-inflicted bumps a game (its painter bumped while its own card
    resolved: walking into the Emperor, or backing him onto itself), clustered by deal, and
    as a multiple of ``club``'s."""
    c = Clustered()
    for r in results:
        for seat, spec in enumerate(r.seats):
            own = sum(1 for _card, s, _progress, bumped in r.stats["plays"] if s == seat and bumped)
            c.add(r.deal, spec, float(own))
    club = c.ratio("club") if "club" in levels else None
    print("\nSelf-inflicted bumps a game (95% interval over deals; × club's rate):")
    for level in levels:
        e = c.ratio(level)
        times = f", {e.value / club.value:.2f}× club's" if club is not None and club.value > 0 else ""
        print(f"  {level:<10}{e.value:.2f} ({e.low:.2f}–{e.high:.2f}){times}")


def round_robin(
    game: str, config: dict[str, Any], levels: Sequence[str], *, games: int, seed: int, jobs: int
) -> bool:
    plan = TournamentPlan(game, config, tuple(levels), games, seed, ROUND_ROBIN)
    print(
        f"\n## Round-robin of {', '.join(levels)}: {plan.total_games} games, {plan.deals} deals, "
        f"{plan.players} players a table"
    )
    collector = SakuraCollector if game == "sakura" else None
    tick = progress("round-robin", plan.total_games)
    results = run_games(plan.setups(), jobs=jobs, on_result=tick, collector=collector)
    table = {s.spec: s for s in standings(results)}
    print(f"\n{'level':<10}{'rating μ±σ':>14}{'ms/decision':>13}{'win rate (95%)':>24}")
    for level in levels:
        s = table[level]
        print(
            f"{level:<10}{f'{s.mu:.1f} ± {s.sigma:.1f}':>14}{s.think_ms:>13.1f}"
            f"{f'{100 * s.win_rate:.1f}% ({100 * s.ci_low:.1f}–{100 * s.ci_high:.1f})':>24}"
        )
    h2h = head_to_head(results)
    print("\nHead-to-head share (row finishes ahead of column; 95% interval over deals):")
    print(f"{'':<10}" + "".join(f"{b:>20}" for b in levels))
    for a in levels:
        cells = [cell(h2h.get((a, b))) for b in levels]
        print(f"{a:<10}" + "".join(f"{cell:>20}" for cell in cells))
    monotone = True
    print("\nMonotone? each level ahead of the one below it:")
    for low, high in itertools.pairwise(levels):
        e = h2h[(high, low)]
        separated = e.low > 0.5
        monotone &= separated
        print(
            f"  {high} over {low}: {100 * e.value:.1f}% ({100 * e.low:.1f}–{100 * e.high:.1f}), "
            f"{e.clusters} deals: {'separated' if separated else 'NOT separated'}"
        )
    print(f"ladder monotone with separated intervals: {'yes' if monotone else 'no'}")
    if collector is not None:
        bump_rates(results, levels)
    return monotone


def gauntlets(
    game: str, config: dict[str, Any], hero: str, others: Sequence[str], *, games: int, seed: int, jobs: int
) -> None:
    for other in others:
        plan = TournamentPlan(game, config, (hero, other), games, seed, GAUNTLET)
        print(f"\n## {hero} + {plan.players - 1}× {other}: {plan.total_games} games, {plan.deals} deals")
        tick = progress(f"{hero} vs {other}", plan.total_games)
        results = run_games(plan.setups(), jobs=jobs, on_result=tick)
        s = next(s for s in standings(results) if s.spec == hero)
        mark = MARKS.get(other)
        verdict = (
            ""
            if mark is None
            else (f"; mark {mark}×: {'interval above' if s.ratio_low > mark else 'NOT above'}")
        )
        print(
            f"  {hero}: win rate {100 * s.win_rate:.1f}% ({100 * s.ci_low:.1f}–{100 * s.ci_high:.1f}), "
            f"{s.ratio:.2f}× fair share ({s.ratio_low:.2f}–{s.ratio_high:.2f}), {s.deals} deals, "
            f"{s.think_ms:.0f} ms a decision{verdict}"
        )


def speed(game_name: str, config: dict[str, Any], levels: Sequence[str], views: int) -> None:
    """ms a decision of each level over real decision points of greedy games, one process."""
    game = make_game(game_name, config)
    points: list[Any] = []
    seed = 1
    while len(points) < views:
        state = game.new_initial_state(seed)
        bots = [make_bot("greedy", game, seed * 10 + p) for p in range(state.num_players)]
        seed += 1
        step = 0
        while not state.is_terminal():
            acting = state.current_players()
            chosen = [(p, bots[p].act(state.view(p))) for p in acting]
            for p, _ in chosen:
                view = state.view(p)
                step += 1
                if len(view.legal_actions) > 1 and step % 3 == 0:
                    points.append(view)
            for p, action in chosen:
                state.apply_action(p, action)
    points = points[:views]
    print(f"\n## Speed ({game_name}, {len(points)} decision points, one process)")
    for level in levels:
        bot = make_bot(level, game, seed=1)
        start = time.perf_counter()
        for view in points:
            bot.act(view)
        ms = 1000 * (time.perf_counter() - start) / len(points)
        print(f"  {level:<10}{ms:>10.1f} ms a decision")


def rule_share(game_name: str, config: dict[str, Any], deals: int) -> None:
    """The rollout rule in one seat, ``greedy`` in the others: its win share × fair share."""
    game = make_game(game_name, config)
    heuristic = heuristic_for(game)
    assert heuristic is not None
    total = 0.0
    games = 0
    players = game.new_initial_state(0).num_players
    for deal in range(deals):
        for hero in range(players):
            state = game.new_initial_state(1000 + deal)
            rng = random.Random(deal * 10 + hero)
            bots = [make_bot("greedy", game, deal * 10 + p) for p in range(players)]
            while not state.is_terminal():
                acting = state.current_players()
                views = {p: state.view(p) for p in acting}
                for p in acting:
                    if p == hero:  # the rule decides on a sample of what the player cannot see
                        sample = game.sample_state(views[p], rng.getrandbits(63))
                        action = heuristic.rollout_action(sample, p, rng)
                    else:
                        action = bots[p].act(views[p])
                    state.apply_action(p, action)
            outcome = state.outcome()
            assert outcome is not None
            total += outcome.returns()[hero]
            games += 1
    print(
        f"\n## The rollout rule against {players - 1}× greedy: {games} games ({deals} deals), "
        f"{total / games * players:.2f}× its fair share"
    )


class _Oracle:
    """A stand-in for the game inside one search bot whose every determinization is the true
    state: a cheat no bot of the product may use, measured only to bound what better
    determinization could ever gain (see ``oracle_share``)."""

    def __init__(self, game: Any, hands_only: bool) -> None:
        self.game = game
        self.state: Any = None
        self.hands_only = hands_only

    def sample_state(self, view: Any, seed: int) -> Any:
        state = self.state.clone()
        if self.hands_only:  # the hands are true, the deck's order and the generator are not
            shuffler = SplitMix64(seed)
            shuffler.shuffle(state.deck)
            state.rng = SplitMix64(seed + 1)
        return state

    def parse_action(self, text: str) -> Any:
        return self.game.parse_action(text)


def _oracle_games(args: tuple[str, str, int, int, bool]) -> list[float]:
    spec, against, deal, players, hands_only = args
    game = make_game("sakura", {"players": players})
    shares = []
    for hero in range(players):
        state = game.new_initial_state(5000 + deal)
        bots = [make_bot(spec if p == hero else against, game, deal * 10 + p) for p in range(players)]
        oracle = _Oracle(game, hands_only)
        bots[hero].game = oracle  # type: ignore[attr-defined]
        while not state.is_terminal():
            acting = state.current_players()
            oracle.state = state
            chosen = [(p, bots[p].act(state.view(p))) for p in acting]
            for p, action in chosen:
                state.apply_action(p, action)
        outcome = state.outcome()
        assert outcome is not None
        shares.append(outcome.returns()[hero])
    return shares


def oracle_share(spec: str, against: str, players: int, deals: int, *, jobs: int, hands_only: bool) -> None:
    """``spec`` searching on the true state (it sees every hand and the deck) against
    ``players - 1`` of ``against``: the most a perfect determinization could give its search."""
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        per_deal = pool.map(_oracle_games, [(spec, against, d, players, hands_only) for d in range(deals)])
    c = Clustered()
    for d, shares in enumerate(per_deal):
        for y in shares:
            c.add(d, "hero", y)
    e = c.ratio("hero", RATE)
    seen = "the true hands" if hands_only else "the true state"
    print(
        f"\n## {spec} seeing {seen} + {players - 1}× {against}: {deals * players} games "
        f"({deals} deals): win rate {100 * e.value:.1f}% ({100 * e.low:.1f}–{100 * e.high:.1f}), "
        f"{players * e.value:.2f}× fair share ({players * e.low:.2f}–{players * e.high:.2f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="sakura", help="sakura or sakura-cards")
    parser.add_argument("--players", type=int, default=4, help="Sakura's players a table")
    parser.add_argument("--levels", default=",".join(LEVEL_NAMES), help="levels, weakest first")
    parser.add_argument("--games", type=int, default=200, help="round-robin games (0: none)")
    parser.add_argument("--gauntlet", type=int, default=200, help="games of each master gauntlet (0: none)")
    parser.add_argument("--hero", default="master", help="the level the gauntlets measure")
    parser.add_argument("--against", default="greedy,mcts:300", help="the gauntlets' opponents")
    parser.add_argument("--speed", type=int, default=0, help="decision points for the speed table (0: none)")
    parser.add_argument("--rule", type=int, default=0, help="deals for the rollout rule's strength (0: none)")
    parser.add_argument(
        "--oracle",
        type=int,
        default=0,
        help="deals for the hero's search on the true state, a bound (0: none)",
    )
    parser.add_argument(
        "--oracle-hands",
        action="store_true",
        help="the oracle sees the hands only: the deck's order stays hidden",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    config: dict[str, Any] = {"players": args.players} if args.game == "sakura" else {}
    levels = [level.strip() for level in args.levels.split(",") if level.strip()]
    started = time.perf_counter()
    if args.rule:
        rule_share(args.game, config, args.rule)
    if args.oracle:
        for other in [s.strip() for s in args.against.split(",")]:
            oracle_share(
                args.hero, other, args.players, args.oracle, jobs=args.jobs, hands_only=args.oracle_hands
            )
    if args.speed:
        speed(args.game, config, levels, args.speed)
    if args.games:
        round_robin(args.game, config, levels, games=args.games, seed=args.seed, jobs=args.jobs)
    if args.gauntlet:
        gauntlets(
            args.game,
            config,
            args.hero,
            [s.strip() for s in args.against.split(",")],
            games=args.gauntlet,
            seed=args.seed,
            jobs=args.jobs,
        )
    print(f"\n({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
