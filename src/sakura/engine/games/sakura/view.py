"""What one player may see of a game of Sakura (the Observer of OpenSpiel's design).

A view holds the public board and, for a seat, that seat's own hand and own secret choice.
It never holds another hand, another player's unrevealed card, the deck order or the
generator's state: bots decide from views, servers send views.
"""

from __future__ import annotations

from dataclasses import dataclass
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
    own = state.picks[player] if player is not None else None
    queue = state.queue
    return SakuraView(
        player=player,
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
        hand=tuple(state.hands[player]) if player is not None else None,
        hand_sizes=tuple(len(h) for h in state.hands),
        chosen=tuple(p is not None for p in state.picks),
        my_choice=own,
        double=state.double if state.double >= 0 and state.in_selection else None,
        revealed=tuple((s, c) for c, s in queue),
        resolved=state.qi if queue else 0,
        pending=state.pending_choice(),
        preview=choice_previews(state),
        current_players=state.current_players(),
        legal_actions=tuple(str(a) for a in state.legal_actions(player)) if player is not None else (),
        terminal=state.terminal,
        outcome=state.outcome(),
    )
