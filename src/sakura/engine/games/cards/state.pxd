# Types for Cython's compiled build of state.py (the .py is the source; see docs/performance.md).
cimport cython

cdef class CardsState:
    cdef public object _hook
    cdef public object _log
    cdef public object _outcome
    cdef public list aside
    cdef public list areas
    cdef public list discards
    cdef public int first
    cdef public object game
    cdef public list given
    cdef public list hands
    cdef public str phase
    cdef public list received
    cdef public object rng
    cdef public int round
    cdef public list scores
    cdef public bint terminal
    cdef public int turn

    cpdef CardsState clone(self)
    cpdef tuple current_players(self)
    @cython.locals(n=int)
    cpdef list fits(self, int player, str card)
    @cython.locals(names=list)
    cpdef list legal_actions(self, player)
    @cython.locals(hand=list, other=int)
    cpdef apply_fast(self, int player, action)
    @cython.locals(other=int)
    cpdef _next_turn(self)
