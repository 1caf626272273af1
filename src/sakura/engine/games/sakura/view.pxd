# Types for Cython's compiled build of view.py (the .py is the source; see docs/performance.md).

cdef dict _public_part(state, bint preview=*)
cdef _seat_view(dict public, state, player)
