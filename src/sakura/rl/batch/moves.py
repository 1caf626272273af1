"""How pieces move, for many games at once: the garden's movement rules as array operations.

Each function takes ``games`` (distinct game indices) and, where a painter moves, ``seats``
(one a game), and changes the :class:`~sakura.rl.batch.rules.Games` arrays in place. The rules
are those of ``SakuraState`` (``docs/rules.md``, rulings 1-5, 7, 14 and 23): a painter counts
only spaces free of other painters; reaching the Emperor is a bump (a token to the supply,
three free spaces back from his space); the gate holds any number and ends backward moves.

Where the engine walks space by space, these hold a game's spaces as the bits of one uint64
(a garden has under 64 spaces) and count free spaces with bit tricks: the lowest set bit
(``x & -x``) forward, the highest (the float exponent of ``x``) backward, a step per space
counted, which finds the same space without a loop per game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from sakura.rl.batch.rules import Games

Index = np.ndarray
_ONE = _GATE = np.uint64(1)
_ZERO = np.uint64(0)


def others(g: Games, games: Index, seats: Index) -> np.ndarray:
    """The spaces where a painter other than ``seats`` stands, as bits (the gate left out:
    moves never count it as taken)."""
    bit = g.t.bit
    taken = np.bitwise_or.reduce(bit[g.pos[games]], axis=1)
    out: np.ndarray = taken & ~bit[g.pos[games, seats]] & ~_GATE  # only the gate holds two painters
    return out


def _top(bits: np.ndarray) -> np.ndarray:
    """The highest space in each set of ``bits`` (-1 for an empty set)."""
    return np.frexp(bits.astype(np.float64))[1].astype(np.int64) - 1  # exact up to 2**53


def forward_target(g: Games, occupied: np.ndarray, start: Index, steps: Index, emperor: Index) -> np.ndarray:
    """The ``steps``-th space after ``start`` not in ``occupied``, or -1 where the move
    reaches the Emperor's space (a bump) first."""
    t = g.t
    free = ~occupied & t.above[start] & t.below[emperor]  # the spaces short of the Emperor
    for k in range(1, int(steps.max(initial=1))):
        free = np.where(steps > k, free & (free - _ONE), free)  # the lowest free space passed
    return _top(free & (~free + _ONE))  # the lowest left, or -1 if none: the Emperor


def backward_target(g: Games, occupied: np.ndarray, start: Index, steps: Index) -> np.ndarray:
    """``steps`` free spaces back from ``start``; the gate counts as free and ends the move."""
    t = g.t
    free = ~occupied & t.below[start] | np.where(start > 0, _GATE, _ZERO)
    for k in range(1, int(steps.max(initial=1))):
        top = np.maximum(_top(free), 0)
        free = np.where((steps > k) & (free > _GATE), free ^ t.bit[top], free)
    out: np.ndarray = np.maximum(_top(free), 0)
    return out


def bump(g: Games, games: Index, seats: Index) -> None:
    """``seats`` fall from grace at the Emperor's space: one token back to the supply (if they
    have one) and three free spaces back from his space, their own space counting as free."""
    if len(games) == 0:
        return
    occupied = others(g, games, seats)
    g.pos[games, seats] = backward_target(g, occupied, g.emperor[games], np.full(len(games), 3))
    lost = g.tokens[games, seats] > 0
    g.tokens[games, seats] -= lost
    g.supply[games] += lost


def move_painters(g: Games, games: Index, seats: Index, amounts: Index) -> None:
    """Move each painter ``amounts`` free spaces (signed); reaching the Emperor is a bump."""
    fwd = amounts > 0
    if fwd.any():
        ga, sa = games[fwd], seats[fwd]
        target = forward_target(g, others(g, ga, sa), g.pos[ga, sa], amounts[fwd], g.emperor[ga])
        hit = target < 0
        g.pos[ga[~hit], sa[~hit]] = target[~hit]
        bump(g, ga[hit], sa[hit])
    back = amounts < 0
    if back.any():
        gb, sb = games[back], seats[back]
        g.pos[gb, sb] = backward_target(g, others(g, gb, sb), g.pos[gb, sb], -amounts[back])


def move_emperor(g: Games, games: Index, amounts: Index) -> None:
    """Forward he stops on the next unscored sakura (scoring follows the card); backward he
    never leaves space 1 and bumps a painter on each space he steps onto."""
    fwd = amounts > 0
    if fwd.any():
        gf = games[fwd]
        e = g.emperor[gf] + amounts[fwd]
        nxt = g.t.sakuras[g.scored[gf]]
        reach = e >= nxt
        g.emperor[gf] = np.where(reach, nxt, e)
        g.scoring[gf] |= reach
    back = amounts < 0
    if not back.any():
        return
    gb, left = games[back], -amounts[back]
    while len(gb):
        step = g.emperor[gb] > 1
        gb, left = gb[step], left[step]
        g.emperor[gb] -= 1
        here = g.pos[gb] == g.emperor[gb][:, None]
        hit = here.any(axis=1)
        bump(g, gb[hit], np.argmax(here[hit], axis=1))
        left = left - 1
        gb, left = gb[left > 0], left[left > 0]


def closest(g: Games, games: Index) -> np.ndarray:
    """The painter on the highest space (the first seat of a tie), -1 if all are on the gate."""
    pos = g.pos[games]
    seat = np.argmax(pos, axis=1)
    seat[pos.max(axis=1) == 0] = -1
    out: np.ndarray = seat
    return out


def furthest(g: Games, games: Index) -> np.ndarray:
    """The painter on the lowest space; -1 if two or more share the gate."""
    pos = g.pos[games]
    seat = np.argmin(pos, axis=1)
    seat[np.count_nonzero(pos == 0, axis=1) > 1] = -1
    out: np.ndarray = seat
    return out


def ahead_of(g: Games, games: Index, seats: Index) -> np.ndarray:
    """``(m, painters)``: the other painters on a space beyond each seat's."""
    pos = g.pos[games]
    me = pos[np.arange(len(games)), seats]
    ahead = pos > me[:, None]
    ahead[np.arange(len(games)), seats] = False
    out: np.ndarray = ahead
    return out


def jump(g: Games, games: Index, seats: Index) -> None:
    """To the first free space beyond the next painter ahead; nobody ahead: no move."""
    ahead = ahead_of(g, games, seats)
    some = ahead.any(axis=1)
    games, seats, ahead = games[some], seats[some], ahead[some]
    if len(games) == 0:
        return
    nearest = np.where(ahead, g.pos[games], g.t.spaces).min(axis=1)
    one = np.ones(len(games), dtype=np.int64)
    target = forward_target(g, others(g, games, seats), nearest, one, g.emperor[games])
    hit = target < 0
    g.pos[games[~hit], seats[~hit]] = target[~hit]
    bump(g, games[hit], seats[hit])


def count(g: Games, games: Index, seats: Index) -> None:
    """Forward one free space per painter ahead (between you and the Emperor)."""
    n = np.count_nonzero(ahead_of(g, games, seats), axis=1)
    some = n > 0
    move_painters(g, games[some], seats[some], n[some])
