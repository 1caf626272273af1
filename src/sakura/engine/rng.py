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
        """A uniform integer in ``range(n)``, without bias (Lemire's multiply-and-reject)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        m = self.next64() * n
        if (m & _MASK) < n:
            threshold = ((1 << 64) - n) % n
            while (m & _MASK) < threshold:
                m = self.next64() * n
        return m >> 64

    def shuffle(self, items: list[int]) -> None:
        """Shuffle in place: Fisher-Yates from the end, index ``i`` swapped with
        ``below(i + 1)``. The generator is inlined (same draws as calling ``below``) because
        every deal and reshuffle runs through here."""
        z0 = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            while True:
                z0 = (z0 + _GOLDEN) & _MASK
                z = ((z0 ^ (z0 >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                m = (z ^ (z >> 31)) * n
                low = m & _MASK
                if low >= n or low >= ((1 << 64) - n) % n:
                    break
            j = m >> 64
            items[i], items[j] = items[j], items[i]
        self.state = z0
