"""The cards of the three-area Sakura card game, and how an area scores.

A card is named by its text: colour letter (``r`` red, ``b`` blue, ``g`` green, ``y`` yellow),
number (1-5), and ``*`` if it bears a cherry blossom. Two cards of the same name are
interchangeable, so the name *is* the card's stable id (``"r1*"``, ``"b3"``).

>>> len(DECK), DECK.count("r3"), DECK.count("r1*"), sum(BLOSSOM[c] for c in DECK)
(40, 2, 1, 8)
>>> score_area(["b1", "g2", "r3"])  # the seed's example: three colours, in a row
15
>>> score_area(["b1*", "g2", "r3"]), score_area(["b1*", "g2", "r5*"])
(18, 0)
>>> explain_area(["y4", "b1*", "g2", "r3"])
AreaScore(best=('b1*', 'g2', 'r3'), combination='colours', run=True, blossoms=1, points=18)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from sakura.engine.rng import SplitMix64

COLOURS = "rbgy"
COLOUR_NAMES = {"r": "red", "b": "blue", "g": "green", "y": "yellow"}
AREAS = ("garden", "palace", "temple")  # باغ، قصر، معبد
HAND_SIZE = 10
ROUNDS = 3
DIFFERENT_COLOURS, ONE_COLOUR, IN_A_ROW, PER_BLOSSOM = 10, 15, 5, 3


def _deck() -> tuple[str, ...]:
    cards: list[str] = []
    for colour in COLOURS:
        for number in range(1, 6):
            blossom = number in (1, 5)
            cards.append(f"{colour}{number}{'*' if blossom else ''}")
            cards.append(f"{colour}{number}")
    return tuple(cards)


DECK: tuple[str, ...] = _deck()
"""The 40 cards in a fixed order (the order a round's shuffle starts from)."""

NAMES: tuple[str, ...] = tuple(sorted(set(DECK), key=lambda c: (int(c[1]), COLOURS.index(c[0]), len(c))))
"""The 28 distinct card names, lowest number first, then by colour, plain before blossom."""

RANK = {name: i for i, name in enumerate(NAMES)}
NUMBER = {name: int(name[1]) for name in NAMES}
COLOUR = {name: name[0] for name in NAMES}
BLOSSOM = {name: name.endswith("*") for name in NAMES}
COPIES = {name: DECK.count(name) for name in NAMES}


def sort_cards(cards: list[str]) -> None:
    """Sort a hand in place, lowest number first (the order of :data:`NAMES`)."""
    cards.sort(key=RANK.__getitem__)


def triple_score(a: str, b: str, c: str) -> int:
    """Three cards: 10 for three colours, 15 for one colour, plus 5 for numbers in a row."""
    colours = len({a[0], b[0], c[0]})
    points = DIFFERENT_COLOURS if colours == 3 else ONE_COLOUR if colours == 1 else 0
    n = sorted((NUMBER[a], NUMBER[b], NUMBER[c]))
    if n[1] == n[0] + 1 and n[2] == n[1] + 1:
        points += IN_A_ROW
    return points


@lru_cache(maxsize=65536)
def _score(cards: tuple[str, ...]) -> int:
    blossoms = sum(1 for c in cards if BLOSSOM[c])
    if blossoms > 1:
        return 0
    best = max((triple_score(*t) for t in combinations(cards, 3)), default=0)
    return best + PER_BLOSSOM * blossoms


def score_area(cards: Sequence[str]) -> int:
    """An area's score: its best three cards (any three, 0 with fewer than three), plus 3 for
    each blossom card anywhere in it; an area holding more than one blossom scores 0."""
    return _score(tuple(sorted(cards, key=RANK.__getitem__)))


# What three cards make, apart from a run: three different colours, one colour, or neither.
COLOURS_COMBINATION, ONE_COLOUR_COMBINATION, NO_COMBINATION = "colours", "one_colour", "none"


@dataclass(frozen=True, slots=True)
class AreaScore:
    """How an area scores, for players to read: ``best`` are the three cards that score
    (empty below three cards, or when no three score anything), ``combination`` what they make
    (``colours``: three different, ``one_colour``, ``none``), ``run`` whether their numbers
    follow each other, ``blossoms`` the area's blossom cards (more than one: ``points`` is 0)."""

    best: tuple[str, ...]
    combination: str
    run: bool
    blossoms: int
    points: int

    def to_dict(self) -> dict[str, object]:
        return {"best": list(self.best), "combination": self.combination, "run": self.run,
                "blossoms": self.blossoms, "points": self.points}


def explain_area(cards: Sequence[str]) -> AreaScore:
    """The same score as :func:`score_area`, with the three cards behind it (the first best
    three in rank order when several tie)."""
    return _explain(tuple(sorted(cards, key=RANK.__getitem__)))


@lru_cache(maxsize=16384)
def _explain(cards: tuple[str, ...]) -> AreaScore:
    blossoms = sum(1 for c in cards if BLOSSOM[c])
    best: tuple[str, ...] = ()
    points = 0
    for triple in combinations(cards, 3):
        score = triple_score(*triple)
        if score > points:
            best, points = triple, score
    colours = len({c[0] for c in best})
    combination = (COLOURS_COMBINATION if colours == 3 else ONE_COLOUR_COMBINATION if colours == 1
                   else NO_COMBINATION)
    numbers = sorted(NUMBER[c] for c in best)
    run = len(best) == 3 and numbers[1] == numbers[0] + 1 and numbers[2] == numbers[1] + 1
    total = 0 if blossoms > 1 else points + PER_BLOSSOM * blossoms
    return AreaScore(best, combination, run, blossoms, total)


def shuffled(cards: Sequence[str], rng: SplitMix64) -> list[str]:
    """A uniformly shuffled copy of ``cards``, drawn from ``rng`` (which shuffles numbers:
    the positions are shuffled, then read back)."""
    order = list(range(len(cards)))
    rng.shuffle(order)
    return [cards[i] for i in order]
