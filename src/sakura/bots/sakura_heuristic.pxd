# Types for Cython's compiled build of sakura_heuristic.py (the .py is the source; see
# docs/performance.md). The rollout rule (rollout_action, _quick, _quick_target) runs hundreds
# of thousands of times a search: it works on C ints and doubles. It reads the sampled state
# through the state's public methods only: a bot declares its own types, never the engine's.
cimport cython

cdef str _E, _E_CHOICE, _CLOSEST, _FURTHEST, _P, _P_CHOICE, _JUMP, _COUNT

@cython.locals(q=int)
cpdef bint _any_beyond(list pos, int me, int direction) except -1

@cython.locals(n=double, d=double)
cpdef long _rounded(double x) except? -1

cdef class SakuraHeuristic:
    cdef public object game
    cdef public list gk, ga, pk, pa, below, pre, keep
    cdef public double mu, var, speed
    cdef public object sakuras, awards, last_awards
    cdef public int painters, players, court, others

    @cython.locals(pos=list, e=int, pending=tuple, card=int, spot=int, rival=bint, target=int,
                   hand=list, best_card=int, best=double, score=double, c=int)
    cpdef rollout_action(self, state, int player, rng)

    @cython.locals(p=int, actions=list)
    cpdef playout(self, state, rng, double epsilon)

    @cython.locals(me=int, start=int, pre=double, ex=double, kind=str, keep=double, bonus=double,
                   amount=int, target=int)
    cpdef double _quick(self, list pos, int e, int seat, int card) except? -1e300

    @cython.locals(ahead=list, nearest=int, spot=int, q=int, i=Py_ssize_t)
    cpdef int _quick_target(self, list pos, int seat, str kind, int amount, int me) except? -1

    @cython.locals(target=int, awards=tuple, distance=double, weight=double, gate=Py_ssize_t,
                   values=list, seat=Py_ssize_t, q=int, value=double, rank=Py_ssize_t, r=int,
                   mine=double, top=double, total=double, rivals=Py_ssize_t)
    cpdef double _board_value(self, list pos, list tokens, int scored, double emperor,
                              int viewer, bint scoring) except? -1e300
