"""Sakura's cards: an order number, a garden action and a painter action, read from data.

The deck is data (``data/deck.txt``) so that a designer can try another deck without touching
code. Actions are small values with text forms that round-trip:

>>> GardenAction.parse("E±1")
GardenAction(kind='E?', amount=1)
>>> str(GardenAction.parse("E+-1")), str(PainterAction.parse("P±3")), str(PainterAction.parse("JUMP"))
('E±1', 'P±3', 'JUMP')
>>> default_deck().card(17)
Card(number=17, garden=GardenAction(kind='E', amount=2), painter=PainterAction(kind='JUMP', amount=0))
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from sakura.engine.errors import InvalidDataError

# Garden action kinds: the Emperor moves (signed amount), the owner chooses the Emperor's
# direction, the painter closest to the Emperor moves, the painter furthest from him moves.
EMPEROR, EMPEROR_CHOICE, CLOSEST, FURTHEST = "E", "E?", "C", "F"
# Painter action kinds: forward (or back) n, owner chooses the direction, jump, count.
MOVE, MOVE_CHOICE, JUMP, COUNT = "P", "P?", "JUMP", "COUNT"

_GARDEN_RE = re.compile(r"^(E|C|F)(\+|-|±|\+-)(\d+)$")
_PAINTER_RE = re.compile(r"^P(\+|-|±|\+-)(\d+)$")


@dataclass(frozen=True, slots=True)
class GardenAction:
    """``kind`` is one of E, E?, C, F; ``amount`` is signed for E, C and F."""

    kind: str
    amount: int

    @classmethod
    def parse(cls, text: str) -> GardenAction:
        m = _GARDEN_RE.match(text.strip())
        if not m:
            raise InvalidDataError(f"not a garden action: {text!r} (expected e.g. E+1, E±1, C-2, F+2)")
        who, sign, n = m.group(1), m.group(2), int(m.group(3))
        if n <= 0:
            raise InvalidDataError(f"a garden action moves at least one space: {text!r}")
        if sign in ("±", "+-"):
            if who != "E":
                raise InvalidDataError(f"only the Emperor's move may offer a choice: {text!r}")
            return cls(EMPEROR_CHOICE, n)
        return cls(who, n if sign == "+" else -n)

    def __str__(self) -> str:
        if self.kind == EMPEROR_CHOICE:
            return f"E±{self.amount}"
        return f"{self.kind}{self.amount:+d}"

    @property
    def is_choice(self) -> bool:
        return self.kind == EMPEROR_CHOICE


@dataclass(frozen=True, slots=True)
class PainterAction:
    """``kind`` is one of P, P?, JUMP, COUNT; ``amount`` is signed for P, 0 for JUMP/COUNT."""

    kind: str
    amount: int = 0

    @classmethod
    def parse(cls, text: str) -> PainterAction:
        t = text.strip()
        if t in (JUMP, COUNT):
            return cls(t, 0)
        m = _PAINTER_RE.match(t)
        if not m:
            raise InvalidDataError(f"not a painter action: {text!r} (expected e.g. P+2, P±3, JUMP, COUNT)")
        sign, n = m.group(1), int(m.group(2))
        if n <= 0:
            raise InvalidDataError(f"a painter action moves at least one space: {text!r}")
        if sign in ("±", "+-"):
            return cls(MOVE_CHOICE, n)
        return cls(MOVE, n if sign == "+" else -n)

    def __str__(self) -> str:
        if self.kind in (JUMP, COUNT):
            return self.kind
        if self.kind == MOVE_CHOICE:
            return f"P±{self.amount}"
        return f"P{self.amount:+d}"

    @property
    def is_choice(self) -> bool:
        return self.kind == MOVE_CHOICE


@dataclass(frozen=True, slots=True)
class Card:
    number: int
    garden: GardenAction
    painter: PainterAction

    def __str__(self) -> str:
        return f"{self.number} {self.garden} {self.painter}"


@dataclass(frozen=True, slots=True)
class Deck:
    """The cards of the box and the tokens that come with them."""

    cards: tuple[Card, ...]
    total_tokens: int = 54
    start_tokens: int = 5

    def __post_init__(self) -> None:
        numbers = [c.number for c in self.cards]
        if len(set(numbers)) != len(numbers):
            raise InvalidDataError("two cards share an order number")
        if any(n <= 0 for n in numbers):
            raise InvalidDataError("order numbers are positive")

    def card(self, number: int) -> Card:
        for c in self.cards:
            if c.number == number:
                return c
        raise KeyError(number)

    @property
    def numbers(self) -> tuple[int, ...]:
        return tuple(c.number for c in self.cards)

    def text(self) -> str:
        """The data-file form of this deck; ``parse_deck(deck.text()) == deck``."""
        lines = [f"tokens: {self.total_tokens}", f"start tokens: {self.start_tokens}"]
        lines += [str(c) for c in self.cards]
        return "\n".join(lines) + "\n"


def parse_deck(text: str, source: str = "deck") -> Deck:
    """Read a deck file: ``tokens: N``, ``start tokens: N`` and one ``number garden painter``
    line per card; ``#`` starts a comment. Errors name ``source`` (the file) and the line:
    ``deck.txt line 14: order number 12 appears twice (...)``."""
    cards: list[Card] = []
    first_line: dict[int, int] = {}
    total, start = 54, 5
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            if line.startswith("tokens:"):
                total = int(line.split(":", 1)[1])
                continue
            if line.startswith("start tokens:"):
                start = int(line.split(":", 1)[1])
                continue
            parts = line.split()
            if len(parts) != 3:
                raise InvalidDataError("expected: order number, garden action, painter action")
            card = Card(int(parts[0]), GardenAction.parse(parts[1]), PainterAction.parse(parts[2]))
        except (InvalidDataError, ValueError) as exc:
            raise InvalidDataError(f"{source} line {lineno}: {raw.strip()!r}: {exc}") from None
        if card.number in first_line:
            raise InvalidDataError(
                f"{source} line {lineno}: order number {card.number} appears twice "
                f"(two cards share an order number; the first is on line "
                f"{first_line[card.number]})"
            )
        first_line[card.number] = lineno
        cards.append(card)
    if not cards:
        raise InvalidDataError(f"{source}: the deck has no cards")
    return Deck(tuple(sorted(cards, key=lambda c: c.number)), total, start)


@cache
def default_deck() -> Deck:
    """The deck of the published game (60 cards, 54 tokens)."""
    text = resources.files(__package__).joinpath("data/deck.txt").read_text(encoding="utf-8")
    return parse_deck(text)
