"""The engine's SplitMix64 and its shuffle, over N generators at once (numpy ``uint64``).

A batched game must deal and reshuffle exactly as the reference engine does from the same
seed, so that any game of the batch can be replayed by ``SakuraGame.new_initial_state(seed)``
(``tests/rl/test_batch_differential.py`` does, thousands of times). This module repeats
:class:`sakura.engine.rng.SplitMix64` bit for bit: ``next64`` in wrapping ``uint64``
arithmetic, ``below`` by Lemire's multiply (the 128-bit product from 32-bit limbs) and
``shuffle`` by the same Fisher-Yates with several swap indices read from one draw.

Lemire's method rejects a draw when the product's low half falls under the bound, which
happens with probability below 2**-16 per draw; such a generator's whole shuffle is then done
again by the engine's own generator (exact, and rare enough to cost nothing).

>>> import numpy as np
>>> from sakura.engine.rng import SplitMix64
>>> state = np.array([1, 2], dtype=np.uint64)
>>> items = np.tile(np.arange(10, dtype=np.int16), (2, 1))
>>> shuffle(state, items, np.array([0, 1]), 10)
>>> reference = list(range(10)); SplitMix64(1).shuffle(reference)
>>> items[0].tolist() == reference
True
"""

from __future__ import annotations

from functools import cache

import numpy as np

from sakura.engine.rng import SplitMix64

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)
_S30, _S27, _S31, _S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)
_BATCH = 1 << 48  # as in the engine: one draw covers swaps whose bounds multiply under 2**48


def next64(state: np.ndarray) -> np.ndarray:
    """Advance every generator of ``state`` (in place) and return their next outputs."""
    state += _GOLDEN
    z = state.copy()
    z ^= z >> _S30
    z *= _M1
    z ^= z >> _S27
    z *= _M2
    z ^= z >> _S31
    return z


def below(state: np.ndarray, bound: int) -> tuple[np.ndarray, np.ndarray]:
    """``SplitMix64.below(bound)`` for every generator (``bound`` under 2**48): the values,
    and a flag for the generators whose draw the engine would have rejected and redrawn."""
    x = next64(state)
    b = np.uint64(bound)
    bl, bh = b & _LOW32, b >> _S32
    xl, xh = x & _LOW32, x >> _S32
    ll, lh, hl, hh = xl * bl, xl * bh, xh * bl, xh * bh
    mid = (ll >> _S32) + (lh & _LOW32) + (hl & _LOW32)
    high = hh + (lh >> _S32) + (hl >> _S32) + (mid >> _S32)
    low = x * b  # wraps: the low 64 bits of the product
    return high, low < b


@cache
def schedule(length: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The engine's shuffle of ``length`` items as (bound of one draw, the indices ``i`` it
    swaps, from the end): the same for every generator, so it is worked out once."""
    out: list[tuple[int, tuple[int, ...]]] = []
    i = length - 1
    while i > 0:
        bound, k = 1, i
        while k > 0 and bound * (k + 1) <= _BATCH:
            bound *= k + 1
            k -= 1
        out.append((bound, tuple(range(i, k, -1))))
        i = k
    return tuple(out)


def shuffle(state: np.ndarray, items: np.ndarray, games: np.ndarray, length: int) -> None:
    """Shuffle ``items[g, :length]`` in place with generator ``state[g]`` for every ``g`` of
    ``games`` (indices), exactly as ``SplitMix64(state[g]).shuffle`` would."""
    if len(games) == 0 or length < 2:
        return
    start = state[games].copy()
    before = items[games, :length].copy()
    gens = state[games]
    rows = items[games, :length]
    redo = np.zeros(len(games), dtype=bool)
    ar = np.arange(len(games))
    for bound, swaps in schedule(length):
        r, rejected = below(gens, bound)
        redo |= rejected
        for i in swaps:
            r, j = np.divmod(r, np.uint64(i + 1))
            j = j.astype(np.intp)
            a = rows[:, i].copy()
            rows[:, i] = rows[ar, j]
            rows[ar, j] = a
    for k in np.flatnonzero(redo):  # a rejected draw: the engine's own generator, exactly
        rng = SplitMix64(0)
        rng.state = int(start[k])
        again = before[k].tolist()
        rng.shuffle(again)
        rows[k] = again
        gens[k] = rng.state
    state[games] = gens
    items[games, :length] = rows
