"""Actions of the card game: place a card in an area, discard it (when nothing fits), give one.

A turn is two decisions by the same player: ``place`` (or ``discard``) then ``give``.

>>> parse_action("place r3 garden")
Place(card='r3', area='garden')
>>> str(parse_action("  Give  B5* "))
'give b5*'
>>> parse_action("discard y1")
Discard(card='y1')
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass

from sakura.engine.errors import IllegalActionError
from sakura.engine.games.cards.deck import AREAS, RANK


@dataclass(frozen=True, slots=True)
class Place:
    """Put ``card`` at the right end of one of your areas."""

    card: str
    area: str

    def __str__(self) -> str:
        return f"place {self.card} {self.area}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard ``card`` face down: only when no card of your hand fits in any area."""

    card: str

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True)
class Give:
    """Give ``card`` face down to your opponent."""

    card: str

    def __str__(self) -> str:
        return f"give {self.card}"


CardsAction = Place | Discard | Give

_EXPECTED = "expected 'place CARD AREA', 'discard CARD' or 'give CARD', e.g. 'place r3* garden'"


def parse_action(text: str, names: Container[str] = RANK) -> CardsAction:
    """Read an action's text form; raises :class:`IllegalActionError` on malformed text.
    ``names``: the deck's card names (the published deck's unless given; see
    :meth:`CardsGame.parse_action <sakura.engine.games.cards.game.CardsGame.parse_action>`)."""
    if not isinstance(text, str):
        raise IllegalActionError(f"an action is text, not {type(text).__name__}")
    words = text.strip().lower().split()
    if len(words) >= 2 and words[1] not in names and words[0] in ("place", "discard", "give"):
        raise IllegalActionError(f"not a card: {words[1]!r} (cards are like r1*, b3, y5)")
    if len(words) == 3 and words[0] == "place":
        if words[2] not in AREAS:
            raise IllegalActionError(f"not an area: {words[2]!r} (areas: {', '.join(AREAS)})")
        return Place(words[1], words[2])
    if len(words) == 2 and words[0] == "discard":
        return Discard(words[1])
    if len(words) == 2 and words[0] == "give":
        return Give(words[1])
    raise IllegalActionError(f"not an action: {text!r} ({_EXPECTED})")
