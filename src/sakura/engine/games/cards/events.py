"""What happens in the card game, one small value per step. Hidden cards are redacted by
``seen_by``: a deal shows each player only their own hand, a gift is seen by giver and receiver
only, a discard by the discarding player only.

As in the Sakura game's events, the compiled build makes each event an extension type
(``events.pxd``); hence frozen dataclasses without ``slots=True`` and ``kind`` unannotated."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sakura.engine.games.cards.deck import AreaScore
from sakura.engine.protocol import Event
from sakura.engine.protocol import event_from_json as read_event


@dataclass(frozen=True)
class RoundStarted(Event):
    kind = "round_started"
    round: int
    starter: int


@dataclass(frozen=True)
class CardsDealt(Event):
    """Ten cards to each player (``hands[seat]``, hidden from others); ``aside`` cards set
    aside unseen."""

    kind = "cards_dealt"
    hands: tuple[tuple[str, ...] | None, ...]
    aside: int

    def seen_by(self, viewer: int | None) -> Event:
        return CardsDealt(tuple(h if s == viewer else None for s, h in enumerate(self.hands)), self.aside)


@dataclass(frozen=True)
class CardPlaced(Event):
    kind = "card_placed"
    player: int
    card: str
    area: str


@dataclass(frozen=True)
class CardDiscarded(Event):
    """No card fitted: ``player`` discarded one face down (``card`` hidden from others)."""

    kind = "card_discarded"
    player: int
    card: str | None

    def seen_by(self, viewer: int | None) -> Event:
        return self if viewer == self.player else CardDiscarded(self.player, None)


@dataclass(frozen=True)
class CardGiven(Event):
    """``giver`` gave ``card`` face down to ``receiver`` (only those two see which)."""

    kind = "card_given"
    giver: int
    receiver: int
    card: str | None

    def seen_by(self, viewer: int | None) -> Event:
        if viewer == self.giver or viewer == self.receiver:
            return self
        return CardGiven(self.giver, self.receiver, None)


@dataclass(frozen=True)
class RoundScored(Event):
    """``areas[seat]`` are the scores of garden, palace and temple; ``totals`` the game so far;
    ``cards[seat]`` the three areas as they were scored and ``detail[seat]`` how each scored
    (the areas are cleared for the next round right after, so this is the only record)."""

    kind = "round_scored"
    round: int
    areas: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    cards: tuple[tuple[tuple[str, ...], ...], ...] = ()
    detail: tuple[tuple[AreaScore, ...], ...] = ()


@dataclass(frozen=True)
class GameEnded(Event):
    kind = "game_ended"
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    reason: str


# Every event of the game by its ``kind``, for reading them back from JSON.
EVENTS: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (RoundStarted, CardsDealt, CardPlaced, CardDiscarded, CardGiven, RoundScored, GameEnded)
}


def event_from_json(data: Mapping[str, Any]) -> Event:
    """The event whose ``to_json`` is ``data``: ``event_from_json(e.to_json()) == e`` (a
    round's score explanations read back as :class:`AreaScore` values).

    >>> event_from_json(CardPlaced(0, "r3", "garden").to_json())
    CardPlaced(player=0, card='r3', area='garden')
    """
    event = read_event(data, EVENTS)
    if isinstance(event, RoundScored) and event.detail:
        detail = tuple([tuple([AreaScore.from_json(a) for a in seat]) for seat in data["detail"]])
        return RoundScored(event.round, event.areas, event.totals, event.cards, detail)
    return event
