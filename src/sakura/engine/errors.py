"""Narrow errors for everything a caller can get wrong.

Every error a user can cause is raised *before* any state changes, so catching it leaves the
game exactly as it was. They subclass :class:`ValueError` where the cause is a bad value, so
generic callers can catch the broad class and specific callers the narrow one (an exhausted
deck, the one error that is no caller's value, subclasses :class:`RuntimeError`). The engine
raises no other exception on purpose: every bad config, value and input meets one of these.
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


class InvalidConfigError(GameError, ValueError):
    """A game's config cannot be played: wrong player count or variant, an unknown key, a
    deck too small for the table."""


class NoSuchPlayerError(GameError, ValueError):
    """A seat that the game does not have (a view asked for player 7 of four)."""


class InvalidViewError(GameError, ValueError):
    """A view cannot serve: sampled from as a spectator or after the end, or its JSON is
    malformed."""


class InvalidEventError(GameError, ValueError):
    """An event's JSON names no event of the game or lacks its fields."""


class DeckExhaustedError(GameError, RuntimeError):
    """No card is left to draw, even after reshuffling the discards: the deck is too small
    for the table (a custom deck's problem; the published one never runs out)."""
