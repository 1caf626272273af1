"""Sakura in the terminal (Textual): play against bots or hot-seat, save, resume, replay, or
take a seat at a web table; Sakura and its card game (``sakura-cards``).

The app renders the engine's views and events and never decides a rule itself; its
strings are gettext messages in ``locale/`` (English, Spanish, Persian).

Shared by every game: ``session`` (a game behind a recorder, its seats and bots), ``play``
(the play session a game screen is given: ``local_play`` here and hot-seat, ``remote_play``
a web table's seat or a watcher, over ``remote``'s connection), ``game_screen`` (the turn on
screen), ``dialogs`` (help, pass the keyboard, end), ``start``, ``replay_screen``,
``remote_screens`` (connecting), ``navigation`` (where a screen leads, told to ``app``, which
builds every screen), ``i18n``.
Sakura's own: ``sakura_screens``, ``render``, ``widgets``, ``log``. The card game's own:
``cards_screens``, ``cards_render``, ``cards_widgets``, ``cards_log``.
"""

from sakura.tui.app import SakuraApp
from sakura.tui.session import SeatSpec, Session, Setup

__all__ = ["SakuraApp", "SeatSpec", "Session", "Setup"]
