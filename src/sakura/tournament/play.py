"""One game between bots: the unit of work a tournament sends to a worker process.

Everything a game needs travels in a small picklable :class:`GameSetup` (the game by name and
JSON config, a bot spec and a seed per seat, the deal's seed), and everything it gives back in
a :class:`GameResult`, so that a game plays the same in any process, in any order.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

from sakura.bots import make_bot
from sakura.engine import Action, Event, Game, State, fast_path, make_game
from sakura.records import Recorder


class Collector(Protocol):
    """Watches one game's moves (with their events) and sums up what an analysis needs. A
    collector may also have ``on_start(state)``, called with the state as dealt."""

    def on_move(self, player: int, action: Action, events: list[Event], state: State[Any]) -> None: ...

    def finish(self, state: State[Any]) -> dict[str, Any]: ...


CollectorFactory = Callable[[Game[Any]], Collector]


@dataclass(frozen=True, slots=True)
class GameSetup:
    """One game to play: ``seats[i]`` is the spec of the bot in seat ``i``."""

    index: int
    deal: int
    game: str
    config_json: str  # the game's config as JSON text (hashable, picklable)
    seats: tuple[str, ...]
    seed: int
    bot_seeds: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameResult:
    index: int
    deal: int
    seed: int
    seats: tuple[str, ...]
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    returns: tuple[float, ...]
    rounds: int | None
    moves: int
    think_seconds: tuple[float, ...]  # per seat, total
    decisions: tuple[int, ...]  # per seat
    stats: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "deal": self.deal,
            "seed": self.seed,
            "seats": list(self.seats),
            "winners": list(self.winners),
            "scores": list(self.scores),
            "rounds": self.rounds,
            "moves": self.moves,
            "decisions": list(self.decisions),
            "think_seconds": [round(t, 4) for t in self.think_seconds],
        }


@lru_cache(maxsize=16)
def _game(name: str, config_json: str) -> Game[Any]:
    return make_game(name, json.loads(config_json))


def _new_state(game: Game[Any], seed: int, events: bool) -> State[Any]:
    """A new game, without event values when nobody reads them and the game can skip them."""
    return game.new_initial_state(seed) if events else fast_path(game).new_state(seed)


def play_game(
    setup: GameSetup,
    *,
    records: Path | None = None,
    collector: CollectorFactory | None = None,
) -> GameResult:
    """Play ``setup`` to the end. Players who must act at the same time each get their view
    before any of them acts, as at the table. ``records`` saves the game record there
    (``game-<index>.json``); ``collector`` gathers statistics from the events."""
    result, text = play_game_and_record(setup, record=records is not None, collector=collector)
    if records is not None and text is not None:
        (records / record_name(setup.index)).write_text(text, encoding="utf-8")
    return result


def record_name(index: int) -> str:
    """The file name of game ``index``'s record in a ``records`` folder."""
    return f"game-{index:06d}.json"


def play_game_and_record(
    setup: GameSetup, *, record: bool = False, collector: CollectorFactory | None = None
) -> tuple[GameResult, str | None]:
    """:func:`play_game` giving the record's text back (when ``record``) instead of writing it:
    a worker on another machine (``--ray``) sends it to the one that writes the folder."""
    game = _game(setup.game, setup.config_json)
    bots = [make_bot(spec, game, seed) for spec, seed in zip(setup.seats, setup.bot_seeds, strict=True)]
    recorder = (
        Recorder(
            game, setup.seed, [f"Player {s + 1} ({spec})" for s, spec in enumerate(setup.seats)], date=""
        )
        if record
        else None
    )
    watcher = collector(game) if collector is not None else None
    state = recorder.state if recorder is not None else _new_state(game, setup.seed, watcher is not None)
    start = getattr(watcher, "on_start", None)
    if start is not None:
        start(state)
    seats = len(setup.seats)
    think = [0.0] * seats
    decisions = [0] * seats
    moves = 0
    while not state.is_terminal():
        acting = state.current_players()
        chosen = []
        for p in acting:
            view = state.view(p)
            start = time.perf_counter()
            chosen.append((p, bots[p].act(view)))
            think[p] += time.perf_counter() - start
            decisions[p] += 1
        for p, action in chosen:
            events = recorder.apply(p, action) if recorder is not None else state.apply_action(p, action)
            if watcher is not None:
                watcher.on_move(p, action, events, state)
            moves += 1
    outcome = state.outcome()
    assert outcome is not None
    text = recorder.finish().dumps() if recorder is not None else None
    return GameResult(
        index=setup.index,
        deal=setup.deal,
        seed=setup.seed,
        seats=setup.seats,
        winners=outcome.winners,
        scores=outcome.scores,
        returns=outcome.returns(),
        rounds=state.progress().round,
        moves=moves,
        think_seconds=tuple(think),
        decisions=tuple(decisions),
        stats=watcher.finish(state) if watcher is not None else {},
    ), text
