"""Who finished ahead of whom: the head-to-head matrix of a tournament.

For each ordered pair of bots (row, column) that met at a table, the share of their meetings
in which the row finished ahead of the column: a winner is ahead of a non-winner, then more
tokens (points) are ahead, and an exact tie counts one half. Every pair of seats of a game is
one meeting (three copies of ``greedy`` meet ``mcts:200`` three times a game); the games of one
deal (its seat rotations) are not independent, so the 95% interval is clustered by deal
(:class:`~sakura.tournament.intervals.Clustered`), as every other figure of a tournament.

>>> from sakura.tournament.play import GameResult
>>> def game(deal, seats, winners, scores):
...     return GameResult(0, deal, 0, seats, winners, scores, (), 0, 0, (), ())
>>> games = [game(0, ("a", "b"), (0,), (5, 3)), game(0, ("b", "a"), (1,), (2, 4)),
...          game(1, ("a", "b"), (1,), (3, 6)), game(1, ("b", "a"), (0, 1), (4, 4))]
>>> m = head_to_head(games)
>>> round(m[("a", "b")].value, 3), round(m[("b", "a")].value, 3), m[("a", "b")].clusters
(0.625, 0.375, 2)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from sakura.tournament.intervals import RATE, Clustered, Estimate
from sakura.tournament.play import GameResult

Matrix = dict[tuple[str, str], Estimate]


def finish_keys(result: GameResult) -> list[tuple[bool, int]]:
    """Each seat's place as a sortable key: a winner first, then by score."""
    return [(seat in result.winners, score) for seat, score in enumerate(result.scores)]


def head_to_head(results: Sequence[GameResult]) -> Matrix:
    """For each ordered pair (row, column) of different bots met at a table, the row's share
    of finishing ahead of the column, clustered by deal."""
    pairs: dict[tuple[str, str], Clustered] = {}  # one a pair: its deals are those it met on
    for r in results:
        keys = finish_keys(r)
        for i, j in itertools.permutations(range(len(r.seats)), 2):
            a, b = r.seats[i], r.seats[j]
            if a == b:
                continue
            y = 1.0 if keys[i] > keys[j] else 0.5 if keys[i] == keys[j] else 0.0
            pairs.setdefault((a, b), Clustered()).add(r.deal, (a, b), y)
    return {pair: pairs[pair].ratio(pair, RATE) for pair in sorted(pairs)}


def cell(e: Estimate | None) -> str:
    """A matrix cell as a person reads it: ``62% (55–69)``, or ``—`` for no meeting."""
    return "—" if e is None else f"{100 * e.value:.0f}% ({100 * e.low:.0f}–{100 * e.high:.0f})"


def to_json(specs: Sequence[str], matrix: Matrix) -> list[dict[str, Any]]:
    """The matrix as rows of plain data (the tournament JSON's ``head_to_head``)."""
    return [
        {
            "row": a,
            "column": b,
            "ahead": round(e.value, 4),
            "ci_low": round(e.low, 4),
            "ci_high": round(e.high, 4),
            "meetings": e.n,
            "deals": e.clusters,
        }
        for a in specs
        for b in specs
        if (e := matrix.get((a, b))) is not None
    ]


CSV_FIELDS = ("row", "column", "ahead", "ci_low", "ci_high", "meetings", "deals")
