"""A tiny seeded random number generator whose whole state is one integer.

Why not :class:`random.Random`? Its state is 625 words, which makes saving a game, cloning a
state for tree search and checking a record from another language costly. SplitMix64 is a
well-known 64-bit generator (Steele, Lea and Flood, 2014) that is trivial to re-implement
anywhere, so "the same seed gives the same game" holds byte for byte on every machine.
"""

from __future__ import annotations

import hashlib

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_BATCH = 1 << 48


def seed_to_int(seed: int | str) -> int:
    """Turn a seed (any int, or a text such as a table name) into a 64-bit state.

    >>> seed_to_int(7)
    7
    >>> seed_to_int(-1) == (1 << 64) - 1
    True
    """
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise TypeError(f"a seed is an int or a str, not {type(seed).__name__}")
    if isinstance(seed, str):
        return int.from_bytes(hashlib.sha256(seed.encode()).digest()[:8], "big")
    return seed & _MASK


class SplitMix64:
    """Seeded generator; ``state`` is a plain int that can be saved and restored.

    >>> rng = SplitMix64(1)
    >>> [rng.below(10) for _ in range(5)]
    [5, 7, 9, 4, 4]
    >>> SplitMix64(1).below(10)
    5
    """

    __slots__ = ("state",)

    def __init__(self, seed: int | str = 0) -> None:
        self.state = seed_to_int(seed)

    def __repr__(self) -> str:
        return f"SplitMix64(state={self.state})"

    def next64(self) -> int:
        """The next 64-bit output."""
        self.state = z = (self.state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``, without bias (Lemire's multiply-and-reject).
        ``n`` is at most ``2**64`` (a larger bound would never pass the rejection step)."""
        if not 0 < n <= 1 << 64:
            raise ValueError(f"below() needs a positive bound of at most 2**64, not {n}")
        m = self.next64() * n
        if (m & _MASK) < n:
            threshold = ((1 << 64) - n) % n
            while (m & _MASK) < threshold:
                m = self.next64() * n
        return m >> 64

    def shuffle(self, items: list[int]) -> None:
        """Shuffle in place, exactly uniformly: Fisher-Yates from the end.

        Several swap indices come from one draw: ``r = below(n1 * n2 * ...)`` read in mixed
        radix gives independent uniform indices below ``n1``, ``n2``, ... (the product is
        kept under 2**48 so that ``below`` almost never rejects). Every deal and reshuffle
        runs through here, and one draw for about eight swaps makes it several times faster.
        """
        i = len(items) - 1
        while i > 0:
            bound, k = 1, i
            while k > 0 and bound * (k + 1) <= _BATCH:
                bound *= k + 1
                k -= 1
            r = self.below(bound)
            while i > k:
                r, j = divmod(r, i + 1)
                items[i], items[j] = items[j], items[i]
                i -= 1
