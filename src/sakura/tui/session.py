"""A game in the terminal app: the engine's state behind a Recorder, the seats and their bots.

No rules here: legality, movement and scoring are the engine's. The session asks the engine
who must act, lets bots act from their views, applies human actions, and saves the game in
the record format (``sakura-record/1``), with the seats in the header's ``tui`` field.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from sakura.bots import Bot, make_bot
from sakura.engine import Event, make_game
from sakura.engine.games.sakura import SakuraGame, SakuraView
from sakura.records import GameRecord, Recorder, replay

HUMAN = "human"
BOT_LEVELS = ("random", "greedy", "mcts:300")


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """``kind`` is ``human`` or a bot spec (``random``, ``greedy``, ``mcts:300``)."""

    kind: str

    @property
    def human(self) -> bool:
        return self.kind == HUMAN


@dataclass(frozen=True, slots=True)
class Setup:
    players: int = 3
    variant: str | None = None
    seats: tuple[SeatSpec, ...] = (SeatSpec(HUMAN), SeatSpec("greedy"), SeatSpec("greedy"))
    seed: int | None = None

    def __post_init__(self) -> None:
        if len(self.seats) != self.players:
            raise ValueError(f"{self.players} seats expected, not {len(self.seats)}")
        if not any(s.human for s in self.seats):
            raise ValueError("at least one seat is a human's")


class Session:
    """One game being played: ``state`` (via a :class:`Recorder`), seats and bots."""

    def __init__(self, setup: Setup, *, seed: int, recorder: Recorder | None = None) -> None:
        self.setup = setup
        self.seed = seed
        self.game = SakuraGame(setup.players, setup.variant)
        names = [f"{'human' if s.human else s.kind} {i + 1}" for i, s in enumerate(setup.seats)]
        self.recorder = recorder or Recorder(self.game, seed, names)
        self.bots: dict[int, Bot] = {
            seat: make_bot(spec.kind, self.game, seed=seed * 7 + seat)
            for seat, spec in enumerate(setup.seats)
            if not spec.human
        }

    @property
    def state(self) -> Any:
        return self.recorder.state

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(i for i, s in enumerate(self.setup.seats) if s.human)

    @property
    def hot_seat(self) -> bool:
        return len(self.humans) > 1

    def view(self, seat: int | None) -> SakuraView:
        view = self.state.view(seat)
        assert isinstance(view, SakuraView)
        return view

    def terminal(self) -> bool:
        return bool(self.state.is_terminal())

    def due_bots(self) -> list[int]:
        return [s for s in self.state.current_players() if s in self.bots]

    def due_humans(self) -> list[int]:
        return [s for s in self.state.current_players() if s not in self.bots]

    def bot_action(self, seat: int) -> Any:
        """The bot's choice, from its own view (may take a while: call it off the UI thread)."""
        return self.bots[seat].act(self.state.view(seat))

    def apply(
        self, seat: int, action: Any, snapshots: list[SakuraView] | None = None, viewer: int | None = None
    ) -> list[Event]:
        """Apply an action (text or value); with ``snapshots``, collect ``viewer``'s view after
        every resolved card (for step-by-step display)."""
        if isinstance(action, str):
            action = self.game.parse_action(action)
        if snapshots is not None:
            self.state.set_step_hook(lambda s: snapshots.append(s.view(viewer)))
        try:
            return self.recorder.apply(seat, action)
        finally:
            self.state.set_step_hook(None)

    def preview(self, seat: int, action_text: str) -> list[Event]:
        """The events an answer to a pending choice would cause, up to the next card: the
        engine plays it on a clone (the consequence shown before the player decides)."""
        clone = self.state.clone()
        events = clone.apply_action(seat, self.game.parse_action(action_text))
        out: list[Event] = []
        for event in events[1:]:
            if event.kind in ("card_resolving", "choice_asked", "hands_refilled"):
                break
            out.append(event)
        return out

    # ------------------------------------------------------------------ saving

    def record(self) -> GameRecord:
        record = self.recorder.finish()
        return replace(record, extra={"tui": {"seats": [s.kind for s in self.setup.seats]}})

    def save(self, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.record().dumps(indent=1), encoding="utf-8")
        return path

    @classmethod
    def resume(cls, record: GameRecord) -> Session:
        """Rebuild a saved game: the record is replayed (and checked) by the engine."""
        if record.game != "sakura":
            raise ValueError(f"not a Sakura record: {record.game!r}")
        if not isinstance(record.seed, int):
            raise ValueError("this record has no seed (an online game): replay it, it cannot be resumed")
        replay(record)  # raises ReplayDivergenceError where the engine disagrees
        config = record.config
        kinds = record.extra.get("tui", {}).get("seats") or [HUMAN] * int(config["players"])
        setup = Setup(
            int(config["players"]), config.get("variant"), tuple(SeatSpec(k) for k in kinds), record.seed
        )
        game = make_game("sakura", config)
        recorder = Recorder(game, record.seed, record.players, date=record.date)
        for move in record.moves:
            recorder.apply(move.player, game.parse_action(move.action))
        return cls(setup, seed=record.seed, recorder=recorder)
