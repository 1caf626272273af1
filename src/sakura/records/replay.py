"""Re-run a record through the engine and stop loudly at the first difference."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sakura.engine import Event, GameError, State
from sakura.records.record import GameRecord


class ReplayDivergenceError(Exception):
    """The engine does not reproduce the record: ``index`` is the move (-1: the deal)."""

    def __init__(self, index: int, message: str) -> None:
        where = "the initial deal" if index < 0 else f"move {index + 1}"
        super().__init__(f"replay diverges at {where}: {message}")
        self.index = index


def replay(
    record: GameRecord,
    *,
    on_step: Callable[[State[Any]], None] | None = None,
    on_move: Callable[[int, State[Any]], None] | None = None,
) -> State[Any]:
    """Replay ``record`` and return the final state.

    ``on_step(state)`` is called after every atomic step the game reports (for Sakura: every
    resolved card and every answered choice); ``on_move(i, state)`` after every move.
    Raises :class:`ReplayDivergenceError` where the record and the engine disagree.
    """
    try:
        game = record.make_game()
    except (GameError, ValueError) as exc:
        raise ReplayDivergenceError(-1, f"cannot build the game: {exc}") from None
    if record.seed is not None:
        state = game.new_initial_state(record.seed)
        if state.to_json() != record.initial:
            raise ReplayDivergenceError(-1, "the seed deals differently than the record says")
    else:
        try:
            state = game.state_from_json(record.initial)
        except (GameError, ValueError) as exc:
            raise ReplayDivergenceError(-1, f"bad initial state: {exc}") from None
    if on_step is not None:
        state.set_step_hook(on_step)
    for i, move in enumerate(record.moves):
        try:
            action = game.parse_action(move.action)
            events = state.apply_action(move.player, action)
        except GameError as exc:
            raise ReplayDivergenceError(i, f"player {move.player + 1} {move.action!r}: {exc}") from None
        got = [e.to_dict() for e in events]
        if got != list(move.events):
            raise ReplayDivergenceError(i, _first_difference(list(move.events), got))
        if on_move is not None:
            on_move(i, state)
    outcome = state.outcome()
    if (outcome.to_dict() if outcome else None) != record.outcome:
        raise ReplayDivergenceError(len(record.moves) - 1, "the outcome differs")
    return state


def game_events(record: GameRecord) -> list[Event]:
    """Every event of the recorded game, first to last, as the engine tells them (a score
    sheet reads them). Raises :class:`ReplayDivergenceError` where the engine refuses a move."""
    game = record.make_game()
    state = game.state_from_json(record.initial)
    events: list[Event] = []
    for i, move in enumerate(record.moves):
        try:
            events += state.apply_action(move.player, game.parse_action(move.action))
        except GameError as exc:
            raise ReplayDivergenceError(i, f"player {move.player + 1} {move.action!r}: {exc}") from None
    return events


def _first_difference(expected: list[dict[str, Any]], got: list[dict[str, Any]]) -> str:
    for k, (a, b) in enumerate(zip(expected, got, strict=False)):
        if a != b:
            return f"event {k + 1}: the record says {a}, the engine gives {b}"
    return f"the record has {len(expected)} events, the engine gives {len(got)}"
