"""The play session a game screen is given: how the game it shows is played.

A game screen (:mod:`sakura.tui.game_screen` and each game's own) draws the board and reads
keys; it never decides who acts next, where an action goes, or where the game is saved.
That is its play session's job, one kind for each way of playing, behind :class:`Play`:

- :class:`~sakura.tui.local_play.LocalPlay`: a game played here, one human against bots;
- :class:`~sakura.tui.local_play.HotSeatPlay`: a game played here by several humans at one
  keyboard, which is passed between them (the hands stay hidden until it is);
- :class:`~sakura.tui.remote_play.RemotePlay`: a seat at a web table, fed by the server;
- :class:`~sakura.tui.remote_play.WatchPlay`: a web table watched, with no seat.

The screen asks its session for views (:meth:`Play.view`) and submits actions through it
(:meth:`Play.submit`); the session tells the screen what happened through :class:`Display`,
which every game screen is. Both games go through the same sessions: a session speaks only
the game protocol, and a game's screen only draws it.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from sakura.engine import Event, View
from sakura.records import GameRecord
from sakura.tui.pace import Pace
from sakura.tui.session import Setup

if TYPE_CHECKING:
    from sakura.bots import Advice
    from sakura.tui.hints import Hinter

V = TypeVar("V", bound=View)
EventData = Mapping[str, Any]  # an event as a seat may see it (``Event.to_dict``, or the server's)


@dataclass(slots=True)
class Settings:
    """What the app's screens share: the pace of a round, the folder games are saved in, and
    what the command says on leaving (the last file saved, why a join failed)."""

    pace: Pace
    save_dir: Path
    last_saved: Path | None = None
    join_error: str | None = None


class Display(Protocol[V]):
    """What a play session tells its game screen (every :class:`GameScreen` is one)."""

    settings: Settings
    names: list[str]
    busy: bool  # keys wait (a bot's move or the server's update is being shown)

    @property
    def hinter(self) -> Hinter: ...

    def who(self, seat: int) -> str: ...

    def sentence(self, event: dict[str, Any], you: int | None) -> str | None: ...

    def write(self, text: str | None) -> None: ...

    def start(self) -> None: ...

    def refresh_board(self) -> None: ...

    async def tell(self, events: Sequence[EventData], snapshots: list[V] | None, *, others: bool) -> None:
        """One action's events in the log (and on the board); ``snapshots``: the views after
        each atomic step, when the game is played here; ``others``: not this keyboard's."""
        ...

    def begin_turn(self, seat: int) -> None: ...

    def offer_turn(self, seat: int) -> None:
        """``seat`` may act: open its turn unless the one on screen is still that turn."""
        ...

    def hand_over(self, seat: int) -> None:
        """Hot-seat: hide the board, pass the keyboard to ``seat``, then open its turn."""
        ...

    def hold_keys(self, *, keep_actor: bool) -> None:
        """No key counts until the next turn (``keep_actor``: its hand stays in sight)."""
        ...

    def wait(self, seats: Sequence[int], *, keep_actor: bool) -> None:
        """:meth:`hold_keys`, and the prompt names who is deciding."""
        ...

    def game_over(self) -> None: ...

    def prompt_again(self) -> None:
        """The prompt said again (a move timer's seconds left change)."""
        ...

    def notify(self, message: str) -> Any: ...

    def saved(self, path: Path) -> None: ...

    def whole(self) -> bool:
        """Whether the screen's widgets are there (not while the app closes)."""
        ...

    def work(self, job: Coroutine[Any, Any, object], *, group: str, exclusive: bool = False) -> None:
        """Run ``job`` in one of the screen's workers."""
        ...

    def every_second(self, callback: Callable[[], None]) -> None: ...

    def post_message(self, message: Any) -> bool: ...


class Play(Protocol[V]):
    """How the game on a screen is played; ``V`` is the game's view type."""

    @property
    def setup(self) -> Setup: ...

    @property
    def seed(self) -> int | str:
        """The deal's seed here; a web table's id there (what the log's first line names)."""
        ...

    @property
    def humans(self) -> tuple[int, ...]:
        """The seats played from this keyboard."""
        ...

    @property
    def hot_seat(self) -> bool: ...

    @property
    def viewer(self) -> int | None:
        """Whose eyes the log is written for: the one human here, or nobody's."""
        ...

    def names(self) -> list[str]: ...

    def view(self, seat: int | None) -> V: ...

    def terminal(self) -> bool: ...

    def away(self) -> frozenset[int]:
        """The seats whose player has left the table (a web table's presence)."""
        ...

    def open(self, display: Display[V]) -> None:
        """The screen is up: say what game this is, and let it go on."""
        ...

    async def close(self) -> None: ...

    async def submit(self, display: Display[V], seat: int, action: str) -> None:
        """Play ``action`` (legal in ``seat``'s view) for ``seat``, then let the game go on."""
        ...

    def preview(self, seat: int, action: str) -> list[Event] | None:
        """The events an answer to a pending choice would cause; ``None`` where the engine
        is not here to play it on a clone."""
        ...

    async def advise(
        self, seat: int, view: V, spec: str, progress: Callable[[int, int], None]
    ) -> Advice | None:
        """A hint for ``seat``'s view; ``None`` when it comes as messages (a web table's)."""
        ...

    def time_left(self) -> int | None:
        """Seconds left to decide at a table with a move timer; ``None`` without one."""
        ...

    @property
    def turn_based(self) -> bool:
        """A web table played at a pace (hours or days a move): its time left is a due time."""
        ...

    def record(self) -> GameRecord | None:
        """The game's record where it is kept here (the score sheet is built from it)."""
        ...

    def save(self, display: Display[V]) -> None: ...

    def again(self, display: Display[V]) -> None:
        """From the end screen: another game (a new deal here, a rematch at a web table)."""
        ...

    def asks_before_quit(self) -> bool:
        """Whether Ctrl+Q asks first: a game under way here would be lost."""
        ...
