# Types for Cython's compiled build of events.py (the .py is the source; see docs/performance.md).
# Each event an extension type, as in the Sakura game's events.pxd: made in C; the fields stay
# Python objects.
from sakura.engine.protocol cimport Event


cdef class RoundStarted(Event):
    cdef readonly object round, starter


cdef class CardsDealt(Event):
    cdef readonly object hands, aside


cdef class CardPlaced(Event):
    cdef readonly object player, card, area


cdef class CardDiscarded(Event):
    cdef readonly object player, card


cdef class CardGiven(Event):
    cdef readonly object giver, receiver, card


cdef class RoundScored(Event):
    cdef readonly object round, areas, totals, cards, detail


cdef class GameEnded(Event):
    cdef readonly object winners, scores, reason
