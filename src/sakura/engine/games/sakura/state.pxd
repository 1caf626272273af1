# Types for Cython's compiled build of state.py (the .py is the source; see docs/performance.md).
cimport cython

cdef int NOT_STARTED, GARDEN_CHOICE, GARDEN_DONE, PAINTER_CHOICE

cdef class SakuraState:
    cdef public object _dealer
    cdef public object _hook
    cdef public object _log
    cdef public object _outcome
    cdef public list deck
    cdef public list discard
    cdef public object double
    cdef public int emperor
    cdef public object game
    cdef public list hands
    cdef public tuple last_round
    cdef public list picks
    cdef public tuple _waiting
    cdef public list pos
    cdef public int qi
    cdef public list queue
    cdef public object rng
    cdef public int round
    cdef public int scored
    cdef public bint scoring
    cdef public int stage
    cdef public int supply
    cdef public bint terminal
    cdef public list tokens

    cpdef SakuraState clone(self)
    @cython.locals(queue=list)
    cpdef tuple current_players(self)
    cpdef list legal_actions(self, player)
    cpdef list legal_texts(self, player)
    @cython.locals(picks=list, hand=list)
    cpdef list _legal(self, player, list plays, list pairs, tuple choices)
    cpdef bint is_terminal(self)
    cpdef tuple pending_choice(self)
    cpdef list apply_action(self, player, action)
    @cython.locals(hand=list)
    cpdef _check(self, player, action)
    cpdef apply_fast(self, int player, action)
    @cython.locals(hand=list, picks=list, waiting=tuple, i=Py_ssize_t)
    cpdef _pick(self, int player, action)
    @cython.locals(picks=list, plays=list, seat=Py_ssize_t)
    cpdef _reveal(self)
    @cython.locals(card=int, seat=int, amount=int)
    cpdef _answer(self, bint forward)
    @cython.locals(rest=list, cards=list)
    cpdef _finish_card(self)
    @cython.locals(court=int, card=int, seat=int, g_amount=int, p_amount=int, ops=list,
                   g_kind=str, p_kind=str)
    cpdef _advance(self)
    @cython.locals(target=int)
    cpdef _garden_action(self, int card, str kind, int amount)
    @cython.locals(pos=list, me=int, emperor=int, target=int, ahead=list)
    cpdef _painter_action(self, int seat, int card, str kind, int amount)
    @cython.locals(pos=list, best=int)
    cpdef int _closest(self)
    @cython.locals(pos=list, low=int)
    cpdef int _furthest(self)
    @cython.locals(pos=list, start=int, p=int, emperor=int)
    cpdef _move_painter(self, int seat, int amount, str cause, object card)
    @cython.locals(pos=list, others=list, at=int, p=int, steps=int, lost=bint)
    cpdef _bump(self, int seat, int start, str by, int card)
    @cython.locals(e=int, start=int, nxt=int, pos=list, bumped=bint)
    cpdef _move_emperor(self, int card, int amount)
    cpdef _score(self)
    @cython.locals(deck=list, need=int, hand=list)
    cpdef _end_round(self)
    cpdef int _draw(self) except? -1
    cpdef object _double_player(self)
