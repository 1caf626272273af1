"""The game record format (JSON) and a recorder that writes one while a game is played.

>>> from sakura.engine import make_game
>>> game = make_game("sakura", {"players": 3})
>>> recorder = Recorder(game, seed=5, players=["Ann", "Ben", "Cy"])
>>> state = recorder.state
>>> for seat in (0, 1, 2):
...     _ = recorder.apply(seat, state.legal_actions(seat)[0])
>>> record = recorder.finish()
>>> GameRecord.loads(record.dumps()) == record
True
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import sakura
from sakura.engine import Action, Event, Game, State, make_game

FORMAT = "sakura-record/1"


class InvalidRecordError(ValueError):
    """A record file is malformed (not JSON, wrong format, missing or ill-typed fields)."""


@dataclass(frozen=True, slots=True)
class Move:
    """One action of one player and the events it caused (complete, nothing hidden)."""

    player: int
    action: str
    events: tuple[dict[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "action": self.action, "events": list(self.events)}


@dataclass(frozen=True, slots=True)
class GameRecord:
    game: str
    config: dict[str, Any]
    seed: int | str | None
    players: tuple[str, ...]
    date: str
    engine_version: str
    initial: dict[str, Any]
    moves: tuple[Move, ...] = ()
    outcome: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def make_game(self) -> Game[Any]:
        return make_game(self.game, self.config)

    def to_json(self) -> dict[str, Any]:
        header: dict[str, Any] = {
            "game": self.game,
            "config": self.config,
            "seed": self.seed,
            "players": list(self.players),
            "date": self.date,
            "engine_version": self.engine_version,
        }
        header.update(self.extra)
        return {
            "format": FORMAT,
            "header": header,
            "initial": self.initial,
            "moves": [m.to_json() for m in self.moves],
            "outcome": self.outcome,
        }

    def dumps(self, indent: int | None = None) -> str:
        return json.dumps(self.to_json(), indent=indent, ensure_ascii=False)

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, TypeError) as exc:
            raise InvalidRecordError(f"a record is JSON: {exc}") from None
        return cls.from_json(data)

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict):
            raise InvalidRecordError("a record is a JSON object")
        if data.get("format") != FORMAT:
            raise InvalidRecordError(
                f"not a Sakura record: format must be {FORMAT!r}, not {data.get('format')!r}"
            )
        header = _field(data, "header", dict)
        moves_data = _field(data, "moves", list)
        moves = []
        for i, m in enumerate(moves_data):
            if not isinstance(m, dict):
                raise InvalidRecordError(f"move {i} is not an object")
            player, action, events = m.get("player"), m.get("action"), m.get("events", [])
            if isinstance(player, bool) or not isinstance(player, int):
                raise InvalidRecordError(f"move {i}: 'player' is a seat number")
            if not isinstance(action, str):
                raise InvalidRecordError(f"move {i}: 'action' is the action's text")
            if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
                raise InvalidRecordError(f"move {i}: 'events' is a list of objects")
            moves.append(Move(player, action, tuple(events)))
        seed = header.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | str)):
            raise InvalidRecordError("the header's seed is a whole number, a text or null")
        players = _field(header, "players", list)
        known = {"game", "config", "seed", "players", "date", "engine_version"}
        outcome = data.get("outcome")
        if outcome is not None and not isinstance(outcome, dict):
            raise InvalidRecordError("'outcome' is an object or null")
        return cls(
            game=_field(header, "game", str),
            config=_field(header, "config", dict),
            seed=seed,
            players=tuple(str(p) for p in players),
            date=str(header.get("date", "")),
            engine_version=str(header.get("engine_version", "")),
            initial=_field(data, "initial", dict),
            moves=tuple(moves),
            outcome=outcome,
            extra={k: v for k, v in header.items() if k not in known},
        )


def _field(data: Mapping[str, Any], key: str, kind: type) -> Any:
    if key not in data:
        raise InvalidRecordError(f"the record lacks {key!r}")
    value = data[key]
    if not isinstance(value, kind):
        raise InvalidRecordError(f"{key!r} should be a {kind.__name__}")
    return value


class Recorder:
    """Plays a game and writes its record: ``apply`` actions, then ``finish``."""

    def __init__(
        self,
        game: Game[Any],
        seed: int | str,
        players: Sequence[str] | None = None,
        *,
        date: str | None = None,
    ) -> None:
        self.game = game
        self.seed = seed
        self.state: State[Any] = game.new_initial_state(seed)
        self.players = tuple(players or (f"Player {i + 1}" for i in range(game.num_players)))
        if len(self.players) != game.num_players:
            raise ValueError(f"{game.num_players} player names expected")
        self.date = date or dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
        self.initial = self.state.to_json()
        self.moves: list[Move] = []

    def apply(self, player: int, action: Action) -> list[Event]:
        events = self.state.apply_action(player, action)
        self.moves.append(Move(player, str(action), tuple(e.to_dict() for e in events)))
        return events

    def finish(self) -> GameRecord:
        outcome = self.state.outcome()
        return GameRecord(
            game=self.game.name,
            config=self.game.config_json(),
            seed=self.seed,
            players=self.players,
            date=self.date,
            engine_version=sakura.__version__,
            initial=self.initial,
            moves=tuple(self.moves),
            outcome=outcome.to_dict() if outcome else None,
        )
