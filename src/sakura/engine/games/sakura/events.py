"""What happens in a game of Sakura, one small value per step, for animation and logs.

Events are public except where a field names cards a viewer may not see: those events
override ``seen_by`` to hide them (``None`` in place of the cards).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from sakura.engine.protocol import Event


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    """A new round: everyone chooses. ``double`` is the tactical variant's player who plays
    two cards (one for the court painter), or ``None``."""

    kind: ClassVar[str] = "round_started"
    round: int
    double: int | None = None


@dataclass(frozen=True, slots=True)
class CardChosen(Event):
    """``player`` has chosen (the others learn that, not what): ``cards`` is hidden from them."""

    kind: ClassVar[str] = "card_chosen"
    player: int
    cards: tuple[int, ...] | None

    def seen_by(self, viewer: int | None) -> Event:
        return self if viewer == self.player else CardChosen(self.player, None)


@dataclass(frozen=True, slots=True)
class CardsRevealed(Event):
    """All chosen cards turn face up; ``plays`` are (seat, card) in order of resolution.
    ``court_from_deck`` tells whether the court painter's card came off the deck."""

    kind: ClassVar[str] = "cards_revealed"
    plays: tuple[tuple[int, int], ...]
    court_from_deck: bool = False


@dataclass(frozen=True, slots=True)
class CardResolving(Event):
    kind: ClassVar[str] = "card_resolving"
    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class ChoiceAsked(Event):
    """``seat`` must choose forward or back for ``part`` ("garden" or "painter") of ``card``."""

    kind: ClassVar[str] = "choice_asked"
    seat: int
    card: int
    part: str


@dataclass(frozen=True, slots=True)
class ChoiceMade(Event):
    kind: ClassVar[str] = "choice_made"
    seat: int
    card: int
    part: str
    forward: bool


@dataclass(frozen=True, slots=True)
class EmperorMoved(Event):
    """The Emperor moved (``start == end`` when he could not go back past space 1)."""

    kind: ClassVar[str] = "emperor_moved"
    card: int
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class PainterMoved(Event):
    """A painter moved. ``cause``: "painter" (its own card's painter action), "closest"
    (C-2), "furthest" (F+2), "jump", "count" or "lineup"."""

    kind: ClassVar[str] = "painter_moved"
    seat: int
    start: int
    end: int
    cause: str
    card: int | None = None


@dataclass(frozen=True, slots=True)
class PainterStayed(Event):
    """A painter action or garden action had no painter to move, or nowhere to go.
    ``why``: "closest" (JUMP/COUNT of the painter closest to the Emperor), "nobody"
    (no painter closest/furthest), "no_one_ahead" (JUMP/COUNT with nobody in front)."""

    kind: ClassVar[str] = "painter_stayed"
    seat: int | None
    card: int
    why: str


@dataclass(frozen=True, slots=True)
class Bumped(Event):
    """A painter fell from grace: it reached the Emperor at ``at`` (or he backed onto it there,
    ``by == "emperor"``), lost a token if it had one, and went back to ``end``."""

    kind: ClassVar[str] = "bumped"
    seat: int
    start: int
    at: int
    end: int
    token_lost: bool
    by: str
    card: int


@dataclass(frozen=True, slots=True)
class CardsDiscarded(Event):
    """The Emperor reached a sakura: the cards of the round not yet resolved are discarded."""

    kind: ClassVar[str] = "cards_discarded"
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SakuraScored(Event):
    """A sakura was scored: ``awards`` are (seat, rank, tokens) in rank order."""

    kind: ClassVar[str] = "sakura_scored"
    sakura: int
    space: int
    awards: tuple[tuple[int, int, int], ...]
    supply: int


@dataclass(frozen=True, slots=True)
class HandsRefilled(Event):
    """Hands were refilled to five: ``draws[seat]`` are the cards drawn (hidden from others:
    they see only ``counts``)."""

    kind: ClassVar[str] = "hands_refilled"
    counts: tuple[int, ...]
    draws: tuple[tuple[int, ...] | None, ...]

    def seen_by(self, viewer: int | None) -> Event:
        hidden = tuple(d if seat == viewer else None for seat, d in enumerate(self.draws))
        return HandsRefilled(self.counts, hidden)


@dataclass(frozen=True, slots=True)
class DeckReshuffled(Event):
    """The discard pile became the new deck; ``order`` (top first) is hidden from players."""

    kind: ClassVar[str] = "deck_reshuffled"
    size: int
    order: tuple[int, ...] | None

    def seen_by(self, viewer: int | None) -> Event:
        return DeckReshuffled(self.size, None)


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    kind: ClassVar[str] = "game_ended"
    winners: tuple[int, ...]
    tokens: tuple[int, ...]
    reason: str
