# Types for Cython's compiled build of view.py (the .py is the source; see docs/performance.md).

cdef tuple _public_part(state, bint preview=*)
cdef _seat_view(tuple public, state, player)
