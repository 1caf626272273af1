"""States from positions and from JSON (a state saves itself: ``SakuraState.to_json``).

A saved state is ``{"game": "sakura", "config": ..., "position": ..., "rng": ...}``: the full
position (hands, deck and discard included) plus the generator's state, so a loaded game goes
on exactly as the saved one would have. Mid-round, ``"resolved"`` lists the round's cards
already resolved (``[card, seat]``, now in the discard pile), so views show the same revealed
cards after loading; after the first round, ``"last_round"`` lists the previous round's cards
(``[seat, card]``), so views still say who played which. It holds hidden information: it is
for saving and for records, never for a player's eyes (players get views).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from sakura.engine.errors import InvalidPositionError, InvalidStateError
from sakura.engine.games.sakura.decisions import CHOICE_STAGES
from sakura.engine.games.sakura.position import Position
from sakura.engine.games.sakura.state import SakuraState
from sakura.engine.rng import SplitMix64

if TYPE_CHECKING:
    from sakura.engine.games.sakura.game import SakuraGame


def state_from_position(
    game: SakuraGame, position: Position, seed: int | str = 0, *, events: bool = True
) -> SakuraState:
    """Set up ``position``. Parts it leaves out are dealt from ``seed``: without hands, every
    player gets five unseen cards (the position must then be between rounds); without a deck,
    the unseen cards are shuffled into it; without a discard pile, it is empty (or, with hands
    and deck given, it holds every other card). A position caught between two cards of a round
    goes on resolving at once, up to the next choice or the end of the round."""
    position.validate(game)
    rng = SplitMix64(seed)
    queued = [c for c, _ in position.queue]
    chosen = [c for pick in position.chosen or () for c in pick]
    discard = list(position.discard or ())
    if position.hands is None:
        if queued or chosen:
            raise InvalidPositionError("a position without hands must be between rounds")
        if position.deck is not None:
            raise InvalidPositionError("a position with a deck must give the hands too")
        gone = set(discard)
        unseen = [c for c in game.numbers if c not in gone]
        rng.shuffle(unseen)
        hands: list[list[int]] = [[] for _ in range(game.players)]
        for _ in range(5):
            for hand in hands:
                hand.append(unseen.pop())
        deck = unseen
    else:
        hands = [list(h) for h in position.hands]
        placed = {c for h in hands for c in h} | set(queued) | set(chosen)
        if position.deck is None:
            deck = [c for c in game.numbers if c not in placed and c not in set(discard)]
            rng.shuffle(deck)
        else:
            deck = list(reversed(position.deck))
            if position.discard is None:
                placed |= set(deck)
                discard = [c for c in game.numbers if c not in placed]
    for hand in hands:
        hand.sort()
    state = SakuraState._make(
        game,
        emperor=position.emperor,
        pos=list(position.painters),
        tokens=list(position.tokens),
        supply=position.supply,
        scored=position.scored,
        hands=hands,
        deck=deck,
        discard=discard,
        rng=rng,
        events=events,
        round=position.round,
    )
    if state.terminal:
        return state
    if position.chosen is not None:
        _restore_picks(state, position.chosen)
    if position.queue:
        state.queue = list(position.queue)
        state.qi = 0
        state.stage = position.stage
        state.scoring = position.scoring
        if position.stage not in CHOICE_STAGES:  # not waiting for a choice: go on resolving
            state._advance()
    return state


def _restore_picks(state: SakuraState, chosen: tuple[tuple[int, ...], ...]) -> None:
    for seat, pick in enumerate(chosen):
        if not pick:
            continue
        if (len(pick) == 2) != (seat == state.double):
            raise InvalidPositionError(
                f"player {seat + 1} chose {len(pick)} card(s); the tactical player further from "
                "the Emperor (and only they) chooses two"
            )
        state.picks[seat] = tuple(pick)
    state._sync_waiting()
    if all(p is not None for p in state.picks):
        raise InvalidPositionError("every player has chosen: the cards would be revealed")


def saved_config(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """The config of a saved state, once its outer shape is checked: the game module builds
    the game from it and hands both to :func:`load_state`."""
    if not isinstance(data, Mapping) or data.get("game") != "sakura":
        raise InvalidStateError('not a saved Sakura state (expected "game": "sakura")')
    unknown = set(data) - {"game", "config", "position", "rng", "resolved", "last_round"}
    if unknown:
        raise InvalidStateError(f"unknown keys in the saved state: {sorted(unknown)}")
    if "config" not in data:
        raise InvalidStateError("the saved state lacks 'config'")
    config = data["config"]
    if not isinstance(config, Mapping):
        raise InvalidStateError(f"the saved config is an object, not {config!r}")
    return config


def load_state(game: SakuraGame, data: Mapping[str, Any], *, events: bool = True) -> SakuraState:
    """The rest of :func:`~.game.state_from_json`: ``data`` (checked by :func:`saved_config`)
    as a state of ``game``."""
    try:
        position = Position.from_json(data["position"])
        rng_state = data["rng"]
        resolved = [(_whole(c), _whole(s)) for c, s in data.get("resolved", ())]
        last_round = tuple((_whole(s), _whole(c)) for s, c in data.get("last_round", ()))
    except KeyError as exc:
        raise InvalidStateError(f"the saved state lacks {exc}") from None
    except (TypeError, ValueError) as exc:
        if isinstance(exc, InvalidStateError):
            raise
        raise InvalidStateError(f"bad saved state: {exc}") from None
    if position.hands is None or position.deck is None or position.discard is None:
        raise InvalidStateError("a saved state holds the hands, the deck and the discard pile")
    if isinstance(rng_state, bool) or not isinstance(rng_state, int) or not 0 <= rng_state < 1 << 64:
        raise InvalidStateError(f"the saved generator state is a whole number below 2**64, not {rng_state!r}")
    if position.queue and position.stage not in CHOICE_STAGES:
        raise InvalidStateError("a saved state waits for a choice or for the players' cards")
    if resolved:
        if not position.queue:
            raise InvalidStateError("cards of the round are resolved but none is waiting")
        cards = [c for c, _ in resolved]
        if not set(cards) <= set(position.discard):
            raise InvalidStateError("the round's resolved cards must be in the discard pile")
        if cards != sorted(cards) or cards[-1] >= position.queue[0][0]:
            raise InvalidStateError("the round's cards resolve lowest order number first")
    try:
        state = state_from_position(game, position, 0, events=events)
    except InvalidPositionError as exc:
        raise InvalidStateError(f"impossible saved position: {exc}") from None
    state.rng.state = rng_state
    if last_round:
        cards = [c for _, c in last_round]
        if len(set(cards)) != len(cards) or not set(cards) <= set(game.numbers):
            raise InvalidStateError("last round's cards are cards of the deck, each once")
        if not all(0 <= s < game.num_painters for s, _ in last_round):
            raise InvalidStateError("last round's cards were played by the table's players")
        state.last_round = last_round
    if resolved:
        state.queue[:0] = resolved
        state.qi = len(resolved)
    return state


def _whole(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidStateError(f"expected a whole number, got {value!r}")
    return value
