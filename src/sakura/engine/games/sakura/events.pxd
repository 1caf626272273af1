# Types for Cython's compiled build of events.py (the .py is the source; see docs/performance.md).
# Each event an extension type (Cython makes the @dataclass one): made in C, a few times cheaper
# than the interpreted __init__ dataclasses generate. The fields stay Python objects, so every
# value is kept as given, as in the pure build. RoundStarted stays a Python dataclass: its field
# ``double`` is a C type's name, which a declaration here cannot use.
from sakura.engine.protocol cimport Event


cdef class CardChosen(Event):
    cdef readonly object player, cards


cdef class CardsRevealed(Event):
    cdef readonly object plays, court_from_deck


cdef class CardResolving(Event):
    cdef readonly object seat, card


cdef class ChoiceAsked(Event):
    cdef readonly object seat, card, part


cdef class ChoiceMade(Event):
    cdef readonly object seat, card, part, forward


cdef class EmperorMoved(Event):
    cdef readonly object card, start, end


cdef class PainterMoved(Event):
    cdef readonly object seat, start, end, cause, card


cdef class PainterStayed(Event):
    cdef readonly object seat, card, why


cdef class Bumped(Event):
    cdef readonly object seat, start, at, end, token_lost, by, card


cdef class CardsDiscarded(Event):
    cdef readonly object cards


cdef class SakuraScored(Event):
    cdef readonly object sakura, space, awards, supply


cdef class HandsRefilled(Event):
    cdef readonly object counts, draws


cdef class DeckReshuffled(Event):
    cdef readonly object size, order


cdef class GameEnded(Event):
    cdef readonly object winners, tokens, reason
