"""What one player may see of a game of Sakura (the Observer of OpenSpiel's design).

A view holds the public board and, for a seat, that seat's own hand and own secret choice.
It never holds another hand, another player's unrevealed card, the deck order or the
generator's state: bots decide from views, servers send views. ``to_json`` is plain JSON and
:meth:`SakuraView.from_json` reads it back into an equal view.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sakura.engine.errors import InvalidViewError, NoSuchPlayerError
from sakura.engine.games.sakura.decisions import SELECTION
from sakura.engine.games.sakura.preview import ChoicePreview, choice_previews
from sakura.engine.protocol import Outcome, Progress, tupled

if TYPE_CHECKING:
    from sakura.engine.games.sakura.state import SakuraState

Pending = tuple[int, int, str]  # (seat, card, "garden" | "painter")


@dataclass(frozen=True, slots=True)
class SakuraView:
    player: int | None  # None: a spectator
    players: int
    variant: str
    court: int | None  # the court painter's seat, if any
    garden: str  # one symbol a space (see garden.py)
    sakuras: tuple[int, ...]
    emperor: int
    painters: tuple[int, ...]
    tokens: tuple[int, ...]
    supply: int
    scored: int
    round: int
    deck_size: int
    discard: tuple[int, ...]  # face up, oldest first
    hand: tuple[int, ...] | None  # own hand (None for spectators)
    hand_sizes: tuple[int, ...]
    chosen: tuple[bool, ...]  # who has chosen this round (not what)
    my_choice: tuple[int, ...] | None  # own secret card(s) this round
    double: int | None  # tactical: the player who must play two cards (during selection)
    revealed: tuple[tuple[int, int], ...]  # (seat, card) of the round, in order of resolution
    resolved: int  # how many of ``revealed`` are done (or discarded)
    last_round: tuple[tuple[int, int], ...]  # (seat, card) of the previous round, as ``revealed``
    pending: Pending | None  # (seat, card, "garden" | "painter")
    preview: tuple[ChoicePreview, ...]  # each answer to ``pending`` and what it does (public)
    current_players: tuple[int, ...]
    legal_actions: tuple[str, ...]  # for ``player``
    terminal: bool
    outcome: Outcome | None

    @property
    def progress(self) -> Progress:
        """The round, the decision pending (``"selection"``, or the ``"garden"`` or
        ``"painter"`` choice a resolving card asks; ``None`` at the end) and whose it is."""
        if self.terminal:
            return Progress(self.round, None, ())
        decision = self.pending[2] if self.pending is not None else SELECTION
        return Progress(self.round, decision, self.current_players)

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "players": self.players,
            "variant": self.variant,
            "court": self.court,
            "garden": self.garden,
            "sakuras": list(self.sakuras),
            "emperor": self.emperor,
            "painters": list(self.painters),
            "tokens": list(self.tokens),
            "supply": self.supply,
            "scored": self.scored,
            "round": self.round,
            "deck_size": self.deck_size,
            "discard": list(self.discard),
            "hand": None if self.hand is None else list(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "chosen": list(self.chosen),
            "my_choice": None if self.my_choice is None else list(self.my_choice),
            "double": self.double,
            "revealed": [list(play) for play in self.revealed],
            "resolved": self.resolved,
            "last_round": [list(play) for play in self.last_round],
            "pending": None if self.pending is None else list(self.pending),
            "preview": [p.to_json() for p in self.preview],
            "current_players": list(self.current_players),
            "legal_actions": list(self.legal_actions),
            "terminal": self.terminal,
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SakuraView:
        """The view whose :meth:`to_json` is ``data``; raises :class:`InvalidViewError` for
        anything else."""
        try:
            outcome = data["outcome"]
            return cls(
                **{name: tupled(data[name]) for name in _PLAIN},
                preview=tuple([ChoicePreview.from_json(p) for p in data["preview"]]),
                outcome=None if outcome is None else Outcome.from_dict(outcome),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidViewError(f"not a Sakura view: {type(exc).__name__} {exc}") from None


# The fields that JSON carries as they are, lists read back as tuples (all but two).
_PLAIN = tuple(name for name in SakuraView.__dataclass_fields__ if name not in ("preview", "outcome"))


def make_view(state: SakuraState, player: int | None) -> SakuraView:
    """``state.view(player)``: a seat's view, or the spectator's (``player`` None)."""
    if player is not None and not 0 <= player < state.game.players:
        raise NoSuchPlayerError(f"there is no player {player}")
    return _seat_view(_public_part(state, True), state, player)


def make_views(state: SakuraState, *, preview: bool = True) -> tuple[SakuraView, ...]:
    """Every seat's view at once, in seat order: each equal to ``make_view(state, seat)``, the
    public part (the board, the round's cards, the preview, the outcome) made once and shared
    by all of them. The RL environments observe every seat after every step.

    ``preview=False`` leaves the preview out (``()``: working it out plays both answers on a
    copy of the state), for readers that never look at it, such as the RL encoders; every
    other field is as ``make_view`` gives it.

    >>> from sakura.engine.games.sakura import SakuraGame
    >>> state = SakuraGame(3).new_initial_state(5)
    >>> make_views(state) == tuple(make_view(state, seat) for seat in range(3))
    True
    """
    public = _public_part(state, preview)
    return tuple([_seat_view(public, state, seat) for seat in range(state.game.players)])


def _public_part(state: SakuraState, preview: bool = True) -> tuple[Any, ...]:
    """The values of the fields every viewer sees alike, in the order of ``_PUBLIC``'s names
    (all but the seat's own, ``_OWN``): made once for every seat's view."""
    game = state.game
    queue = state.queue
    public = dict(
        players=game.players,
        variant=game.variant,
        court=game.court if game.court >= 0 else None,
        garden=game.garden.spaces,
        sakuras=game.sakuras,
        emperor=state.emperor,
        painters=tuple(state.pos),
        tokens=tuple(state.tokens),
        supply=state.supply,
        scored=state.scored,
        round=state.round,
        deck_size=len(state.deck),
        discard=tuple(state.discard),
        hand_sizes=tuple([len(h) for h in state.hands]),
        chosen=tuple([p is not None for p in state.picks]),
        double=state.double if state.in_selection else None,
        revealed=tuple([(s, c) for c, s in queue]),
        resolved=state.qi if queue else 0,
        last_round=state.last_round,
        pending=state.pending_choice(),
        preview=choice_previews(state) if preview else (),
        current_players=state.current_players(),
        terminal=state.terminal,
        outcome=state.outcome(),
    )
    assert len(public) == len(_PUBLIC), "every public field, and nothing else"
    return tuple([public[name] for name in _PUBLIC])


def _seat_view(public: tuple[Any, ...], state: SakuraState, player: int | None) -> SakuraView:
    """``player``'s view: the public fields (``public[i]`` is the value of the field named
    ``_PUBLIC[i]``), then the seat's own (``_OWN``)."""
    view = _new(SakuraView)
    setters = _PUBLIC_SETTERS
    for i in range(len(setters)):
        setters[i](view, public[i])
    _set_player(view, player)
    if player is None:
        _set_hand(view, None)
        _set_my_choice(view, None)
        _set_legal_actions(view, ())
    else:
        _set_hand(view, tuple(state.hands[player]))
        _set_my_choice(view, state.picks[player])
        _set_legal_actions(view, tuple(state.legal_texts(player)))
    return view


# A view is made as the dataclass's own __init__ makes it (each field set through its slot,
# past the frozen class's __setattr__), without the __init__ that dataclasses generates and
# CPython interprets (a view by keyword took twice as long, which counts since the RL
# environments make every seat's view after every step: docs/performance.md). Every field is
# set once, by name: ``_SETTERS[name]`` sets the field ``name``; the public values are taken
# from ``_public_part``'s fields by the names of ``_PUBLIC``, in the order of its setters.
Setter = Callable[[SakuraView, Any], None]
_new = object.__new__
_SETTERS: dict[str, Setter] = {
    name: getattr(SakuraView, name).__set__ for name in SakuraView.__dataclass_fields__
}
_OWN = ("player", "hand", "my_choice", "legal_actions")
_set_player, _set_hand, _set_my_choice, _set_legal_actions = (_SETTERS[name] for name in _OWN)
_PUBLIC = tuple([name for name in _SETTERS if name not in _OWN])
_PUBLIC_SETTERS = tuple([_SETTERS[name] for name in _PUBLIC])
