# Types for Cython's compiled build of actions.py (the .py is the source; see docs/performance.md).
# Each action an extension type: Cython makes the @dataclass's __init__, __eq__ and __hash__ in C.
# The fields stay Python objects, so every value is kept as given, as in the pure build.


cdef class Play:
    cdef readonly object card, court


cdef class Choose:
    cdef readonly object forward
