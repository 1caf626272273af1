# Types for Cython's compiled build of rng.py (the .py is the source; see docs/performance.md).
# The generator's state is a C 64-bit unsigned integer: its arithmetic wraps modulo 2**64,
# which is exactly what the .py's ``& _MASK`` does.
cimport cython

cdef unsigned long long _GOLDEN

cdef class SplitMix64:
    cdef public unsigned long long state

    @cython.locals(z="unsigned long long")
    cpdef unsigned long long next64(self)
    @cython.locals(i=Py_ssize_t, k=Py_ssize_t, j=Py_ssize_t, bound="unsigned long long",
                   r="unsigned long long")
    cpdef shuffle(self, list items)
