"""Turn-based tables: a pace a move instead of the real-time clock, one schedule of deadlines
per process (:mod:`.schedule`, stored in the database), and what a seat gets when its time runs
out (:mod:`.pace`). See ``docs/turn-based.md``."""

from sakura.server.turns import bounds
from sakura.server.turns.clocks import FakeClock, SystemClock, TurnClock
from sakura.server.turns.pace import DEFAULT_TIMEOUTS, Pace, PaceClock, hand_over
from sakura.server.turns.schedule import Schedule

__all__ = [
    "DEFAULT_TIMEOUTS",
    "FakeClock",
    "Pace",
    "PaceClock",
    "Schedule",
    "SystemClock",
    "TurnClock",
    "bounds",
    "hand_over",
]
