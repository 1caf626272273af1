"""A game played in the terminal app: the engine's state behind a Recorder, the seats and
their bots (the play sessions of :mod:`sakura.tui.local_play` play it on a screen).

No rules here: legality, movement and scoring are the engine's. The session asks the engine
who must act, lets bots act from their views, applies human actions, and saves the game in
the record format (``sakura-record/1``), with the seats in the header's ``tui`` field. It
speaks only the game protocol, so it serves every game the app can show (:data:`GAMES`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Generic, TypeVar, cast

from sakura.bots import LEGACY, LEVEL_NAMES, Bot, level_spec, make_bot
from sakura.engine import Event, Game, State, View, make_game
from sakura.records import GameRecord, Recorder, replay

HUMAN = "human"
SAKURA, CARDS = "sakura", "sakura-cards"
GAMES = (SAKURA, CARDS)
# The strengths offered: the ladder's levels (sakura.bots.levels), each a bot spec of its own
# that plays either game (its search budget set per game there).
LEVELS: tuple[str, ...] = LEVEL_NAMES
DEFAULT_LEVEL = "club"
# The bot behind each strength, per game: the level itself; the names used before the ladder
# (a server's older tables say easy, medium, hard) stand for levels.
BOT_KINDS: dict[str, dict[str, str]] = {
    game: {**{level: level for level in LEVEL_NAMES}, **LEGACY} for game in (SAKURA, CARDS)
}

V = TypeVar("V", bound=View)


def level_of(kind: str, game: str = SAKURA) -> str | None:
    """The strength (a level: ``beginner`` ... ``master``) that stands for a bot spec, or
    ``human``; ``None`` for a spec of no level (``mcts:50`` given on the command line). The
    spec a level stands for in this game counts as that level.

    >>> level_of("expert"), level_of("greedy"), level_of("mcts:50", "sakura-cards"), level_of("mcts:50")
    ('expert', 'club', 'expert', None)
    """
    if kind == HUMAN:
        return HUMAN
    if kind in LEVEL_NAMES:
        return kind
    return next((level for level in LEVEL_NAMES if level_spec(level, game) == kind), None)


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """``kind`` is ``human`` or a bot spec (``random``, ``greedy``, ``mcts:300``)."""

    kind: str

    @property
    def human(self) -> bool:
        return self.kind == HUMAN


@dataclass(frozen=True, slots=True)
class Setup:
    """What the start screen or the command line chose. ``game`` is last so that Sakura's
    positional form ``Setup(players, variant, seats, seed)`` keeps working."""

    players: int = 3
    variant: str | None = None
    seats: tuple[SeatSpec, ...] = (SeatSpec(HUMAN), SeatSpec("greedy"), SeatSpec("greedy"))
    seed: int | None = None
    game: str = SAKURA

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise ValueError(f"unknown game {self.game!r}; the terminal app plays {', '.join(GAMES)}")
        if self.game == CARDS and (self.players != 2 or self.variant is not None):
            raise ValueError("the card game is for two players and has no variants")
        if len(self.seats) != self.players:
            raise ValueError(f"{self.players} seats expected, not {len(self.seats)}")
        if not any(s.human for s in self.seats):
            raise ValueError("at least one seat is a human's")

    @classmethod
    def cards(cls, kinds: tuple[str, str] = (HUMAN, "greedy"), seed: int | None = None) -> Setup:
        """A card game: two seats, nothing else to choose."""
        return cls(2, None, tuple(SeatSpec(k) for k in kinds), seed, CARDS)

    def config(self) -> dict[str, Any]:
        """The engine's config for ``make_game(self.game, ...)``."""
        if self.game == CARDS:
            return {}
        config: dict[str, Any] = {"players": self.players}
        if self.variant is not None:
            config["variant"] = self.variant
        return config


class Session(Generic[V]):
    """One game being played: ``state`` (via a :class:`Recorder`), seats and bots. ``V`` is the
    game's view type (``SakuraView``, ``CardsView``), which the game's screen reads."""

    def __init__(self, setup: Setup, *, seed: int, recorder: Recorder | None = None) -> None:
        self.setup = setup
        self.seed = seed
        self.game: Game[Any] = make_game(setup.game, setup.config())
        # the names the game shows (the seats' kinds are in the record's ``tui`` field)
        names = [f"{'Player' if s.human else 'Bot'} {i + 1}" for i, s in enumerate(setup.seats)]
        self.recorder = recorder or Recorder(self.game, seed, names)
        self.bots: dict[int, Bot] = {
            seat: make_bot(spec.kind, self.game, seed=seed * 7 + seat)
            for seat, spec in enumerate(setup.seats)
            if not spec.human
        }

    @property
    def state(self) -> State[Any]:
        return self.recorder.state

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(i for i, s in enumerate(self.setup.seats) if s.human)

    @property
    def hot_seat(self) -> bool:
        return len(self.humans) > 1

    def view(self, seat: int | None) -> V:
        return cast(V, self.state.view(seat))  # the game's own view type, which V names

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
        self, seat: int, action: Any, snapshots: list[V] | None = None, viewer: int | None = None
    ) -> list[Event]:
        """Apply an action (text or value); with ``snapshots``, collect ``viewer``'s view after
        every atomic step (a resolved card in Sakura), for step-by-step display."""
        if isinstance(action, str):
            action = self.game.parse_action(action)
        if snapshots is not None:
            self.state.set_step_hook(lambda s: snapshots.append(cast(V, s.view(viewer))))
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
    def resume(cls, record: GameRecord) -> Session[Any]:
        """Rebuild a saved game of any game the app plays: the record is replayed (and
        checked) by the engine, then its moves are applied to a fresh recorder."""
        if record.game not in GAMES:
            raise ValueError(f"not a record of a game the terminal app plays: {record.game!r}")
        if not isinstance(record.seed, int):
            raise ValueError("this record has no seed (an online game): replay it, it cannot be resumed")
        replay(record)  # raises ReplayDivergenceError where the engine disagrees
        game = make_game(record.game, record.config)
        kinds = _seat_kinds(record.extra.get("tui"), game)
        variant = record.config.get("variant") if record.game == SAKURA else None
        setup = Setup(
            game.num_players, variant, tuple(SeatSpec(str(k)) for k in kinds), record.seed, record.game
        )
        recorder = Recorder(game, record.seed, record.players, date=record.date)
        for move in record.moves:
            recorder.apply(move.player, game.parse_action(move.action))
        return cls(setup, seed=record.seed, recorder=recorder)


def _seat_kinds(field: object, game: Game[Any]) -> list[str]:
    """The seats' kinds from a record's ``tui`` field (``{"seats": ["human", "greedy"]}``);
    every seat human when there is none. A field the app did not write is a ``ValueError``
    that says what is wrong (a record is anyone's file), never a traceback later on."""
    if field is None:
        return [HUMAN] * game.num_players
    seats = field.get("seats") if isinstance(field, dict) else None
    if not isinstance(field, dict) or not (seats is None or isinstance(seats, list)):
        raise ValueError(
            'the record\'s "tui" field is not {"seats": [...]}: the terminal app did not write it'
        )
    if not seats:
        return [HUMAN] * game.num_players
    if len(seats) != game.num_players or not all(isinstance(k, str) and k for k in seats):
        raise ValueError(
            f'the record\'s "tui" seats must be {game.num_players} seat kinds ("human" or a bot spec), '
            f"not {seats!r}"
        )
    return list(seats)  # a bot spec is checked as the start screen's are (Setup)
