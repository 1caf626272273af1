"""How fast a round unfolds on screen: the pause between its steps, or a key press.

A round of Sakura resolves every card at once: at 80×24 the log shows eleven lines, and a
four-player round writes more than that. The pace slows it down for the eye: ``normal`` and
``slow`` pause between steps (a card revealed, a card resolving, a sakura scored, a bump);
``step`` waits at each until Space is pressed, so a player reads each card's effect on the
garden before the next; ``fast`` does not pause (tests, and players who know the game). The P
key cycles through them during a game (the web table's speed menu does the same).
"""

from __future__ import annotations

import asyncio
from typing import Final

from sakura.tui.i18n import N_

PACES: Final = ("normal", "slow", "step", "fast")  # the order P cycles in
SECONDS: Final = {"normal": 0.35, "slow": 1.0, "fast": 0.0}
LABELS: Final = {
    "normal": N_("Pace: normal."),
    "slow": N_("Pace: slow."),
    "step": N_("Pace: step by step (Space: the next step)."),
    "fast": N_("Pace: fast (no pauses)."),
}
# The events a round pauses after: what changes the garden, one at a time.
STEPS: Final = frozenset({"cards_revealed", "card_resolving", "sakura_scored", "bumped"})


class Pace:
    """The pace of one app: a name of :data:`PACES` (or a pause in seconds, ``seconds``)."""

    def __init__(self, name: str = "normal", *, seconds: float | None = None) -> None:
        if name not in PACES:
            raise ValueError(f"unknown pace {name!r}; choose one of {', '.join(PACES)}")
        self.name = name
        self.seconds = SECONDS.get(name, 0.0) if seconds is None else seconds
        self._next = asyncio.Event()
        self.waiting = False

    @classmethod
    def from_delay(cls, delay: float) -> Pace:
        """The app's older ``delay`` argument: 0 is ``fast``, any other pause its own pace."""
        return cls("fast") if delay <= 0 else cls("normal", seconds=delay)

    @property
    def stepping(self) -> bool:
        return self.name == "step"

    def cycle(self) -> str:
        """The next pace of :data:`PACES`; a step being waited for is let go."""
        self.name = PACES[(PACES.index(self.name) + 1) % len(PACES)]
        self.seconds = SECONDS.get(self.name, 0.0)
        self.step()
        return self.name

    def step(self) -> bool:
        """Space: let the waiting step go on. ``False`` when nothing was waiting."""
        if not self.waiting:
            return False
        self._next.set()
        return True

    async def beat(self) -> None:
        """The pause after one step of a round: none, a few tenths of a second, or until
        :meth:`step` (Space) is called."""
        if self.stepping:
            self._next.clear()
            self.waiting = True
            try:
                await self._next.wait()
            finally:
                self.waiting = False
        elif self.seconds > 0:
            await asyncio.sleep(self.seconds)
