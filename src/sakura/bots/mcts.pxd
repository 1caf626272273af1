# Types for Cython's compiled build of mcts.py (the .py is the source; see docs/performance.md).
cimport cython

@cython.locals(e=list, i=Py_ssize_t, low=double, high=double, prior=double, visits=double,
               total=double, spread=double, fpu=double, best_score=double, n=double,
               mean=double, score=double, best=list,
               reward=double, available=double)
cpdef list _best_entries(list entries, double c, double bias)
