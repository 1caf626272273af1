"""What one player may see of the card game.

A player sees their own hand, the cards they gave and received this round, their own face-down
discards, every area (public), the scores, and how many cards the opponent holds and has
discarded. Never the opponent's hand or discards, the set-aside cards or the generator.
``to_json`` is plain JSON and :meth:`CardsView.from_json` reads it back into an equal view.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sakura.engine.errors import InvalidViewError, NoSuchPlayerError
from sakura.engine.games.cards.deck import AreaScore
from sakura.engine.protocol import Outcome, Progress, tupled

if TYPE_CHECKING:
    from sakura.engine.games.cards.state import CardsState

Cards = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CardsView:
    player: int | None  # None: a spectator
    round: int
    starter: int  # who started this round
    turn: int | None  # whose turn (None at the end)
    phase: str | None  # "place" or "give" (None at the end)
    areas: tuple[tuple[Cards, ...], ...]  # [seat][garden, palace, temple], public
    area_scores: tuple[tuple[int, ...], ...]  # what each area would score now
    area_details: tuple[tuple[AreaScore, ...], ...]  # and with which three cards
    hand: Cards | None  # own hand (None for spectators)
    hand_sizes: tuple[int, ...]
    given: Cards | None  # the cards this player gave this round, in order
    received: Cards | None  # the cards this player received this round, in order
    discarded: Cards | None  # own face-down discards this round
    discard_counts: tuple[int, ...]
    aside: int  # cards set aside unseen this round
    round_scores: tuple[tuple[int, ...], ...]  # [seat][finished round]
    totals: tuple[int, ...]
    current_players: tuple[int, ...]
    legal_actions: tuple[str, ...]
    terminal: bool
    outcome: Outcome | None

    @property
    def progress(self) -> Progress:
        """The round, the decision pending (``"place"``, which may be a discard, or
        ``"give"``; ``None`` at the end) and whose it is."""
        return Progress(self.round, self.phase, self.current_players)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in _FIELDS:
            value = getattr(self, name)
            out[name] = value.to_dict() if isinstance(value, Outcome) else _plain(value)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CardsView:
        """The view whose :meth:`to_json` is ``data``; raises :class:`InvalidViewError` for
        anything else."""
        try:
            outcome = data["outcome"]
            details = data["area_details"]
            return cls(
                **{name: tupled(data[name]) for name in _FIELDS if name not in ("area_details", "outcome")},
                area_details=tuple([tuple([AreaScore.from_json(a) for a in seat]) for seat in details]),
                outcome=None if outcome is None else Outcome.from_dict(outcome),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidViewError(f"not a view of the card game: {type(exc).__name__} {exc}") from None


_FIELDS = tuple(CardsView.__dataclass_fields__)


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value.to_dict() if isinstance(value, AreaScore) else value


def make_view(state: CardsState, player: int | None) -> CardsView:
    if player is not None and (isinstance(player, bool) or player not in (0, 1)):
        raise NoSuchPlayerError(f"there is no player {player}")
    me = player
    return CardsView(
        player=me,
        round=state.round,
        starter=state.starter,
        turn=None if state.terminal else state.turn,
        phase=None if state.terminal else state.phase,
        areas=tuple(tuple(tuple(a) for a in seat) for seat in state.areas),
        area_scores=(state.area_scores(0), state.area_scores(1)),
        area_details=tuple(tuple(state.game.explain_area(a) for a in seat) for seat in state.areas),
        hand=tuple(state.hands[me]) if me is not None else None,
        hand_sizes=tuple(len(h) for h in state.hands),
        given=tuple(state.given[me]) if me is not None else None,
        received=tuple(state.received[me]) if me is not None else None,
        discarded=tuple(state.discards[me]) if me is not None else None,
        discard_counts=tuple(len(d) for d in state.discards),
        aside=len(state.aside),
        round_scores=tuple(tuple(s) for s in state.scores),
        totals=state.totals(),
        current_players=state.current_players(),
        legal_actions=tuple(str(a) for a in state.legal_actions(me)) if me is not None else (),
        terminal=state.terminal,
        outcome=state.outcome(),
    )
