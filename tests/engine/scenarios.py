"""Scenario helpers for the rules tests: set a situation up from a position's text, play one
round's cards, answer choices, and pick out of the events what a given card did.

A scenario names only what it is about. ``t`` and ``q`` may be left out (everyone holds the
five starting tokens, the supply the rest), and ``hands`` gives each seat the card (or, for the
tactical variant's double player, the two cards) it will play; four filler cards complete each
hand, taken from the top of the order numbers so that they never matter unless a test says so.

>>> state = setup("3 e5 s0 p0,0,0", hands=(6, 26, 29))
>>> [type(e).__name__ for e in play(state, 6, 26)]
['CardChosen', 'CardChosen']
>>> events = play(state, None, None, 29)
>>> [(e.start, e.end) for e in find(events, EmperorMoved)]
[(5, 6), (6, 7), (7, 8)]
>>> state.pos
[1, 2, 3]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from sakura.engine.games.sakura import (
    Choose,
    Play,
    Position,
    SakuraGame,
    SakuraState,
    state_from_position,
)
from sakura.engine.games.sakura.events import (
    Bumped,
    CardChosen,
    CardResolving,
    CardsDiscarded,
    CardsRevealed,
    ChoiceAsked,
    ChoiceMade,
    DeckReshuffled,
    EmperorMoved,
    GameEnded,
    HandsRefilled,
    PainterMoved,
    PainterStayed,
    RoundStarted,
    SakuraScored,
)
from sakura.engine.protocol import Event

__all__ = [
    "Bumped",
    "CardChosen",
    "CardResolving",
    "CardsDiscarded",
    "CardsRevealed",
    "ChoiceAsked",
    "ChoiceMade",
    "DeckReshuffled",
    "EmperorMoved",
    "GameEnded",
    "HandsRefilled",
    "PainterMoved",
    "PainterStayed",
    "RoundStarted",
    "SakuraScored",
    "choose",
    "find",
    "game_for",
    "of_card",
    "play",
    "setup",
]

E = TypeVar("E", bound=Event)
Pick = int | tuple[int, int] | None


def game_for(position: Position) -> SakuraGame:
    """The game (default deck and garden) a position belongs to."""
    return SakuraGame(players=position.players, variant=position.variant)


def setup(text: str, hands: Sequence[int | tuple[int, ...]] | None = None, seed: int = 0) -> SakuraState:
    """The state of ``text`` (a position, ``t`` and ``q`` optional), with ``hands[seat]``'s
    card(s) in each seat's hand."""
    words = text.split()
    labels = {w[0] for w in words[1:]}
    game = SakuraGame(players=int(words[0][0]), variant=_variant(words[0]))
    start = game.deck.start_tokens
    if "t" not in labels:
        words.append("t" + ",".join([str(start)] * game.num_painters))
    if "q" not in labels:
        tokens = next(w for w in words[1:] if w[0] == "t")
        words.append(f"q{game.deck.total_tokens - sum(int(v) for v in tokens[1:].split(','))}")
    if hands is not None:
        if "h" in labels:
            raise ValueError("give the hands either in the text or as hands=, not both")
        words.append("h" + "/".join(".".join(map(str, h)) for h in _fill(game, words, hands)))
    position = Position.from_text(" ".join(words))
    return state_from_position(game, position, seed)


def _variant(head: str) -> str | None:
    return {"2c": "court", "2t": "tactical"}.get(head)


def _fill(game: SakuraGame, words: list[str], hands: Sequence[int | tuple[int, ...]]) -> list[list[int]]:
    wanted = [[h] if isinstance(h, int) else list(h) for h in hands]
    if len(wanted) != game.players:
        raise ValueError(f"give one hand entry per player ({game.players})")
    used = {c for h in wanted for c in h}
    for w in words[1:]:
        if w[0] in "dx" and len(w) > 1:
            used |= {int(c) for c in w[1:].split(".")}
    spare = [c for c in reversed(game.deck.numbers) if c not in used]
    for hand in wanted:
        while len(hand) < 5:
            hand.append(spare.pop(0))
    return wanted


def play(state: SakuraState, *picks: Pick) -> list[Event]:
    """Seat ``i`` plays ``picks[i]`` (a card, ``(card, court_card)`` for the tactical double
    player, or ``None`` to skip that seat); returns the events of all these plays."""
    events: list[Event] = []
    for seat, pick in enumerate(picks):
        if pick is None:
            continue
        action = Play(pick) if isinstance(pick, int) else Play(pick[0], pick[1])
        events += state.apply_action(seat, action)
    return events


def choose(state: SakuraState, *answers: Choose) -> list[Event]:
    """Answer the pending choices, in order, each by the player the state asks."""
    events: list[Event] = []
    for answer in answers:
        pending = state.pending_choice()
        if pending is None:
            raise AssertionError("no choice is pending")
        events += state.apply_action(pending[0], answer)
    return events


def find(events: Iterable[Event], kind: type[E], **fields: Any) -> list[E]:
    """The events of type ``kind`` whose fields have the given values."""
    return [
        e
        for e in events
        if isinstance(e, kind) and all(getattr(e, name) == value for name, value in fields.items())
    ]


def of_card(events: Sequence[Event], card: int) -> list[Event]:
    """The events from the moment ``card`` starts resolving up to the next card (or the end of
    the round): what that card did, and the scoring it caused."""
    out: list[Event] = []
    inside = False
    for e in events:
        if isinstance(e, CardResolving):
            inside = e.card == card
        elif isinstance(e, HandsRefilled | RoundStarted | GameEnded):
            inside = False
        if inside:
            out.append(e)
    return out
