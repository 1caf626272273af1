"""The cards of the three-area Sakura card game, and how an area scores.

The cards and the scores are data (``data/cards.txt``, read by :func:`parse_cards` into a
:class:`CardsDeck`), as Sakura's deck is: colours, numbers, copies, blossom cards, hand size,
rounds, the three scores and the blossom rule. The module's constants (``DECK``, ``NUMBER``,
``score_area`` ...) are those of the published file.

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
>>> parse_cards(default_cards().text()) == default_cards()
True
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from itertools import combinations
from typing import Any

from sakura.engine.errors import InvalidDataError
from sakura.engine.rng import SplitMix64

AREAS = ("garden", "palace", "temple")  # باغ، قصر، معبد


@dataclass(frozen=True, slots=True)
class CardsDeck:
    """A card game's box: ``copies`` cards of each colour and number, the first copy of each
    of ``blossoms``' numbers bearing a blossom; ``hand`` cards dealt each player a round; an
    area's best three score ``three_colours`` or ``one_colour``, plus ``in_a_row``, plus
    ``blossom`` per blossom card, and 0 with more than ``blossom_limit`` blossoms."""

    colours: tuple[tuple[str, str], ...]  # (letter, name)
    numbers: tuple[int, ...]
    copies: int
    blossoms: tuple[int, ...]
    hand: int
    rounds: int
    three_colours: int
    one_colour: int
    in_a_row: int
    blossom: int
    blossom_limit: int

    def __post_init__(self) -> None:
        """Check the box; each message starts with the data file's key it is about."""
        letters = [letter for letter, _ in self.colours]
        if len(letters) < 3 or len(set(letters)) != len(letters):
            raise InvalidDataError("colours: at least three, each with its own letter")
        if len(self.numbers) < 3 or list(self.numbers) != sorted(set(self.numbers)):
            raise InvalidDataError("numbers: at least three different numbers, lowest first")
        if not set(self.blossoms) <= set(self.numbers):
            raise InvalidDataError("blossoms: numbers whose first copy bears a blossom, among the numbers")
        for key, value in (("copies", self.copies), ("hand", self.hand), ("rounds", self.rounds)):
            if value < 1:
                raise InvalidDataError(f"{key}: at least 1, not {value}")
        if 2 * self.hand > len(self.cards):
            raise InvalidDataError(
                f"hand: two hands of {self.hand} need more than the {len(self.cards)} cards"
            )

    @property
    def cards(self) -> tuple[str, ...]:
        """Every card in the deck's order (the order a round's shuffle starts from)."""
        return tuple(
            f"{letter}{number}{'*' if copy == 0 and number in self.blossoms else ''}"
            for letter, _ in self.colours
            for number in self.numbers
            for copy in range(self.copies)
        )

    def rank_key(self, name: str) -> tuple[int, int, int]:
        """The order of cards in a hand: lowest number first, then by colour, plain first."""
        letters = [letter for letter, _ in self.colours]
        return int(name[1:].rstrip("*")), letters.index(name[0]), len(name)

    @property
    def rules(self) -> tuple[int, int, int, int, int]:
        """The scores as one small hashable value (for the scoring caches)."""
        return self.three_colours, self.one_colour, self.in_a_row, self.blossom, self.blossom_limit

    def text(self) -> str:
        """The data-file form; ``parse_cards(deck.text()) == deck``."""
        return (
            "\n".join(
                [
                    "colours: " + ", ".join(f"{letter} {name}" for letter, name in self.colours),
                    "numbers: " + " ".join(map(str, self.numbers)),
                    f"copies: {self.copies}",
                    "blossoms: " + " ".join(map(str, self.blossoms)),
                    f"hand: {self.hand}",
                    f"rounds: {self.rounds}",
                    f"three colours: {self.three_colours}",
                    f"one colour: {self.one_colour}",
                    f"in a row: {self.in_a_row}",
                    f"blossom: {self.blossom}",
                    f"blossom limit: {self.blossom_limit}",
                ]
            )
            + "\n"
        )


_KEYS = (
    "colours",
    "numbers",
    "copies",
    "blossoms",
    "hand",
    "rounds",
    "three colours",
    "one colour",
    "in a row",
    "blossom",
    "blossom limit",
)
_COLOUR_RE = re.compile(r"^([a-z])\s+(\S.*)$")


def _numbers(value: str) -> tuple[int, ...]:
    """``1-5`` or ``1 2 3 4 5`` (or none at all, for ``blossoms``)."""
    m = re.fullmatch(r"(\d+)\s*-\s*(\d+)", value)
    if m:
        return tuple(range(int(m.group(1)), int(m.group(2)) + 1))
    numbers = tuple(int(word) for word in value.replace(",", " ").split())
    if any(n < 1 for n in numbers):
        raise ValueError("numbers are 1 or more")
    return numbers


def parse_cards(text: str, source: str = "cards") -> CardsDeck:
    """Read a card game's data file (see ``data/cards.txt``): ``key: value`` lines, ``#``
    comments. Errors name ``source`` (the file) and the line."""
    values: dict[str, object] = {}
    lines: dict[str, int] = {}
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, sep, value = (part.strip() for part in line.partition(":"))
        try:
            if not sep or key not in _KEYS:
                raise ValueError(f"expected one of {', '.join(_KEYS)} then ':' and a value")
            if key in values:
                raise ValueError(f"{key!r} appears twice (first on line {lines[key]})")
            if key == "colours":
                colours = []
                for item in value.split(","):
                    m = _COLOUR_RE.match(item.strip())
                    if not m:
                        raise ValueError(f"a colour is a lower-case letter and a name, not {item.strip()!r}")
                    colours.append((m.group(1), m.group(2)))
                values[key] = tuple(colours)
            elif key in ("numbers", "blossoms"):
                values[key] = _numbers(value)
            else:
                number = int(value)
                if number < 0:
                    raise ValueError("a count or a score is 0 or more")
                values[key] = number
        except ValueError as exc:
            raise InvalidDataError(f"{source} line {lineno}: {raw.strip()!r}: {exc}") from None
        lines[key] = lineno
    missing = [key for key in _KEYS if key not in values]
    if missing:
        raise InvalidDataError(f"{source}: no {', '.join(repr(k) for k in missing)} line")
    try:
        return CardsDeck(*(values[key] for key in _KEYS))  # type: ignore[arg-type]
    except InvalidDataError as exc:
        key = str(exc).split(":", 1)[0]
        where = f" line {lines[key]}" if key in lines else ""
        raise InvalidDataError(f"{source}{where}: {exc}") from None


@cache
def default_cards() -> CardsDeck:
    """The published card game (``data/cards.txt``): 40 cards, 8 blossoms."""
    text = resources.files(__package__).joinpath("data/cards.txt").read_text(encoding="utf-8")
    return parse_cards(text, "cards.txt")


_PUBLISHED = default_cards()
COLOURS = "".join(letter for letter, _ in _PUBLISHED.colours)
COLOUR_NAMES = dict(_PUBLISHED.colours)
HAND_SIZE = _PUBLISHED.hand
ROUNDS = _PUBLISHED.rounds
DIFFERENT_COLOURS, ONE_COLOUR, IN_A_ROW, PER_BLOSSOM, BLOSSOM_LIMIT = _PUBLISHED.rules
_RULES = _PUBLISHED.rules

DECK: tuple[str, ...] = _PUBLISHED.cards
"""The 40 cards in a fixed order (the order a round's shuffle starts from)."""


@cache
def card_number(name: str) -> int:
    """A card's number, read from its name (``"r5*"`` -> 5), for any deck's names."""
    return int(name[1:].rstrip("*"))


_number = card_number

NAMES: tuple[str, ...] = tuple(sorted(set(DECK), key=lambda c: (_number(c), COLOURS.index(c[0]), len(c))))
"""The 28 distinct card names, lowest number first, then by colour, plain before blossom."""

RANK = {name: i for i, name in enumerate(NAMES)}
NUMBER = {name: _number(name) for name in NAMES}
COLOUR = {name: name[0] for name in NAMES}
BLOSSOM = {name: name.endswith("*") for name in NAMES}
COPIES = {name: DECK.count(name) for name in NAMES}


def sort_cards(cards: list[str]) -> None:
    """Sort a hand in place, lowest number first (the order of :data:`NAMES`)."""
    cards.sort(key=RANK.__getitem__)


def triple_score(a: str, b: str, c: str, rules: tuple[int, ...] = _RULES) -> int:
    """Three cards: 10 for three colours, 15 for one colour, plus 5 for numbers in a row
    (the published scores; ``rules``: another deck's :attr:`CardsDeck.rules`)."""
    colours = len({a[0], b[0], c[0]})
    points = rules[0] if colours == 3 else rules[1] if colours == 1 else 0
    n = sorted((_number(a), _number(b), _number(c)))
    if n[1] == n[0] + 1 and n[2] == n[1] + 1:
        points += rules[2]
    return points


@lru_cache(maxsize=65536)
def _score(cards: tuple[str, ...], rules: tuple[int, ...] = _RULES) -> int:
    blossoms = sum(1 for c in cards if c.endswith("*"))
    if blossoms > rules[4]:
        return 0
    best = max((triple_score(*t, rules) for t in combinations(cards, 3)), default=0)
    return best + rules[3] * blossoms


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
        return {
            "best": list(self.best),
            "combination": self.combination,
            "run": self.run,
            "blossoms": self.blossoms,
            "points": self.points,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> AreaScore:
        """The explanation whose :meth:`to_dict` is ``data``."""
        return cls(
            best=tuple(data["best"]),
            combination=data["combination"],
            run=data["run"],
            blossoms=data["blossoms"],
            points=data["points"],
        )


def explain_area(cards: Sequence[str]) -> AreaScore:
    """The same score as :func:`score_area`, with the three cards behind it (the first best
    three in rank order when several tie)."""
    return _explain(tuple(sorted(cards, key=RANK.__getitem__)))


@lru_cache(maxsize=16384)
def _explain(cards: tuple[str, ...], rules: tuple[int, ...] = _RULES) -> AreaScore:
    blossoms = sum(1 for c in cards if c.endswith("*"))
    best: tuple[str, ...] = ()
    points = 0
    for triple in combinations(cards, 3):
        score = triple_score(*triple, rules)
        if score > points:
            best, points = triple, score
    colours = len({c[0] for c in best})
    combination = (
        COLOURS_COMBINATION if colours == 3 else ONE_COLOUR_COMBINATION if colours == 1 else NO_COMBINATION
    )
    numbers = sorted(_number(c) for c in best)
    run = len(best) == 3 and numbers[1] == numbers[0] + 1 and numbers[2] == numbers[1] + 1
    total = 0 if blossoms > rules[4] else points + rules[3] * blossoms
    return AreaScore(best, combination, run, blossoms, total)


def deck_score_area(
    deck: CardsDeck,
    cards: Sequence[str],
    order: Mapping[str, int] | None = None,
    rules: tuple[int, ...] | None = None,
) -> int:
    """:func:`score_area` by ``deck``'s scores (the published deck's: the same). ``order``
    (card name -> rank) and ``rules`` (``deck.rules``): precomputed, for the hot path."""
    key = order.__getitem__ if order is not None else deck.rank_key
    return _score(tuple(sorted(cards, key=key)), rules or deck.rules)


def deck_explain_area(
    deck: CardsDeck,
    cards: Sequence[str],
    order: Mapping[str, int] | None = None,
    rules: tuple[int, ...] | None = None,
) -> AreaScore:
    """:func:`explain_area` by ``deck``'s scores."""
    key = order.__getitem__ if order is not None else deck.rank_key
    return _explain(tuple(sorted(cards, key=key)), rules or deck.rules)


def shuffled(cards: Sequence[str], rng: SplitMix64) -> list[str]:
    """A uniformly shuffled copy of ``cards``, drawn from ``rng`` (which shuffles numbers:
    the positions are shuffled, then read back)."""
    order = list(range(len(cards)))
    rng.shuffle(order)
    return [cards[i] for i in order]
