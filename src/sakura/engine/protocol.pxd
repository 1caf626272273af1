# Types for Cython's compiled build of protocol.py (the .py is the source; see docs/performance.md).
# Event an extension type: the games' events (their own .pxd) build in C, not through the
# __init__ that dataclasses generates, which stays interpreted in a compiled module.

cdef class Event:
    pass
