"""Sakura in the terminal (Textual): play against bots or hot-seat, save, resume, replay.

The app renders the engine's views and events and never decides a rule itself; its
strings are gettext messages in ``locale/`` (English, Spanish, Persian).
"""

from sakura.tui.app import SakuraApp
from sakura.tui.session import SeatSpec, Session, Setup

__all__ = ["SakuraApp", "SeatSpec", "Session", "Setup"]
