"""The score sheet of a game of the card game: for each round, the points of each player's
garden, palace and temple (with the cards there and the combination that scored), the cards
each discarded face down and gave to the other, the round's sum and the running total; then
the winner and why.

It is read off the game's events, as the engine told them, so the web page shows the engine's
sums and never adds a point itself. A finished game hides nothing the sheet reads (after the
end a discard or a gift is no longer secret): give it the events unfiltered, first to last.

>>> from random import Random
>>> from sakura.engine.games.cards import CardsGame
>>> state, rng, events = CardsGame().new_initial_state(seed=5), Random(5), []
>>> while not state.is_terminal():
...     seat = state.current_players()[0]
...     events += state.apply_action(seat, rng.choice(state.legal_actions(seat)))
>>> sheet = score_sheet(events)
>>> sheet.totals == state.outcome().scores and len(sheet.rounds) == 3
True
>>> sum(r.points(0) for r in sheet.rounds) == sheet.totals[0]
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sakura.engine.games.cards import events as ev
from sakura.engine.games.cards.deck import AREAS, AreaScore
from sakura.engine.protocol import Event


@dataclass(frozen=True)
class RoundSheet:
    """One round as it was scored. Per seat: ``areas`` the points of garden, palace and
    temple; ``cards`` the cards in them; ``detail`` how each scored (the cards behind it and
    their combination); ``discarded`` the cards discarded face down; ``given`` the cards it
    gave the other player; ``totals`` the game's totals after this round."""

    round: int
    areas: tuple[tuple[int, ...], ...]
    cards: tuple[tuple[tuple[str, ...], ...], ...]
    detail: tuple[tuple[AreaScore, ...], ...]
    discarded: tuple[tuple[str, ...], ...]
    given: tuple[tuple[str, ...], ...]
    totals: tuple[int, ...]

    def points(self, seat: int) -> int:
        """What ``seat`` scored this round: its three areas together."""
        return sum(self.areas[seat])

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "areas": [list(a) for a in self.areas],
            "cards": [[list(area) for area in seat] for seat in self.cards],
            "detail": [[d.to_dict() for d in seat] for seat in self.detail],
            "discarded": [list(d) for d in self.discarded],
            "given": [list(g) for g in self.given],
            "totals": list(self.totals),
            "points": [self.points(seat) for seat in range(len(self.areas))],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RoundSheet:
        return cls(
            int(data["round"]),
            tuple(tuple(int(x) for x in a) for a in data["areas"]),
            tuple(tuple(tuple(str(c) for c in area) for area in seat) for seat in data["cards"]),
            tuple(tuple(AreaScore.from_json(d) for d in seat) for seat in data["detail"]),
            tuple(tuple(str(c) for c in d) for d in data["discarded"]),
            tuple(tuple(str(c) for c in g) for g in data["given"]),
            tuple(int(x) for x in data["totals"]),
        )


@dataclass(frozen=True)
class CardsScoreSheet:
    """Every round's sheet, the final totals, the winners (both at a draw) and the engine's
    reason. ``areas`` names the areas in the order of each round's ``areas``."""

    rounds: tuple[RoundSheet, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str

    areas = AREAS

    def order(self) -> tuple[int, ...]:
        """The players as the result lists them: the winners first, then by total."""
        rest = sorted(
            (p for p in range(len(self.totals)) if p not in self.winners), key=lambda p: -self.totals[p]
        )
        return (*self.winners, *rest)

    def to_json(self) -> dict[str, Any]:
        """A plain-JSON form (:meth:`from_json` reads it back equal) that carries the sums a
        page shows (each round's ``points``, ``order``), so no page adds up a point."""
        return {
            "game": "sakura-cards",
            "areas": list(self.areas),
            "rounds": [r.to_json() for r in self.rounds],
            "totals": list(self.totals),
            "winners": list(self.winners),
            "reason": self.reason,
            "order": list(self.order()),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CardsScoreSheet:
        return cls(
            tuple(RoundSheet.from_json(r) for r in data["rounds"]),
            tuple(int(x) for x in data["totals"]),
            tuple(int(x) for x in data["winners"]),
            str(data["reason"]),
        )


class IncompleteCardsGameError(ValueError):
    """The events end before the game does: a score sheet is written at the end."""


def score_sheet(events: Iterable[Event]) -> CardsScoreSheet:
    """The score sheet of a finished card game from all its events, first to last, unfiltered
    (a discard or a gift seen by a spectator has no card: the sheet would not know it)."""
    rounds: list[RoundSheet] = []
    discarded: tuple[list[str], list[str]] = ([], [])
    given: tuple[list[str], list[str]] = ([], [])
    for event in events:
        if isinstance(event, ev.CardDiscarded):
            discarded[event.player].append(_shown(event.card))
        elif isinstance(event, ev.CardGiven):
            given[event.giver].append(_shown(event.card))
        elif isinstance(event, ev.RoundScored):
            rounds.append(
                RoundSheet(
                    event.round,
                    event.areas,
                    event.cards,
                    event.detail,
                    tuple(tuple(d) for d in discarded),
                    tuple(tuple(g) for g in given),
                    event.totals,
                )
            )
            discarded, given = ([], []), ([], [])
        elif isinstance(event, ev.GameEnded):
            return CardsScoreSheet(tuple(rounds), event.scores, event.winners, event.reason)
    raise IncompleteCardsGameError("the game has not ended: no score sheet yet")


def _shown(card: str | None) -> str:
    if card is None:
        raise ValueError("a hidden card: the score sheet reads the events unfiltered")
    return card
