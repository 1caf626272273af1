# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False, binding=True, embedsignature=True
"""The batched card game's step compiled: one C loop over the tables, on the env's own arrays.

What :mod:`.kernel` is to ``SakuraBatchEnv``, this is to ``CardsBatchEnv``: the rules of
:mod:`.cards_rules` (``CardGames.act``, ``_next_turn``, ``_round``, ``legal``, an area's score
from the colours each number shows) and the env's observation, table by table with ordinary
branches, without the GIL, reading and writing the numpy implementation's arrays (so its state,
and every test of it, are shared). ``tests/rl/test_cards_batch_differential.py`` holds it to
the reference engine like the numpy code. Used by ``CardsBatchEnv(backend="compiled")`` (the
default where it is built); the numpy code is the fallback, with the same results.
"""

from libc.stdint cimport int8_t, int16_t, int64_t, uint8_t, uint64_t
from libc.string cimport memset

include "splitmix.pxi"

cdef enum:
    PLACE = 0
    GIVE = 1
    AREAS = 3
    MAX_NAMES = 64  # card names (the published deck has 28)
    MAX_NUMBERS = 16
    MAX_TOTAL = 256  # cards in the deck
    MAX_SIZE = 1024  # observation size


cdef class CardsKernel:
    """Steps and observes every table of one ``CardsBatchEnv`` (bound to its arrays)."""

    cdef int k, hand_cards, rounds, total, colours, numbers, size, wait, n_runs
    cdef int64_t num
    cdef int64_t three_pts, one_pts, row_pts, per_blossom, limit
    cdef double weight, scale
    cdef int64_t[::1] card_name, number, number_index, colour, runs
    cdef uint8_t[::1] blossom, distinct
    cdef int64_t[::1] first, round_, turn, phase
    cdef uint64_t[::1] rng, seed
    cdef uint8_t[::1] terminal
    cdef int64_t[:, :, ::1] hand, given, received, discards, length, last, score, scores
    cdef int64_t[:, ::1] aside, positions
    cdef int64_t[:, :, :, ::1] area, seq
    cdef double[:, ::1] returns, rewards
    cdef float[:, :, ::1] obs
    cdef int8_t[:, :, ::1] mask
    cdef int64_t[:, ::1] perm
    cdef float[::1] half, cards_tab, area_tab, round_tab, total_tab
    cdef int o_hand, o_given, o_received, o_discarded, o_areas, o_last, o_count, o_score
    cdef int o_sizes, o_dcounts, o_aside, o_round, o_starter, o_turn, o_phase, o_rounds
    cdef int o_totals, max_cards, numbers_slot

    def __init__(self, env):
        import numpy as np

        from sakura.rl.cards_encoding import MAX_CARDS, NUMBERS

        t, g, enc = env.tables, env.games, env.encoder
        self.k, self.hand_cards, self.rounds, self.total = t.k, t.hand, t.rounds, t.total
        self.colours, self.numbers = t.colours, len(t.numbers)
        if self.k > MAX_NAMES or self.total > MAX_TOTAL or self.numbers > MAX_NUMBERS or enc.size > MAX_SIZE:
            raise ValueError("the compiled card kernel plays decks of the published deck's size")
        self.num = g.num
        self.three_pts, self.one_pts, self.row_pts = t.three, t.one, t.row
        self.per_blossom, self.limit = t.per_blossom, t.limit
        self.card_name, self.number = t.card_name, t.number
        self.number_index = np.ascontiguousarray(t.number_index, dtype=np.int64)
        self.colour = np.ascontiguousarray(t.colour, dtype=np.int64)
        self.runs = np.array(t.runs, dtype=np.int64).reshape(-1)
        self.n_runs = len(t.runs)
        self.blossom = np.ascontiguousarray(t.blossom).view("u1")
        self.distinct = np.ascontiguousarray(t.distinct).reshape(-1).view("u1")
        self.weight, self.scale = env.score_weight, enc.score_scale
        self.rng, self.seed = g.rng, g.seed
        self.first, self.round_, self.turn, self.phase = g.first, g.round, g.turn, g.phase
        self.terminal = g.terminal.view("u1")
        self.hand, self.given, self.received, self.discards = g.hand, g.given, g.received, g.discards
        self.aside, self.area, self.seq = g.aside, g.area, g.seq
        self.length, self.last, self.score, self.scores = g.length, g.last, g.score, g.scores
        self.returns, self.positions = g.returns, g._positions
        self.rewards, self.obs, self.mask = env.rewards, env.obs, env.mask
        self.size, self.wait = enc.size, env.wait
        self.perm = np.ascontiguousarray(env._perm, dtype=np.int64)
        self.half, self.cards_tab, self.area_tab = env._half, env._cards, env._area
        self.round_tab, self.total_tab = env._round, env._total
        self.o_hand, self.o_given, self.o_received = enc.o_hand, enc.o_given, enc.o_received
        self.o_discarded, self.o_areas, self.o_last = enc.o_discarded, enc.o_areas, enc.o_last
        self.o_count, self.o_score, self.o_sizes = enc.o_count, enc.o_score, enc.o_sizes
        self.o_dcounts, self.o_aside, self.o_round = enc.o_dcounts, enc.o_aside, enc.o_round
        self.o_starter, self.o_turn, self.o_phase = enc.o_starter, enc.o_turn, enc.o_phase
        self.o_rounds, self.o_totals = enc.o_rounds, enc.o_totals
        self.max_cards, self.numbers_slot = MAX_CARDS, NUMBERS

    def first_illegal(self, int64_t[:, ::1] actions, uint8_t[::1] ended):
        """The flat index of the first acting seat whose action is outside its mask, or -1."""
        cdef Py_ssize_t i, s
        cdef int64_t a, wait = self.wait, bad = -1
        with nogil:
            for i in range(self.num):
                if ended[i]:
                    continue
                for s in range(2):
                    if self.mask[i, s, wait] != 0:
                        continue
                    a = actions[i, s]
                    if a < 0 or a > wait or self.mask[i, s, a] != 1:
                        bad = i * 2 + s
                        break
                if bad >= 0:
                    break
        return bad

    def step(self, int64_t[:, ::1] actions, uint8_t[::1] ended):
        """One decision of every table, as ``CardsBatchEnv.step`` (``actions`` checked);
        ``ended`` updated in place; rewards, observations and masks written."""
        cdef Py_ssize_t i
        with nogil:
            for i in range(self.num):
                self.step_one(i, actions, ended)
                self.observe_one(i)

    def area_scores(self, int64_t[:, ::1] counts):
        """The kernel's score of each area whose cards (counts by name) are a row of
        ``counts`` (held to ``CardsGame.score_area`` by the differential test)."""
        return [self.area_score(&counts[row, 0]) for row in range(counts.shape[0])]

    def observe(self):
        """Bring every table's observations and masks up to date with its state."""
        cdef Py_ssize_t i
        with nogil:
            for i in range(self.num):
                self.observe_one(i)

    cdef int64_t total_of(self, Py_ssize_t i, int seat) noexcept nogil:
        cdef int r
        cdef int64_t out = 0
        for r in range(self.rounds):
            out += self.scores[i, seat, r]
        return out

    cdef void step_one(self, Py_ssize_t i, int64_t[:, ::1] actions, uint8_t[::1] ended) noexcept nogil:
        cdef int64_t before0, before1
        cdef double gain0, gain1
        if ended[i]:  # autoreset: the next seed, zero rewards
            self.deal(i, self.seed[i] + <uint64_t>self.num)
            self.rewards[i, 0] = 0.0
            self.rewards[i, 1] = 0.0
            ended[i] = 0
            return
        before0, before1 = self.total_of(i, 0), self.total_of(i, 1)
        self.act(i, actions[i, self.turn[i]])
        gain0 = <double>(self.total_of(i, 0) - before0)
        gain1 = <double>(self.total_of(i, 1) - before1)
        self.rewards[i, 0] = self.weight * (gain0 - gain1) / self.scale
        self.rewards[i, 1] = self.weight * (gain1 - gain0) / self.scale
        if self.terminal[i]:
            self.rewards[i, 0] += self.returns[i, 0]
            self.rewards[i, 1] += self.returns[i, 1]
        ended[i] = self.terminal[i]

    # ------------------------------------------------------------------ rules

    cdef void deal(self, Py_ssize_t i, uint64_t seed) noexcept nogil:
        """``CardGames.deal``: who starts (one draw below 2), then round 1."""
        cdef uint64_t state = seed
        cdef int r
        self.seed[i] = seed
        self.first[i] = <int64_t>below(&state, 2)
        self.rng[i] = state
        self.round_[i] = 0
        for r in range(self.rounds):
            self.scores[i, 0, r] = 0
            self.scores[i, 1, r] = 0
        self.terminal[i] = 0
        self.returns[i, 0] = 0.0
        self.returns[i, 1] = 0.0
        self.new_round(i)

    cdef void new_round(self, Py_ssize_t i) noexcept nogil:
        """``CardGames._round``: clear, shuffle the whole deck, deal two hands, set aside."""
        cdef int16_t order[MAX_TOTAL]
        cdef int q, name, s, a, h = self.hand_cards, k = self.k
        self.round_[i] += 1
        for q in range(self.total):
            order[q] = <int16_t>q
        shuffle(&self.rng[i], order, self.total)
        for s in range(2):
            for name in range(k):
                self.hand[i, s, name] = 0
                self.given[i, s, name] = 0
                self.received[i, s, name] = 0
                self.discards[i, s, name] = 0
                for a in range(AREAS):
                    self.area[i, s, a, name] = 0
            for a in range(AREAS):
                self.length[i, s, a] = 0
                self.last[i, s, a] = 0
                self.score[i, s, a] = 0
        for name in range(k):
            self.aside[i, name] = 0
        for q in range(self.total):
            self.positions[i, q] = order[q]
            name = <int>self.card_name[order[q]]
            if q < 2 * h:
                self.hand[i, q // h, name] += 1
            else:
                self.aside[i, name] += 1
        self.turn[i] = self.starter(i)
        self.phase[i] = PLACE

    cdef inline int64_t starter(self, Py_ssize_t i) noexcept nogil:
        return self.first[i] if self.round_[i] % 2 == 1 else 1 - self.first[i]

    cdef bint holds(self, Py_ssize_t i, int64_t seat) noexcept nogil:
        cdef int name
        for name in range(self.k):
            if self.hand[i, seat, name]:
                return True
        return False

    cdef void act(self, Py_ssize_t i, int64_t id) noexcept nogil:
        """``CardGames.act``: place, discard or give one card; then give, or the next turn."""
        cdef int64_t seat = self.turn[i], k = self.k, name, a
        cdef bint giving = id >= 4 * k, placing = id < 3 * k
        if placing:
            name = id // 3
        elif giving:
            name = id - 4 * k
        else:
            name = id - 3 * k
        self.hand[i, seat, name] -= 1
        if giving:
            self.given[i, seat, name] += 1
            self.received[i, 1 - seat, name] += 1
            self.hand[i, 1 - seat, name] += 1
        elif placing:
            a = id % 3
            self.area[i, seat, a, name] += 1
            self.seq[i, seat, a, self.length[i, seat, a]] = name
            self.length[i, seat, a] += 1
            self.last[i, seat, a] = self.number[name]
            self.score[i, seat, a] = self.area_score(&self.area[i, seat, a, 0])
        else:
            self.discards[i, seat, name] += 1
        if not giving and self.holds(i, seat):
            self.phase[i] = GIVE
        else:
            self.next_turn(i)

    cdef void next_turn(self, Py_ssize_t i) noexcept nogil:
        """``CardGames._next_turn``: the other player if they hold cards; else the same one;
        else the round is scored, and the next dealt or the game ended."""
        cdef int64_t turn = self.turn[i], t0, t1
        cdef int a
        cdef double share
        cdef bint win0, win1
        self.phase[i] = PLACE
        if self.holds(i, 1 - turn):
            self.turn[i] = 1 - turn
            return
        if self.holds(i, turn):
            return
        for a in range(2):
            self.scores[i, a, self.round_[i] - 1] = (
                self.score[i, a, 0] + self.score[i, a, 1] + self.score[i, a, 2]
            )
        if self.round_[i] < self.rounds:
            self.new_round(i)
            return
        self.terminal[i] = 1
        t0, t1 = self.total_of(i, 0), self.total_of(i, 1)
        win0, win1 = t0 >= t1, t1 >= t0
        share = 1.0 / (<double>win0 + <double>win1)
        self.returns[i, 0] = win0 * share
        self.returns[i, 1] = win1 * share

    cdef int64_t area_score(self, int64_t *counts) noexcept nogil:
        """``CardTables.area_scores`` of one area (counts by name)."""
        cdef int64_t cells[8 * MAX_NUMBERS]
        cdef int64_t by_colour[8]
        cdef int64_t shown[MAX_NUMBERS]
        cdef int name, col, j, r, used = 0, nums = self.numbers, x, y, z
        cdef int64_t best = 0, blossoms = 0
        cdef bint one = False
        memset(cells, 0, sizeof(cells))
        for col in range(self.colours):
            by_colour[col] = 0
        for j in range(nums):
            shown[j] = 0
        for name in range(self.k):
            if counts[name]:
                col = <int>self.colour[name]
                cells[col * nums + self.number_index[name]] += counts[name]
                by_colour[col] += counts[name]
                if self.blossom[name]:
                    blossoms += counts[name]
        for col in range(self.colours):
            if by_colour[col] >= 3:
                one = True
            if by_colour[col] > 0:
                used += 1
            for j in range(nums):
                if cells[col * nums + j] > 0:
                    shown[j] |= 1 << col
        if one and self.one_pts > best:
            best = self.one_pts
        if used >= 3 and self.three_pts > best:
            best = self.three_pts
        for r in range(self.n_runs):
            j = <int>self.runs[r]
            x, y, z = <int>shown[j], <int>shown[j + 1], <int>shown[j + 2]
            if x > 0 and y > 0 and z > 0 and self.row_pts > best:
                best = self.row_pts
            if (x & y & z) != 0 and self.one_pts + self.row_pts > best:
                best = self.one_pts + self.row_pts
            x = (x << (2 * self.colours)) | (y << self.colours) | z  # distinct[x, y, z], flat
            if self.distinct[x] and self.three_pts + self.row_pts > best:
                best = self.three_pts + self.row_pts
        if blossoms > self.limit:
            return 0
        return best + self.per_blossom * blossoms

    # ------------------------------------------------------------------ observations and masks

    cdef void observe_one(self, Py_ssize_t i) noexcept nogil:
        """``CardsBatchEnv.observe`` for table ``i``: the public part in seat order, permuted
        for each seat, then each seat's own hand, gifts and discards; the masks."""
        cdef float public[MAX_SIZE]
        cdef int s, a, name, slot, size = self.size, k = self.k, wait = self.wait
        cdef int64_t c, seat, held_any, last
        cdef float *out
        cdef int64_t *perm
        cdef int8_t *m
        cdef bint term = self.terminal[i], give, none_fit, any_legal
        memset(public, 0, size * sizeof(float))
        for s in range(2):
            for a in range(AREAS):
                slot = s * AREAS + a
                for name in range(k):
                    c = self.area[i, s, a, name]
                    public[self.o_areas + slot * k + name] = self.half[c if c < 2 else 2]
                if self.length[i, s, a] > 0:
                    public[self.o_last + slot * self.numbers_slot + self.last[i, s, a] - 1] = 1.0
                c = self.length[i, s, a]
                public[self.o_count + slot] = self.cards_tab[c if c < self.max_cards else self.max_cards]
                public[self.o_score + slot] = self.area_tab[self.score[i, s, a]]
            c = 0
            held_any = 0
            for name in range(k):
                c += self.hand[i, s, name]
                held_any += self.discards[i, s, name]
            public[self.o_sizes + s] = self.cards_tab[c if c < self.max_cards else self.max_cards]
            public[self.o_dcounts + s] = self.cards_tab[held_any]
            for a in range(self.rounds):
                public[self.o_rounds + s * self.rounds + a] = self.round_tab[self.scores[i, s, a]]
            public[self.o_totals + s] = self.total_tab[self.total_of(i, s)]
        c = 0
        for name in range(k):
            c += self.aside[i, name]
        public[self.o_aside] = self.cards_tab[c]
        public[self.o_round + self.round_[i] - 1] = 1.0
        public[self.o_starter + self.starter(i)] = 1.0
        if term:
            public[self.o_phase + 2] = 1.0
        else:
            public[self.o_turn + self.turn[i]] = 1.0
            public[self.o_phase + (1 if self.phase[i] == GIVE else 0)] = 1.0
        for s in range(2):
            out = &self.obs[i, s, 0]
            perm = &self.perm[s, 0]
            for a in range(size):
                out[a] = public[perm[a]]
            for name in range(k):
                c = self.hand[i, s, name]
                out[self.o_hand + name] = self.half[c if c < 2 else 2]
                c = self.given[i, s, name]
                out[self.o_given + name] = self.half[c if c < 2 else 2]
                c = self.received[i, s, name]
                out[self.o_received + name] = self.half[c if c < 2 else 2]
                c = self.discards[i, s, name]
                out[self.o_discarded + name] = self.half[c if c < 2 else 2]
        # The masks (``CardGames.legal``): the mover's; ``wait`` alone for the other seat.
        m = &self.mask[i, 0, 0]
        memset(m, 0, 2 * (wait + 1))
        if not term:
            seat = self.turn[i]
            m = m + seat * (wait + 1)
            give = self.phase[i] == GIVE
            none_fit = not give
            for name in range(k):
                if self.hand[i, seat, name] > 0:
                    if give:
                        m[4 * k + name] = 1
                    else:
                        for a in range(AREAS):
                            last = self.last[i, seat, a]
                            if last <= self.number[name]:
                                m[3 * name + a] = 1
                                none_fit = False
            if none_fit:
                for name in range(k):
                    if self.hand[i, seat, name] > 0:
                        m[3 * k + name] = 1
            m = &self.mask[i, 0, 0]
        for s in range(2):
            any_legal = False
            for a in range(wait):
                if m[s * (wait + 1) + a]:
                    any_legal = True
                    break
            m[s * (wait + 1) + wait] = not any_legal
