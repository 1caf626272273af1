"""Narrow errors for everything a caller can get wrong.

Every error a user can cause is raised *before* any state changes, so catching it leaves the
game exactly as it was. They subclass :class:`ValueError` where the cause is a bad value, so
generic callers can catch the broad class and specific callers the narrow one.
"""

from __future__ import annotations


class GameError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalActionError(GameError, ValueError):
    """The action is not legal for that player now (wrong card, wrong phase, malformed)."""


class NotYourTurnError(IllegalActionError):
    """The player is not among those who must act now."""


class InvalidPositionError(GameError, ValueError):
    """A position (text or JSON) is malformed or describes an impossible situation."""


class InvalidDataError(GameError, ValueError):
    """A garden, deck or other data file is malformed."""


class InvalidStateError(GameError, ValueError):
    """A serialized state is malformed or inconsistent."""
