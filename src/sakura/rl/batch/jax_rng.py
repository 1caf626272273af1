"""The engine's SplitMix64 and its shuffle for one game, in JAX (``vmap`` makes them N).

As :mod:`.rng` does for numpy: ``next64`` in wrapping ``uint64`` arithmetic (so this module
turns on JAX's 64-bit types, ``jax_enable_x64``, when imported), ``below`` by Lemire's
multiply with its rejection done exactly (a ``while_loop``), and the shuffle's schedule of
draws and swaps looked up by length (:func:`shuffle_schedule`), since a reshuffled discard
pile has any length.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from sakura.rl.batch.rng import schedule

jax.config.update("jax_enable_x64", True)  # type: ignore[no-untyped-call, unused-ignore]  # typed only where JAX is installed

U64 = jnp.uint64
_GOLDEN, _M1, _M2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
_LOW32 = 0xFFFFFFFF


def next64(state: jax.Array) -> tuple[jax.Array, jax.Array]:
    state = state + U64(_GOLDEN)
    z = state
    z = (z ^ (z >> U64(30))) * U64(_M1)
    z = (z ^ (z >> U64(27))) * U64(_M2)
    return state, z ^ (z >> U64(31))


def _mul(x: jax.Array, b: jax.Array) -> tuple[jax.Array, jax.Array]:
    """The high and low 64 bits of ``x * b`` (from 32-bit limbs)."""
    low32, s32 = U64(_LOW32), U64(32)
    bl, bh, xl, xh = b & low32, b >> s32, x & low32, x >> s32
    ll, lh, hl, hh = xl * bl, xl * bh, xh * bl, xh * bh
    mid = (ll >> s32) + (lh & low32) + (hl & low32)
    return hh + (lh >> s32) + (hl >> s32) + (mid >> s32), x * b


def below(state: jax.Array, bound: jax.Array) -> tuple[jax.Array, jax.Array]:
    """``SplitMix64.below(bound)``: the new state and the value (Lemire, rejections redrawn)."""
    threshold = (U64(0) - bound) % bound

    def draw(st: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
        st, x = next64(st)
        high, low = _mul(x, bound)
        return st, high, low

    state, high, _ = jax.lax.while_loop(lambda c: c[2] < threshold, lambda c: draw(c[0]), draw(state))
    return state, high


def shuffle_schedule(cards: int) -> tuple[np.ndarray, np.ndarray]:
    """For every length 0..cards: the bound of each draw (0: none) and the indices each draw
    swaps (-1: none), padded to one shape, as the engine's shuffle does them."""
    plans = [schedule(n) if n > 1 else () for n in range(cards + 1)]
    draws = max(len(p) for p in plans)
    swaps = max((len(s) for p in plans for _, s in p), default=1)
    bounds = np.zeros((cards + 1, draws), dtype=np.uint64)
    index = np.full((cards + 1, draws, swaps), -1, dtype=np.int64)
    for n, plan in enumerate(plans):
        for d, (bound, idx) in enumerate(plan):
            bounds[n, d] = bound
            index[n, d, : len(idx)] = idx
    return bounds, index


def shuffle(
    state: jax.Array, items: jax.Array, length: jax.Array, plan: tuple[jax.Array, jax.Array]
) -> tuple[jax.Array, jax.Array]:
    """``items[:length]`` shuffled as ``SplitMix64.shuffle`` does; the new generator state."""
    bounds, index = plan[0][length], plan[1][length]

    def one_draw(d: int, carry: tuple[jax.Array, jax.Array]) -> tuple[jax.Array, jax.Array]:
        st, its = carry
        bound = bounds[d]
        used = bound > 0
        new, r = below(st, jnp.maximum(bound, U64(1)))
        st = jnp.where(used, new, st)
        for s in range(index.shape[1]):
            i = index[d, s]
            ok = i >= 0
            size = jnp.maximum(i + 1, 1).astype(U64)
            j = (r % size).astype(jnp.int64)
            r = jnp.where(ok, r // size, r)
            i = jnp.maximum(i, 0)
            a, b = its[i], its[j]
            its = its.at[i].set(jnp.where(ok, b, a))
            its = its.at[j].set(jnp.where(ok, a, its[j]))
        return st, its

    out: tuple[jax.Array, jax.Array] = jax.lax.fori_loop(0, bounds.shape[0], one_draw, (state, items))
    return out
