# Types for Cython's compiled build of view.py (the .py is the source; see docs/performance.md).
cimport cython

cdef tuple _public_part(state, bint preview=*)
@cython.locals(setters=tuple, i=Py_ssize_t)
cdef _seat_view(tuple public, state, player)
