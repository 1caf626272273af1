# Types for Cython's compiled build of encoding.py (the .py is the source; see docs/performance.md).
# The observations are written element by element through typed memoryviews: C loops over
# the encoder's index lists, instead of numpy calls whose cost is the call itself.
cimport cython

@cython.locals(row=Py_ssize_t, base=Py_ssize_t, order=Py_ssize_t, ones=list, idx=list, val=list,
               i=Py_ssize_t, k=Py_ssize_t)
cpdef _fill(float[::1] out, Py_ssize_t size, const int[::1] to_seat, list seats, list public,
            list private)

@cython.locals(row=Py_ssize_t, base=Py_ssize_t, i=Py_ssize_t)
cpdef mark(signed char[::1] out, Py_ssize_t size, list ids)
