"""The game protocol every game of the platform implements.

Modelled on OpenSpiel's Game/State/Observer split and python-chess's small values:

* a :class:`Game` holds the facts (config, data) and makes states from a seed;
* a :class:`State` says who must act now (several players at once for simultaneous choices),
  lists each player's legal actions, applies one action at a time and returns the
  :class:`Event` values that action caused, gives per-player :class:`View` values, and an
  :class:`Outcome` at the end;
* actions are small hashable values whose ``str()`` is a text form that
  ``Game.parse_action`` reads back;
* every state and view says where the game stands as a :class:`Progress` value (the round, the
  kind of decision pending, whose it is), so no caller probes a state for a ``round``;
* views, events, actions and saved states print to JSON and parse back equal (python-chess's
  ``Board(fen).fen() == fen``): ``Game.view_from_json(view.to_json()) == view``,
  ``Game.event_from_json(event.to_json()) == event``, ``parse_action(str(action)) == action``;
* a :class:`FastGame` also offers the *fast path* for simulation and search: a
  :class:`FastState` that builds no event values and whose ``apply_fast`` skips the checks of
  ``apply_action``. It is a declared, typed capability: code that plays many games asks
  :func:`fast_path` (or ``isinstance(game, FastGame)``) once, never probes a state with
  ``getattr``.

Bots, records, servers and RL adapters speak only this protocol, so a second game needs only
its own rules module. Simultaneous choices are applied one player at a time; nothing is
revealed until the last of them arrives, and the order of submission never changes the result.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, fields
from functools import partial
from typing import Any, ClassVar, Protocol, Self, TypeVar, cast, runtime_checkable

from sakura.engine.errors import InvalidEventError

JSON = dict[str, Any]


@runtime_checkable
class Action(Hashable, Protocol):
    """A move. ``str(action)`` is its text form; ``Game.parse_action`` reads it back."""

    def __str__(self) -> str: ...


class Event:
    """Something that happened, fine-grained enough to animate and to log.

    Subclasses are frozen dataclasses with a ``kind``. An event that carries hidden
    information overrides :meth:`seen_by` to return what a given viewer may know.

    The base holds no field and is not a dataclass itself, so that the compiled build can make
    it an extension type (``protocol.pxd``) and the games' events extension types above it
    (their ``events.pxd``): Cython builds those in C, where the ``__init__`` that ``dataclasses``
    generates stays interpreted. For the same reason ``kind`` is a plain class attribute here
    and in such events (an annotation in an extension type's body declares a C field).
    """

    kind = "event"

    def to_dict(self) -> JSON:
        """Plain JSON-ready form: ``{"type": kind, field: value, ...}``."""
        out: JSON = {"type": self.kind}
        names = _FIELD_NAMES.get(type(self))
        if names is None:  # once per event class: ``fields()`` costs more than the event
            names = _FIELD_NAMES[type(self)] = tuple(f.name for f in fields(cast(Any, self)))
        for name in names:
            out[name] = _plain(getattr(self, name))
        return out

    def to_json(self) -> JSON:
        """The same as :meth:`to_dict`; the game's ``event_from_json`` reads it back."""
        return self.to_dict()

    def seen_by(self, viewer: int | None) -> Event:
        """This event as ``viewer`` (a seat, or ``None`` for a spectator) may see it."""
        return self


def event_from_json(data: Mapping[str, Any], classes: Mapping[str, type[Event]]) -> Event:
    """The event ``data`` (an event's ``to_json``) describes, among a game's event
    ``classes`` (by ``kind``): every JSON list read back as the tuple the event held. A game
    whose events hold other values (a score's explanation) converts those itself.

    Raises :class:`~sakura.engine.errors.InvalidEventError` for anything else."""
    if not isinstance(data, Mapping):
        raise InvalidEventError(f"an event is a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    cls = classes.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise InvalidEventError(f"not an event of this game: {kind!r}")
    names = tuple(f.name for f in fields(cast(Any, cls)))
    unknown = set(data) - {"type", *names}
    if unknown:
        raise InvalidEventError(f"a {cls.kind} event has no fields {sorted(unknown)}")
    try:
        return cls(**{name: tupled(data[name]) for name in names if name in data})
    except TypeError as exc:
        raise InvalidEventError(f"a {cls.kind} event: {exc}") from None


def tupled(value: Any) -> Any:
    """``value`` from JSON with every list (at any depth) read back as a tuple: the engine's
    values hold tuples, JSON carries lists."""
    if isinstance(value, list):
        return tuple([tupled(v) for v in value])
    return value


# Each event class's field names, in order (filled on first use; a class's fields never change).
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _plain(value: Any) -> Any:
    """JSON-ready: tuples become lists; events and other small values with a ``to_dict``
    (a game's own, such as a score's explanation) become their dicts."""
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    to_dict = getattr(value, "to_dict", None)
    if to_dict is not None:
        return to_dict()
    return value


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game.

    ``winners`` are seats (shared wins list several); ``scores`` are the final scores by seat;
    ``reason`` says in words how the winner was decided.
    """

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    reason: str = ""

    def returns(self) -> tuple[float, ...]:
        """1.0 for a sole winner, 1/k to each of k who share the win, 0.0 for the rest."""
        share = 1.0 / len(self.winners) if self.winners else 0.0
        return tuple(share if seat in self.winners else 0.0 for seat in range(len(self.scores)))

    def to_dict(self) -> JSON:
        return {"winners": list(self.winners), "scores": list(self.scores), "reason": self.reason}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Outcome:
        return cls(tuple(data["winners"]), tuple(data["scores"]), str(data.get("reason", "")))


@dataclass(frozen=True, slots=True)
class Progress:
    """Where a game stands: ``round`` (from 1), ``decision`` the kind of decision pending (each
    game names its own, e.g. Sakura's ``"selection"``, the card game's ``"place"``; ``None``
    once the game is over) and ``players``, the seats that must take it.

    >>> Progress(2, "selection", (0, 2))
    Progress(round=2, decision='selection', players=(0, 2))
    >>> Progress.from_json(Progress(3, None, ()).to_json())
    Progress(round=3, decision=None, players=())
    """

    round: int
    decision: str | None
    players: tuple[int, ...]

    @property
    def over(self) -> bool:
        return self.decision is None

    def to_json(self) -> JSON:
        return {"round": self.round, "decision": self.decision, "players": list(self.players)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Progress:
        return cls(int(data["round"]), data["decision"], tuple(data["players"]))


@runtime_checkable
class View(Protocol):
    """What one player (or a spectator, ``player is None``) may see of a state.

    Each game's view is a frozen dataclass with its own typed fields (``SakuraView``,
    ``CardsView``); these are the members every game's view has. ``legal_actions`` are the
    viewer's legal actions as text (``Game.parse_action`` reads them), so a bot or a client can
    act from the view alone; ``progress`` says where the game stands. ``to_json`` is plain
    JSON that ``Game.view_from_json`` reads back into an equal view."""

    @property
    def player(self) -> int | None: ...

    @property
    def progress(self) -> Progress: ...

    @property
    def current_players(self) -> tuple[int, ...]: ...

    @property
    def legal_actions(self) -> tuple[str, ...]: ...

    @property
    def terminal(self) -> bool: ...

    def to_json(self) -> JSON: ...


A = TypeVar("A", bound=Action)
StepHook = Callable[["State[Any]"], None]


class State(Protocol[A]):
    """A game in progress. Mutable; ``clone()`` is cheap and independent."""

    @property
    def num_players(self) -> int: ...

    def current_players(self) -> tuple[int, ...]:
        """Seats that must act now: several during a simultaneous choice, none at the end."""
        ...

    def legal_actions(self, player: int) -> Sequence[A]:
        """Actions ``player`` may take now (empty if it is not their turn)."""
        ...

    def apply_action(self, player: int, action: A) -> list[Event]:
        """Apply one player's action and return the events it caused, in order.

        Raises :class:`~sakura.engine.errors.IllegalActionError` (or a subclass) and changes
        nothing if the action is not legal for that player now.
        """
        ...

    def is_terminal(self) -> bool: ...

    def progress(self) -> Progress:
        """The round, the kind of decision pending and whose (as every view of it says)."""
        ...

    def outcome(self) -> Outcome | None: ...

    def view(self, player: int | None) -> View:
        """What ``player`` may see now; ``None`` gives the public (spectator) view."""
        ...

    def clone(self) -> Self: ...

    def to_json(self) -> JSON:
        """The whole state, hidden parts and RNG included (for saving, never for players)."""
        ...

    def text(self) -> str:
        """A one-line text form of the situation (like chess's FEN)."""
        ...

    def set_step_hook(self, hook: StepHook | None) -> None:
        """Call ``hook(state)`` after each atomic step (e.g. each resolved card)."""
        ...


class Game(Protocol[A]):
    """A game's facts and the factory of its states."""

    name: ClassVar[str]

    @property
    def num_players(self) -> int: ...

    def new_initial_state(self, seed: int | str) -> State[A]: ...

    def parse_action(self, text: str) -> A: ...

    def view_from_json(self, data: Mapping[str, Any]) -> View:
        """The view whose ``to_json`` is ``data`` (equal to it); raises
        :class:`~sakura.engine.errors.InvalidViewError` for anything else."""
        ...

    def event_from_json(self, data: Mapping[str, Any]) -> Event:
        """The event whose ``to_json`` is ``data``; raises
        :class:`~sakura.engine.errors.InvalidEventError` for anything else."""
        ...

    def state_from_json(self, data: Mapping[str, Any]) -> State[A]: ...

    def sample_state(self, view: Any, seed: int | str, *, events: bool = False) -> State[A]:
        """A full state consistent with a player's ``view`` (as ``State.view`` returns it),
        with the hidden part drawn from ``seed``: determinization for search bots. Events
        are off unless asked for (search needs only outcomes)."""
        ...

    def config_json(self) -> JSON:
        """The game's config as JSON; ``make_game(name, config)`` rebuilds the game."""
        ...


class FastState(State[A], Protocol[A]):
    """A state on the fast path: made without event values (``apply_action`` returns ``[]``),
    stepped by ``apply_fast``. Everything else (turns, legal actions, views, outcome, saving)
    is as on the checked path, and the same actions lead to the same states."""

    def apply_fast(self, player: int, action: A) -> None:
        """``apply_action`` for an action known to be legal (taken from ``legal_actions``):
        no checks, no events. An illegal action here is a bug in the caller, not an error
        the engine reports."""
        ...


@runtime_checkable
class FastGame(Game[A], Protocol[A]):
    """A game that offers the fast path (both of the platform's games do).

    ``new_fast_state(seed)`` is ``new_initial_state(seed)`` without events; states drawn by
    ``sample_state`` without ``events`` are fast states too, so search steps them the same way."""

    def new_fast_state(self, seed: int | str) -> FastState[A]: ...

    def sample_state(self, view: Any, seed: int | str, *, events: bool = False) -> FastState[A]: ...

    def sampler(self, view: Any) -> Callable[[int], FastState[A]]:
        """``sample_state`` for many seeds of one view (what a search draws):
        ``sampler(view)(seed)`` is ``sample_state(view, seed)``, what every draw shares worked
        out once."""
        ...


Stepper = Callable[[int, Any], object]


@dataclass(frozen=True, slots=True)
class FastPath:
    """How to play ``game`` when nobody reads events: the one place that knows whether a game
    has the fast path. Callers hold one per game and use ``new_state`` and ``stepper`` alike
    for every game; for a game without it they are ``new_initial_state`` and ``apply_action``.
    """

    game: Game[Any]
    fast: bool

    def new_state(self, seed: int | str) -> State[Any]:
        """A new game from ``seed``, without event values if the game can skip them."""
        if self.fast:
            return cast("FastGame[Any]", self.game).new_fast_state(seed)
        return self.game.new_initial_state(seed)

    def sampler(self, view: Any) -> Callable[[int], State[Any]]:
        """Draws of states for ``view`` by seed (``sample_state`` without events), by the
        game's own sampler where it has the fast path."""
        if self.fast:
            return cast("FastGame[Any]", self.game).sampler(view)
        return partial(self.game.sample_state, view)

    def stepper(self, state: State[Any]) -> Stepper:
        """``state.apply_fast`` for a state of a fast game, else ``state.apply_action``: for
        actions the caller took from ``legal_actions``."""
        if self.fast:
            return cast("FastState[Any]", state).apply_fast
        return state.apply_action


def fast_path(game: Game[Any]) -> FastPath:
    """``game``'s fast path, if it declares one (it implements :class:`FastGame`)."""
    return FastPath(game, isinstance(game, FastGame))
