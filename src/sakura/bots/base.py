"""What every bot is: a seeded decision-maker that acts from one player's view, within a limit.

Modelled on python-chess's engine API (``engine.play(board, Limit(time=0.1))``) and
OpenSpiel's bots (built with an RNG, asked for one action at a time): a bot is built once for
a game with a seed, then asked ``act(view)`` at each decision of the player whose view it is
given. It never receives a state, so it cannot see other hands, secret picks or the deck
order; search bots sample those (determinization).

>>> Limit.parse("200"), Limit.parse("0.25s"), str(Limit(seconds=1.5))
(Limit(iterations=200, seconds=None), Limit(iterations=None, seconds=0.25), '1.5s')
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from sakura.engine import Action, View


class BotError(ValueError):
    """A bot cannot be built (unknown spec, bad limit) or cannot act on what it was given."""


@dataclass(frozen=True, slots=True)
class Limit:
    """How long a search bot may think per decision: ``iterations`` and/or ``seconds``.

    Both may be given; the search stops at whichever comes first. An iteration-only limit
    makes a bot reproducible (same seed, same view, same decision on every machine); a time
    limit makes it depend on the machine's speed.
    """

    iterations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise BotError("a limit needs iterations or seconds")
        if self.iterations is not None and (isinstance(self.iterations, bool) or self.iterations < 1):
            raise BotError(f"iterations must be a positive whole number, not {self.iterations!r}")
        if self.seconds is not None and not self.seconds > 0:
            raise BotError(f"seconds must be positive, not {self.seconds!r}")

    @classmethod
    def parse(cls, text: str) -> Limit:
        """``"200"`` (iterations), ``"0.25s"`` or ``"250ms"`` (time); ``str()`` reads back."""
        t = text.strip().lower()
        try:
            if t.endswith("ms"):
                return cls(seconds=float(t[:-2]) / 1000)
            if t.endswith("s"):
                return cls(seconds=float(t[:-1]))
            return cls(iterations=int(t))
        except ValueError:
            raise BotError(f"not a limit: {text!r} (expected e.g. 200, 0.25s or 250ms)") from None

    def __str__(self) -> str:
        parts = []
        if self.iterations is not None:
            parts.append(str(self.iterations))
        if self.seconds is not None:
            parts.append(f"{self.seconds:g}s")
        return "+".join(parts)

    def start(self) -> Budget:
        """A running budget for one decision."""
        return Budget(self)


class Budget:
    """Counts one decision's iterations and watches its clock (checked every iteration)."""

    __slots__ = ("deadline", "done", "iterations")

    def __init__(self, limit: Limit) -> None:
        self.iterations = limit.iterations
        self.deadline = None if limit.seconds is None else time.perf_counter() + limit.seconds
        self.done = 0

    def spend(self) -> bool:
        """Count one iteration; False once the limit is reached (at least one always runs)."""
        self.done += 1
        if self.iterations is not None and self.done >= self.iterations:
            return False
        return not (self.deadline is not None and time.perf_counter() >= self.deadline)


@runtime_checkable
class Bot(Protocol):
    """A player that decides from its own view. ``spec`` is the text that built it."""

    @property
    def spec(self) -> str: ...

    def act(self, view: View) -> Action:
        """The action to take for ``view.player`` now: a card to play, or the answer to a
        choice a resolving card asks. Always one of ``view.legal_actions``."""
        ...


def check_view(view: object) -> View:
    """Refuse anything but a player's view whose turn it is.

    A state is no :class:`View` (it has no ``player``), and its ``legal_actions`` is a method
    where a view's is a tuple of texts. Refusing states here makes "bots decide from views
    only" a property of every bot, not a promise.
    """
    if not isinstance(view, View) or not isinstance(view.legal_actions, tuple):
        raise TypeError(f"a bot acts from a player's View, not from {type(view).__name__}")
    player = view.player
    if player is None:
        raise BotError("a spectator's view has no decision to make")
    if view.terminal or not view.legal_actions:
        raise BotError(f"player {player + 1} has nothing to decide now")
    return view


def weighted_index(weights: Sequence[float], rng: random.Random) -> int:
    """An index drawn in proportion to ``weights`` (not all zero) with one ``rng.random()``;
    the last index where rounding leaves the draw past the end. Every bot that draws by
    weight draws this way, so a seed gives the same choices whichever bot makes them.

    >>> weighted_index([0.0, 1.0, 0.0], random.Random(1))
    1
    """
    x = rng.random() * sum(weights)
    for i, w in enumerate(weights):
        x -= w
        if x < 0:
            return i
    return len(weights) - 1
