"""SplitMix64, the engine's only source of chance: deterministic, in range, and the same on
every machine (its state is one integer)."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sakura.engine import SplitMix64
from sakura.engine.rng import seed_to_int

words = st.integers(min_value=0, max_value=2**64 - 1)


def test_the_published_outputs_for_seed_zero() -> None:
    """The reference sequence of SplitMix64 (Steele, Lea and Flood; Vigna's splitmix64.c)."""
    rng = SplitMix64(0)
    assert [rng.next64() for _ in range(4)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
        0xF88BB8A8724C81EC,
    ]


@settings(max_examples=200, deadline=None, database=None)
@given(seed=words)
def test_the_same_seed_gives_the_same_numbers(seed: int) -> None:
    a, b = SplitMix64(seed), SplitMix64(seed)
    assert [a.next64() for _ in range(20)] == [b.next64() for _ in range(20)]
    assert [a.below(37) for _ in range(20)] == [b.below(37) for _ in range(20)]
    assert a.state == b.state


@settings(max_examples=200, deadline=None, database=None)
@given(seed=words, skip=st.integers(min_value=0, max_value=50))
def test_the_state_is_one_integer_that_saves_and_restores(seed: int, skip: int) -> None:
    a = SplitMix64(seed)
    for _ in range(skip):
        a.next64()
    b = SplitMix64(0)
    b.state = a.state
    assert [a.below(1000) for _ in range(10)] == [b.below(1000) for _ in range(10)]
    assert repr(a) == f"SplitMix64(state={a.state})" and 0 <= a.state < 2**64


@settings(max_examples=300, deadline=None, database=None)
@given(seed=words, n=st.one_of(st.integers(1, 100), st.integers(1, 2**64)))
def test_below_stays_in_range(seed: int, n: int) -> None:
    rng = SplitMix64(seed)
    for _ in range(20):
        assert 0 <= rng.below(n) < n


@pytest.mark.parametrize("n", [1, 2, 3, 6, 60, 2**32 + 1, 2**63, 2**64 - 1, 2**64])
def test_below_at_the_edges(n: int) -> None:
    rng = SplitMix64(n)
    values = [rng.below(n) for _ in range(200)]
    assert all(0 <= v < n for v in values)
    if n == 1:
        assert set(values) == {0}


def test_below_is_close_to_uniform() -> None:
    rng = SplitMix64(2024)
    counts = [0] * 6
    for _ in range(60_000):
        counts[rng.below(6)] += 1
    assert all(9_500 < c < 10_500 for c in counts), counts


@pytest.mark.parametrize("n", [0, -1, -(2**64), 2**64 + 1, 2**70])
def test_below_needs_a_positive_bound_up_to_2_to_the_64(n: int) -> None:
    """A bound past 2**64 used to loop for ever (no 64-bit draw passes the rejection step)."""
    rng = SplitMix64(1)
    with pytest.raises(ValueError, match="positive bound of at most 2\\*\\*64"):
        rng.below(n)
    assert rng.state == 1  # nothing drawn


@settings(max_examples=200, deadline=None, database=None)
@given(seed=words, items=st.lists(st.integers(), max_size=80))
def test_shuffle_is_a_deterministic_permutation(seed: int, items: list[int]) -> None:
    a, b = list(items), list(items)
    SplitMix64(seed).shuffle(a)
    SplitMix64(seed).shuffle(b)
    assert a == b
    assert sorted(a) == sorted(items)


def test_shuffle_of_small_lists() -> None:
    for items in ([], [7]):
        copy = list(items)
        SplitMix64(3).shuffle(copy)
        assert copy == items


def test_shuffle_reaches_every_order_of_three() -> None:
    orders = set()
    for seed in range(200):
        items = [1, 2, 3]
        SplitMix64(seed).shuffle(items)
        orders.add(tuple(items))
    assert len(orders) == 6


def test_different_seeds_shuffle_a_deck_differently() -> None:
    decks = set()
    for seed in range(50):
        deck = list(range(1, 61))
        SplitMix64(seed).shuffle(deck)
        decks.add(tuple(deck))
    assert len(decks) == 50


def test_seed_to_int() -> None:
    assert seed_to_int(7) == 7 and seed_to_int(0) == 0
    assert seed_to_int(-1) == 2**64 - 1 and seed_to_int(-(2**64)) == 0
    assert seed_to_int(2**64 + 5) == 5
    assert seed_to_int("table 1") == seed_to_int("table 1")
    assert seed_to_int("table 1") != seed_to_int("table 2")
    assert 0 <= seed_to_int("") < 2**64 and 0 <= seed_to_int("桜") < 2**64
    # Text seeds are hashed (SHA-256), so they are the same on every machine and every run.
    assert seed_to_int("sakura") == int.from_bytes(hashlib.sha256(b"sakura").digest()[:8], "big")
    assert SplitMix64("sakura").state == seed_to_int("sakura")
    assert SplitMix64(-1).state == 2**64 - 1


@pytest.mark.parametrize("seed", [1.5, None, True, False, b"x", [1]])
def test_a_seed_is_an_int_or_a_str(seed: object) -> None:
    with pytest.raises(TypeError, match="a seed is an int or a str"):
        seed_to_int(seed)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        SplitMix64(seed)  # type: ignore[arg-type]


def test_shuffle_is_close_to_uniform() -> None:
    """Every order of four items comes up about equally often (24 orders, 24,000 shuffles)."""
    rng = SplitMix64(77)
    counts: dict[tuple[int, ...], int] = {}
    for _ in range(24_000):
        items = [1, 2, 3, 4]
        rng.shuffle(items)
        counts[tuple(items)] = counts.get(tuple(items), 0) + 1
    assert len(counts) == 24
    assert all(800 < c < 1200 for c in counts.values()), counts


def test_shuffle_moves_every_item_everywhere() -> None:
    """Each of 60 cards lands in each place of the deck about equally often."""
    rng = SplitMix64(5)
    first = [0] * 60
    last = [0] * 60
    for _ in range(6_000):
        deck = list(range(60))
        rng.shuffle(deck)
        first[deck[0]] += 1
        last[deck[-1]] += 1
    assert all(50 < c < 160 for c in first + last), (first, last)
