"""Regret matching (CFR+) for small simultaneous-move games given as payoff tables.

A round of Sakura is a simultaneous-move game: every player lays one card face down, then all
resolve at once. Searching it as a tree of averages (MCTS) picks the card that is best on
average over sampled hands, against opponents who also play "best on average"; the game's
own answer is an equilibrium, a mix over cards that no player can exploit. This module
computes one for the payoff tables the round solver (:mod:`sakura.bots.round_solver`) builds,
and knows nothing of any game.

The player of index 0 (the bot) has the same actions in every table and one strategy over all
of them: it does not know which table (which deal of the hidden hands) it is in. Every other
player has its own strategy in each table: it knows its own hand. Each iteration every
strategy moves by regret matching plus (negative regrets reset to zero) against the others'
current strategies (alternating: the bot first, then the others against its new strategy),
and the averages (weighted by the iteration's number, as CFR+ does) are the answer.

Rock-paper-scissors converges to the uniform mix:

>>> rps = [(0.0, 0.0), (-1.0, 1.0), (1.0, -1.0),
...        (1.0, -1.0), (0.0, 0.0), (-1.0, 1.0),
...        (-1.0, 1.0), (1.0, -1.0), (0.0, 0.0)]
>>> s = solve([Table((3, 3), rps)], 500)
>>> [round(x, 2) for x in s.mine]
[0.33, 0.33, 0.33]
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Table:
    """One simultaneous-move game: ``sizes[p]`` actions of player ``p``, and ``payoffs[j]``
    the reward of every player for the joint action ``j`` (row-major over ``sizes``: the last
    player's action varies fastest); ``weight`` is its share of the bot's belief."""

    sizes: tuple[int, ...]
    payoffs: Sequence[Sequence[float]]
    weight: float = 1.0

    def __post_init__(self) -> None:
        joint = 1
        for s in self.sizes:
            joint *= s
        if not self.sizes or min(self.sizes) < 1 or len(self.payoffs) != joint:
            raise ValueError(f"a table of sizes {self.sizes} needs {joint} payoffs, not {len(self.payoffs)}")


@dataclass(frozen=True, slots=True)
class Solution:
    """The average strategies: ``mine`` (player 0's, shared by every table), ``others[t][p]``
    (player ``p``'s in table ``t``; ``others[t][0]`` is ``mine``), and ``values``: each of
    player 0's actions' expected reward against the others' average strategies, over the
    tables by weight (what a best response maximizes)."""

    mine: tuple[float, ...]
    others: tuple[tuple[tuple[float, ...], ...], ...]
    values: tuple[float, ...]

    def best_response(self) -> int:
        """The index of player 0's action of the highest value (the first among equals)."""
        return max(range(len(self.values)), key=lambda i: (self.values[i], -i))

    def most_weighted(self) -> int:
        """The index of player 0's most-weighted action (ties: the higher value)."""
        return max(range(len(self.mine)), key=lambda i: (self.mine[i], self.values[i], -i))


def solve(tables: Sequence[Table], iterations: int) -> Solution:
    """CFR+ over ``tables`` for ``iterations`` rounds of regret matching (see the module
    docstring). Deterministic: no randomness is involved."""
    if not tables:
        raise ValueError("nothing to solve: no tables")
    mine_size = tables[0].sizes[0]
    if any(t.sizes[0] != mine_size for t in tables):
        raise ValueError("player 0 must have the same actions in every table")
    total_weight = sum(t.weight for t in tables)
    joints = [list(itertools.product(*(range(s) for s in t.sizes))) for t in tables]
    my_regret = [0.0] * mine_size
    my_sum = [0.0] * mine_size
    regrets = [[[0.0] * s for s in t.sizes] for t in tables]  # [table][player][action]
    sums = [[[0.0] * s for s in t.sizes] for t in tables]
    for it in range(1, iterations + 1):
        # Alternating updates (as CFR+ does): the bot against the others' current strategies,
        # then the others against the bot's new one.
        mine = _matched(my_regret)
        strategies = [[mine] + [_matched(r) for r in regrets[t][1:]] for t in range(len(tables))]
        my_values = [0.0] * mine_size
        for t, table in enumerate(tables):
            own = _values(table, joints[t], strategies[t])[0]
            for a in range(mine_size):
                my_values[a] += table.weight / total_weight * own[a]
        _update(my_regret, my_values, mine)
        mine = _matched(my_regret)
        for a, x in enumerate(mine):
            my_sum[a] += it * x
        for t, table in enumerate(tables):
            strategy = strategies[t]
            strategy[0] = mine
            values = _values(table, joints[t], strategy)
            for p in range(1, len(table.sizes)):
                _update(regrets[t][p], values[p], strategy[p])
                acc = sums[t][p]
                for a, x in enumerate(_matched(regrets[t][p])):
                    acc[a] += it * x
    mine_avg = _normalized(my_sum)
    others = []
    my_values = [0.0] * mine_size
    for t, table in enumerate(tables):
        average = [mine_avg] + [_normalized(s) for s in sums[t][1:]]
        others.append(tuple(tuple(s) for s in average))
        values = _values(table, joints[t], average)
        for a in range(mine_size):
            my_values[a] += table.weight / total_weight * values[0][a]
    return Solution(tuple(mine_avg), tuple(others), tuple(my_values))


def _matched(regret: Sequence[float]) -> list[float]:
    """Regret matching: each action in proportion to its positive regret (uniform if none)."""
    total = sum(r for r in regret if r > 0.0)
    if total <= 0.0:
        return [1.0 / len(regret)] * len(regret)
    return [r / total if r > 0.0 else 0.0 for r in regret]


def _normalized(weights: Sequence[float]) -> list[float]:
    total = sum(weights)
    if total <= 0.0:
        return [1.0 / len(weights)] * len(weights)
    return [w / total for w in weights]


def _update(regret: list[float], values: Sequence[float], strategy: Sequence[float]) -> None:
    """Regret matching plus: add each action's advantage over the strategy's value, floored at 0."""
    expected = sum(v * s for v, s in zip(values, strategy, strict=True))
    for a, v in enumerate(values):
        r = regret[a] + v - expected
        regret[a] = r if r > 0.0 else 0.0


def _values(
    table: Table, joints: Sequence[tuple[int, ...]], strategy: Sequence[Sequence[float]]
) -> list[list[float]]:
    """Each player's expected reward of each of its actions against the others' strategies.

    For a joint action the chance that the *others* play it is the product of their
    probabilities; with every probability positive that is the whole product over the
    player's own; with one zero only the player holding it sees a positive chance."""
    n = len(table.sizes)
    out = [[0.0] * s for s in table.sizes]
    payoffs = table.payoffs
    for j, acts in enumerate(joints):
        u = payoffs[j]
        probs = [strategy[p][acts[p]] for p in range(n)]
        zeros = [p for p in range(n) if probs[p] == 0.0]
        if len(zeros) > 1:
            continue
        if zeros:
            z = zeros[0]
            rest = 1.0
            for p in range(n):
                if p != z:
                    rest *= probs[p]
            out[z][acts[z]] += rest * u[z]
            continue
        whole = 1.0
        for x in probs:
            whole *= x
        for p in range(n):
            out[p][acts[p]] += whole / probs[p] * u[p]
    return out
