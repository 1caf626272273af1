"""What one player may see of a game of Sakura (the Observer of OpenSpiel's design).

A view holds the public board and, for a seat, that seat's own hand and own secret choice.
It never holds another hand, another player's unrevealed card, the deck order or the
generator's state: bots decide from views, servers send views.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from sakura.engine.games.sakura.preview import ChoicePreview, choice_previews
from sakura.engine.protocol import Outcome

if TYPE_CHECKING:
    from sakura.engine.games.sakura.state import SakuraState


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
    pending: tuple[int, int, str] | None  # (seat, card, "garden" | "painter")
    preview: tuple[ChoicePreview, ...]  # each answer to ``pending`` and what it does (public)
    current_players: tuple[int, ...]
    legal_actions: tuple[str, ...]  # for ``player``
    terminal: bool
    outcome: Outcome | None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in self.__slots__:
            value = getattr(self, name)
            if isinstance(value, Outcome):
                value = value.to_dict()
            elif name == "preview":
                value = [p.to_json() for p in value]
            elif isinstance(value, tuple):
                value = [list(v) if isinstance(v, tuple) else v for v in value]
            out[name] = value
        return out


def make_view(state: SakuraState, player: int | None) -> SakuraView:
    game = state.game
    if player is not None and not 0 <= player < game.players:
        raise ValueError(f"there is no player {player}")
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


# The fields every viewer sees alike, in SakuraView's order from ``players`` to ``outcome``
# (``hand``, ``my_choice`` and ``legal_actions`` are the seat's own and filled per seat).
_Public = tuple[Any, ...]


def _public_part(state: SakuraState, preview: bool = True) -> _Public:
    game = state.game
    queue = state.queue
    picks = state.picks
    return (
        game.players,
        game.variant,
        game.court if game.court >= 0 else None,
        game.garden.spaces,
        game.sakuras,
        state.emperor,
        tuple(state.pos),
        tuple(state.tokens),
        state.supply,
        state.scored,
        state.round,
        len(state.deck),
        tuple(state.discard),
        tuple([len(h) for h in state.hands]),
        tuple([p is not None for p in picks]),
        state.double if state.double >= 0 and state.in_selection else None,
        tuple([(s, c) for c, s in queue]),
        state.qi if queue else 0,
        state.last_round,
        state.pending_choice(),
        choice_previews(state) if preview else (),
        state.current_players(),
        state.terminal,
        state.outcome(),
    )


def _seat_view(public: _Public, state: SakuraState, player: int | None) -> SakuraView:
    (
        players,
        variant,
        court,
        garden,
        sakuras,
        emperor,
        painters,
        tokens,
        supply,
        scored,
        round_,
        deck_size,
        discard,
        hand_sizes,
        chosen,
        double,
        revealed,
        resolved,
        last_round,
        pending,
        preview,
        current,
        terminal,
        outcome,
    ) = public
    if player is None:
        hand = my_choice = None
        legal: tuple[str, ...] = ()
    else:
        hand = tuple(state.hands[player])
        my_choice = state.picks[player]
        legal = tuple(state.legal_texts(player))
    view = _new(SakuraView)
    s = _SETTERS
    s[0](view, player)
    s[1](view, players)
    s[2](view, variant)
    s[3](view, court)
    s[4](view, garden)
    s[5](view, sakuras)
    s[6](view, emperor)
    s[7](view, painters)
    s[8](view, tokens)
    s[9](view, supply)
    s[10](view, scored)
    s[11](view, round_)
    s[12](view, deck_size)
    s[13](view, discard)
    s[14](view, hand)
    s[15](view, hand_sizes)
    s[16](view, chosen)
    s[17](view, my_choice)
    s[18](view, double)
    s[19](view, revealed)
    s[20](view, resolved)
    s[21](view, last_round)
    s[22](view, pending)
    s[23](view, preview)
    s[24](view, current)
    s[25](view, legal)
    s[26](view, terminal)
    s[27](view, outcome)
    return view


# A view is made as the dataclass's own __init__ makes it (each field set through its slot,
# past the frozen class's __setattr__), without the __init__ that dataclasses generates and
# CPython interprets: about a third of the time, which counts since the RL environments make
# every seat's view after every step (docs/performance.md). ``_SETTERS[i]`` sets the ``i``-th
# field; _seat_view calls each by its index (a loop over ``zip`` cost a fifth of a view more).
_new = object.__new__
_SETTERS = tuple(getattr(SakuraView, f.name).__set__ for f in fields(SakuraView))
