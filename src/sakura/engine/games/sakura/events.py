"""What happens in a game of Sakura, one small value per step, for animation and logs.

Events are public except where a field names cards a viewer may not see: those events
override ``seen_by`` to hide them (``None`` in place of the cards).

The compiled build makes every event but ``RoundStarted`` an extension type (``events.pxd``),
built in C: the ``__init__`` that ``dataclasses`` generates stays interpreted in a compiled
module, and building events was most of what a checked step cost beyond the fast path. So the
classes are frozen dataclasses without ``slots=True`` (Cython's dataclasses take no such
option; an extension type has fixed fields anyway) and ``kind`` is a plain class attribute (an
annotation in an extension type's body would declare a C field). ``RoundStarted`` stays a
Python dataclass: its field ``double`` is a C type's name, which a ``.pxd`` cannot declare.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sakura.engine.protocol import Event
from sakura.engine.protocol import event_from_json as read_event


@dataclass(frozen=True)
class RoundStarted(Event):
    """A new round: everyone chooses. ``double`` is the tactical variant's player who plays
    two cards (one for the court painter), or ``None``."""

    kind = "round_started"
    round: int
    double: int | None = None


@dataclass(frozen=True)
class CardChosen(Event):
    """``player`` has chosen (the others learn that, not what): ``cards`` is hidden from them."""

    kind = "card_chosen"
    player: int
    cards: tuple[int, ...] | None

    def seen_by(self, viewer: int | None) -> Event:
        return self if viewer == self.player else CardChosen(self.player, None)


@dataclass(frozen=True)
class CardsRevealed(Event):
    """All chosen cards turn face up; ``plays`` are (seat, card) in order of resolution.
    ``court_from_deck`` tells whether the court painter's card came off the deck."""

    kind = "cards_revealed"
    plays: tuple[tuple[int, int], ...]
    court_from_deck: bool = False


@dataclass(frozen=True)
class CardResolving(Event):
    kind = "card_resolving"
    seat: int
    card: int


@dataclass(frozen=True)
class ChoiceAsked(Event):
    """``seat`` must choose forward or back for ``part`` ("garden" or "painter") of ``card``."""

    kind = "choice_asked"
    seat: int
    card: int
    part: str


@dataclass(frozen=True)
class ChoiceMade(Event):
    kind = "choice_made"
    seat: int
    card: int
    part: str
    forward: bool


@dataclass(frozen=True)
class EmperorMoved(Event):
    """The Emperor moved (``start == end`` when he could not go back past space 1)."""

    kind = "emperor_moved"
    card: int
    start: int
    end: int


@dataclass(frozen=True)
class PainterMoved(Event):
    """A painter moved. ``cause``: "painter" (its own card's painter action), "closest"
    (C-2), "furthest" (F+2), "jump", "count" or "lineup"."""

    kind = "painter_moved"
    seat: int
    start: int
    end: int
    cause: str
    card: int | None = None


@dataclass(frozen=True)
class PainterStayed(Event):
    """A painter action or garden action had no painter to move, or nowhere to go.
    ``why``: "closest" (JUMP/COUNT of the painter closest to the Emperor), "nobody"
    (no painter closest/furthest), "no_one_ahead" (JUMP/COUNT with nobody in front)."""

    kind = "painter_stayed"
    seat: int | None
    card: int
    why: str


@dataclass(frozen=True)
class Bumped(Event):
    """A painter fell from grace: it reached the Emperor at ``at`` (or he backed onto it there,
    ``by == "emperor"``), lost a token if it had one, and went back to ``end``."""

    kind = "bumped"
    seat: int
    start: int
    at: int
    end: int
    token_lost: bool
    by: str
    card: int


@dataclass(frozen=True)
class CardsDiscarded(Event):
    """The Emperor reached a sakura: the cards of the round not yet resolved are discarded."""

    kind = "cards_discarded"
    cards: tuple[int, ...]


@dataclass(frozen=True)
class SakuraScored(Event):
    """A sakura was scored: ``awards`` are (seat, rank, tokens) in rank order."""

    kind = "sakura_scored"
    sakura: int
    space: int
    awards: tuple[tuple[int, int, int], ...]
    supply: int


@dataclass(frozen=True)
class HandsRefilled(Event):
    """Hands were refilled to five: ``draws[seat]`` are the cards drawn (hidden from others:
    they see only ``counts``)."""

    kind = "hands_refilled"
    counts: tuple[int, ...]
    draws: tuple[tuple[int, ...] | None, ...]

    def seen_by(self, viewer: int | None) -> Event:
        hidden = tuple(d if seat == viewer else None for seat, d in enumerate(self.draws))
        return HandsRefilled(self.counts, hidden)


@dataclass(frozen=True)
class DeckReshuffled(Event):
    """The discard pile became the new deck; ``order`` (top first) is hidden from players."""

    kind = "deck_reshuffled"
    size: int
    order: tuple[int, ...] | None

    def seen_by(self, viewer: int | None) -> Event:
        return DeckReshuffled(self.size, None)


@dataclass(frozen=True)
class GameEnded(Event):
    kind = "game_ended"
    winners: tuple[int, ...]
    tokens: tuple[int, ...]
    reason: str


# Every event of the game by its ``kind``, for reading them back from JSON.
EVENTS: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        RoundStarted,
        CardChosen,
        CardsRevealed,
        CardResolving,
        ChoiceAsked,
        ChoiceMade,
        EmperorMoved,
        PainterMoved,
        PainterStayed,
        Bumped,
        CardsDiscarded,
        SakuraScored,
        HandsRefilled,
        DeckReshuffled,
        GameEnded,
    )
}


def event_from_json(data: Mapping[str, Any]) -> Event:
    """The event whose ``to_json`` is ``data``: ``event_from_json(e.to_json()) == e``.
    Raises :class:`~sakura.engine.errors.InvalidEventError` for anything else.

    >>> event_from_json(CardsRevealed(((0, 17), (1, 40)), False).to_json())
    CardsRevealed(plays=((0, 17), (1, 40)), court_from_deck=False)
    """
    return read_event(data, EVENTS)
