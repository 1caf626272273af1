# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False, binding=True, embedsignature=True
"""The batched Sakura step compiled: one C loop over the tables, on the env's own arrays.

A third implementation of the rules, beside the engine (the reference) and the numpy batch
(:mod:`.rules`, :mod:`.moves`, :mod:`.observe`): where numpy applies each rule to every table
it concerns in one array operation (and pays for a Python-level operation per rule, per
step), this plays each table to its next decision with ordinary branches, in C, without the
GIL, then writes that table's observations and masks in place. It reads and writes the very
arrays of the numpy implementation (:class:`~sakura.rl.batch.rules.Games`, the
:class:`~sakura.rl.batch.observe.Observer`'s buffers and its record of what they show), so the
state, the observations and every test of them are shared; the rules follow the engine's
``SakuraState`` line by line (``_advance``, ``_move_painter``, ``_bump``, ``_score`` ...), not
the numpy's bit tricks. ``tests/rl/test_batch_differential.py`` holds it to the reference
engine like the numpy batch, game by game and step by step.

Only ``SakuraBatchEnv(backend="compiled")`` (the default where this module is built) uses it;
it exists only compiled (``setup.py`` builds it when the machine has a C compiler and
``SAKURA_PURE`` is not set), and the numpy code is the fallback, with the same results.
"""

from libc.stdint cimport int8_t, int16_t, int64_t, uint8_t, uint64_t
from libc.string cimport memcpy, memset

include "splitmix.pxi"

# As in rules.py and tables.py.
cdef enum:
    NOT_STARTED = 0
    GARDEN_CHOICE = 1
    GARDEN_DONE = 2
    PAINTER_CHOICE = 3
    G_EMPEROR = 0
    G_CHOICE = 1
    G_CLOSEST = 2
    G_FURTHEST = 3
    P_MOVE = 0
    P_CHOICE = 1
    P_JUMP = 2
    P_COUNT = 3
    HAND = 5
    MAX_PAINTERS = 16  # a table's painters (the engine plays 2 to 6 players, 7 painters at most)


def splitmix_below(uint64_t state, uint64_t bound):
    """The kernel's ``below`` from a generator's ``state``: (value, the state after), to be
    held to ``SplitMix64.below`` (a bound near 2**64 rejects about half its draws)."""
    if bound == 0:
        raise ValueError("below() needs a positive bound")
    cdef uint64_t value = below(&state, bound)
    return value, state


def splitmix_shuffle(uint64_t state, list items):
    """The kernel's shuffle of ``items`` (small ints) from ``state``: (shuffled, state after)."""
    cdef int16_t buffer[256]
    cdef Py_ssize_t k, length = len(items)
    if length > 256:
        raise ValueError("at most 256 items")
    for k in range(length):
        buffer[k] = items[k]
    shuffle(&state, buffer, length)
    return [buffer[k] for k in range(length)], state


def _u8(array):
    """A boolean array's bytes as ``uint8`` (the same memory: typed memoryviews take no ``bool``)."""
    return array.view("u1")


cdef class SakuraKernel:
    """Steps and observes every table of one ``SakuraBatchEnv`` (built from it, bound to its
    arrays: ``env.games``, ``env.observer``'s buffers, ``env.rewards``)."""

    # The table's facts.
    cdef int n, p, c, g, court, tactical, nsak, n_awards, n_last, width, round_cap
    cdef int64_t num, size, scratch, num_actions, torii, start_tokens, total_tokens
    cdef double weight, scale
    cdef int8_t[::1] g_kind, p_kind
    cdef int64_t[::1] g_amount, p_amount, sakuras, awards, last_awards
    cdef int64_t[:, ::1] by_painter, by_player
    # The state (Games).
    cdef int64_t[::1] emperor, supply, scored, round_, deck_len, disc_len, qlen, qi, stage, double_
    cdef int64_t[:, ::1] pos, tokens, hand_size, qcard, qseat
    cdef uint8_t[:, :, ::1] hand
    cdef int16_t[:, ::1] deck, discard
    cdef uint8_t[:, ::1] discarded
    cdef uint8_t[::1] scoring, terminal
    cdef double[:, ::1] returns, rewards
    cdef uint64_t[::1] rng, seed
    # The observations and masks (the Observer's buffers and its record of what they show).
    cdef float[::1] flat
    cdef int64_t[:, :, ::1] ones
    cdef uint8_t[::1] shown_discard, shown_hand
    cdef int8_t[:, :, ::1] mask
    cdef float[::1] spaces_tab, tokens_tab, round_tab, deck_tab, size_tab
    cdef int64_t s_emperor, s_painters, s_scored, s_phase, s_revealed, s_part, s_seat, s_double
    cdef int64_t s_discard, s_hand, s_resolved, s_behind, s_tokens, s_supply, s_next, s_round
    cdef int64_t s_deck, s_sizes
    cdef int error

    def __init__(self, env):
        t, games, obs, enc = env.tables, env.games, env.observer, env.encoder
        self.n, self.p, self.c, self.g = t.players, t.painters, t.cards, t.spaces
        if self.p > MAX_PAINTERS:
            raise ValueError(f"the compiled kernel plays up to {MAX_PAINTERS} painters, not {self.p}")
        self.court, self.tactical = t.court, bool(t.tactical)
        self.num = games.num
        self.g_kind, self.p_kind = t.g_kind, t.p_kind
        self.g_amount, self.p_amount, self.sakuras = t.g_amount, t.p_amount, t.sakuras
        self.nsak = len(t.sakuras)
        import numpy as np

        self.awards = np.array(t.awards, dtype=np.int64)
        self.last_awards = np.array(t.last_awards, dtype=np.int64)
        self.n_awards, self.n_last = len(t.awards), len(t.last_awards)
        self.torii, self.start_tokens, self.total_tokens = t.torii, t.start_tokens, t.total_tokens
        self.weight, self.scale = env.score_weight, enc.score_scale
        self.num_actions = enc.num_actions
        self.emperor, self.supply, self.scored, self.round_ = games.emperor, games.supply, games.scored, games.round
        self.deck_len, self.disc_len = games.deck_len, games.disc_len
        self.qlen, self.qi, self.stage, self.double_ = games.qlen, games.qi, games.stage, games.double
        self.pos, self.tokens, self.hand_size = games.pos, games.tokens, games.hand_size
        self.qcard, self.qseat = games.qcard, games.qseat
        self.hand, self.discarded = _u8(games.hand), _u8(games.discarded)
        self.deck, self.discard = games.deck, games.discard
        self.scoring, self.terminal = _u8(games.scoring), _u8(games.terminal)
        self.returns, self.rewards = games.returns, env.rewards
        self.rng, self.seed = games.rng, games.seed
        self.by_painter = np.ascontiguousarray(obs.by_painter, dtype=np.int64)
        self.by_player = np.ascontiguousarray(obs.by_player, dtype=np.int64)
        self.flat, self.mask = obs._flat, obs.mask
        self.size, self.scratch, self.width = obs.size, obs.scratch, obs.width
        self.shown_discard, self.shown_hand = _u8(obs._discarded), _u8(obs._hand)
        self.spaces_tab, self.tokens_tab, self.round_tab = obs.spaces_tab, obs.tokens_tab, obs.round_tab
        self.deck_tab, self.size_tab = obs.deck_tab, obs.size_tab
        self.round_cap = len(obs.round_tab) - 1
        sl = obs.slots
        self.s_emperor, self.s_painters = sl["emperor"][0], sl["painters"][0]
        self.s_scored, self.s_phase, self.s_revealed = sl["scored"][0], sl["phase"][0], sl["revealed"][0]
        self.s_part, self.s_seat = sl["pending_part"][0], sl["pending_seat"][0]
        self.s_double = sl["double"][0] if self.tactical else 0
        self.s_discard, self.s_hand, self.s_resolved = sl["discard"][0], sl["hand"][0], sl["resolved"][0]
        self.s_behind, self.s_tokens, self.s_supply = sl["behind"][0], sl["tokens"][0], sl["supply"][0]
        self.s_next, self.s_round, self.s_deck = sl["next_sakura"][0], sl["round"][0], sl["deck"][0]
        self.s_sizes = sl["hand_sizes"][0]
        self.bind_ones(obs)

    def bind_ones(self, obs):
        """Follow the observer's record of its one-hot ones (the numpy ``observe`` replaces
        the array; the kernel updates it in place)."""
        self.ones = obs._ones

    # ------------------------------------------------------------------ the batch

    def first_illegal(self, int64_t[:, ::1] actions, uint8_t[::1] ended):
        """The flat index (table * players + seat) of the first acting seat whose action is
        outside its mask, or -1 (``checks.checked_actions``'s test, without its arrays)."""
        cdef Py_ssize_t i, s
        cdef int64_t a, wait = self.num_actions, bad = -1
        with nogil:
            for i in range(self.num):
                if ended[i]:
                    continue
                for s in range(self.n):
                    if self.mask[i, s, wait] != 0:
                        continue
                    a = actions[i, s]
                    if a < 0 or a > wait or self.mask[i, s, a] != 1:
                        bad = i * self.n + s
                        break
                if bad >= 0:
                    break
        return bad

    def step(self, int64_t[:, ::1] actions, uint8_t[::1] ended):
        """One decision point of every table, as ``SakuraBatchEnv.step`` (``actions`` checked
        already); ``ended`` (the tables whose game ended at the previous step, which restart
        now) is updated in place; rewards, observations and masks are written."""
        cdef Py_ssize_t i
        self.error = 0
        with nogil:
            for i in range(self.num):
                self.step_one(i, actions, ended)
                self.observe_one(i)
        if self.error:
            raise RuntimeError("no cards left to draw: the deck is too small for this table")

    def observe(self):
        """Bring every table's observations and masks up to date with its state."""
        cdef Py_ssize_t i
        with nogil:
            for i in range(self.num):
                self.observe_one(i)

    cdef void step_one(self, Py_ssize_t i, int64_t[:, ::1] actions, uint8_t[::1] ended) noexcept nogil:
        cdef int64_t before[MAX_PAINTERS]
        cdef int s, n = self.n
        cdef double gain, total, share
        if ended[i]:  # autoreset: the table's next seed, its actions ignored, zero rewards
            self.deal(i, self.seed[i] + <uint64_t>self.num)
            for s in range(n):
                self.rewards[i, s] = 0.0
            ended[i] = 0
            return
        for s in range(n):
            before[s] = self.tokens[i, s]
        if self.qlen[i] == 0:
            self.play(i, actions)
        else:
            s = <int>self.qseat[i, self.qi[i]]
            self.answer(i, actions[i, s] == self.num_actions - 2)
        # relative_rewards (sakura.rl.encoding), the numpy env's floats in its order.
        total = 0.0
        for s in range(n):
            total += <double>(self.tokens[i, s] - before[s])
        for s in range(n):
            gain = <double>(self.tokens[i, s] - before[s])
            if n > 1:
                share = self.weight * (gain - (total - gain) / <double>(n - 1)) / self.scale
            else:
                share = self.weight * gain / self.scale
            if self.terminal[i]:
                share += self.returns[i, s]
            self.rewards[i, s] = share
        ended[i] = self.terminal[i]

    # ------------------------------------------------------------------ the deck

    cdef void deal(self, Py_ssize_t i, uint64_t seed) noexcept nogil:
        """``SakuraState.new(seed)``: shuffle, five cards each from the top, the start."""
        cdef int k, c = self.c, n = self.n
        cdef int16_t *deck = &self.deck[i, 0]
        self.seed[i] = seed
        self.rng[i] = seed
        for k in range(c):
            deck[k] = <int16_t>k
        shuffle(&self.rng[i], deck, c)
        memset(&self.hand[i, 0, 0], 0, n * c)
        for k in range(HAND * n):
            self.hand[i, k % n, deck[c - 1 - k]] = 1
        for k in range(n):
            self.hand_size[i, k] = HAND
        self.deck_len[i] = c - HAND * n
        self.emperor[i] = self.torii
        for k in range(self.p):
            self.pos[i, k] = 0
            self.tokens[i, k] = self.start_tokens
        self.supply[i] = self.total_tokens - self.start_tokens * self.p
        self.scored[i] = 0
        self.round_[i] = 1
        self.disc_len[i] = 0
        memset(&self.discarded[i, 0], 0, c)
        self.qlen[i] = 0
        self.qi[i] = 0
        self.stage[i] = NOT_STARTED
        self.scoring[i] = 0
        self.double_[i] = -1  # tactical: both painters start on the gate
        self.terminal[i] = 0
        for k in range(n):
            self.returns[i, k] = 0.0

    cdef int64_t draw(self, Py_ssize_t i) noexcept nogil:
        """The top card (``_draw``): an empty deck is the discard pile, shuffled, first."""
        cdef int64_t length = self.disc_len[i]
        if self.deck_len[i] == 0:
            if length == 0:
                self.error = 1
                return 0
            memcpy(&self.deck[i, 0], &self.discard[i, 0], length * sizeof(int16_t))
            shuffle(&self.rng[i], &self.deck[i, 0], length)
            self.deck_len[i] = length
            self.disc_len[i] = 0
            memset(&self.discarded[i, 0], 0, self.c)
        self.deck_len[i] -= 1
        return self.deck[i, self.deck_len[i]]

    cdef inline void to_discard(self, Py_ssize_t i, int64_t card) noexcept nogil:
        self.discard[i, self.disc_len[i]] = <int16_t>card
        self.disc_len[i] += 1
        self.discarded[i, card] = 1

    # ------------------------------------------------------------------ a round

    cdef void play(self, Py_ssize_t i, int64_t[:, ::1] actions) noexcept nogil:
        """Every player's card (``_pick``), revealed (``_reveal``) and resolved."""
        cdef int64_t cards[MAX_PAINTERS]
        cdef int64_t seats[MAX_PAINTERS]
        cdef int64_t card, court_card = -1, pair, x
        cdef int s, k, p = self.p, d = <int>self.double_[i]
        for s in range(self.n):
            card = actions[i, s]
            if self.tactical and s == d:
                pair = card - self.c
                card = pair // self.c
                court_card = pair % self.c
            self.hand[i, s, card] = 0
            self.hand_size[i, s] -= 1
            cards[s] = card
            seats[s] = s
        if self.court >= 0:
            if court_card >= 0:
                self.hand[i, d, court_card] = 0
                self.hand_size[i, d] -= 1
                cards[self.court] = court_card
            else:
                cards[self.court] = self.draw(i)
            seats[self.court] = self.court
        for s in range(1, p):  # lowest order number first (the cards are all different)
            k = s
            while k > 0 and cards[k - 1] > cards[k]:
                x = cards[k]
                cards[k] = cards[k - 1]
                cards[k - 1] = x
                x = seats[k]
                seats[k] = seats[k - 1]
                seats[k - 1] = x
                k -= 1
        for s in range(p):
            self.qcard[i, s] = cards[s]
            self.qseat[i, s] = seats[s]
        self.qlen[i] = p
        self.qi[i] = 0
        self.stage[i] = NOT_STARTED
        self.advance(i)

    cdef void answer(self, Py_ssize_t i, bint forward) noexcept nogil:
        """``_answer``: the owner of the pending choice goes forward or back."""
        cdef int64_t head = self.qi[i]
        cdef int64_t card = self.qcard[i, head], seat = self.qseat[i, head]
        cdef int64_t sign = 1 if forward else -1
        if self.stage[i] == GARDEN_CHOICE:
            self.move_emperor(i, sign * self.g_amount[card])
            self.stage[i] = GARDEN_DONE
        else:
            self.move_painter(i, seat, sign * self.p_amount[card])
            self.finish_card(i)
        self.advance(i)

    cdef void advance(self, Py_ssize_t i) noexcept nogil:
        """``_advance``: resolve cards until one asks its owner a choice or the round ends."""
        cdef int64_t card, seat, target
        cdef int kind
        while self.qi[i] < self.qlen[i]:
            card = self.qcard[i, self.qi[i]]
            seat = self.qseat[i, self.qi[i]]
            if self.stage[i] == NOT_STARTED:
                kind = self.g_kind[card]
                if kind == G_CHOICE and seat != self.court:
                    self.stage[i] = GARDEN_CHOICE
                    return
                if kind == G_EMPEROR or kind == G_CHOICE:  # the court painter's E± goes forward
                    self.move_emperor(i, self.g_amount[card])
                else:
                    target = self.closest(i) if kind == G_CLOSEST else self.furthest(i)
                    if target >= 0:
                        self.move_painter(i, target, self.g_amount[card])
                self.stage[i] = GARDEN_DONE
            kind = self.p_kind[card]
            if kind == P_CHOICE and seat != self.court:
                self.stage[i] = PAINTER_CHOICE
                return
            if kind == P_MOVE or kind == P_CHOICE:
                self.move_painter(i, seat, self.p_amount[card])
            elif kind == P_JUMP:
                self.jump(i, seat)
            else:
                self.count(i, seat)
            self.finish_card(i)
        if not self.terminal[i]:
            self.end_round(i)

    cdef void finish_card(self, Py_ssize_t i) noexcept nogil:
        """``_finish_card``: discard the head card; after a sakura, the rest, and score."""
        self.to_discard(i, self.qcard[i, self.qi[i]])
        self.qi[i] += 1
        self.stage[i] = NOT_STARTED
        if self.scoring[i]:
            while self.qi[i] < self.qlen[i]:
                self.to_discard(i, self.qcard[i, self.qi[i]])
                self.qi[i] += 1
            self.scoring[i] = 0
            self.score(i)

    # ------------------------------------------------------------------ moves

    cdef inline bint taken(self, Py_ssize_t i, int64_t space, int64_t seat) noexcept nogil:
        """Is ``space`` held by a painter other than ``seat`` (-1: by any painter)?"""
        cdef int k
        for k in range(self.p):
            if k != seat and self.pos[i, k] == space:
                return True
        return False

    cdef void move_painter(self, Py_ssize_t i, int64_t seat, int64_t amount) noexcept nogil:
        """``_move_painter``: ``amount`` free spaces (signed); reaching the Emperor, a bump."""
        cdef int64_t q = self.pos[i, seat], e = self.emperor[i]
        if amount > 0:
            while amount:
                q += 1
                if q >= e:
                    self.bump(i, seat)
                    return
                if not self.taken(i, q, -1):  # the mover's own space is behind it
                    amount -= 1
        else:
            while amount and q > 0:
                q -= 1
                if q == 0 or not self.taken(i, q, -1):
                    amount += 1
        self.pos[i, seat] = q

    cdef void bump(self, Py_ssize_t i, int64_t seat) noexcept nogil:
        """``_bump``: a token to the supply, three free spaces back from the Emperor's space."""
        cdef int64_t q = self.emperor[i], steps = 3
        while steps and q > 0:
            q -= 1
            if q == 0 or not self.taken(i, q, seat):
                steps -= 1
        self.pos[i, seat] = q
        if self.tokens[i, seat] > 0:
            self.tokens[i, seat] -= 1
            self.supply[i] += 1

    cdef void move_emperor(self, Py_ssize_t i, int64_t amount) noexcept nogil:
        """``_move_emperor``: forward to the next unscored sakura at most; back one space at
        a time, never past space 1, bumping whoever stands where he steps."""
        cdef int64_t e = self.emperor[i], nxt, step
        cdef int k
        if amount > 0:
            e += amount
            nxt = self.sakuras[self.scored[i]]
            if e >= nxt:
                e = nxt
                self.scoring[i] = 1
            self.emperor[i] = e
            return
        for step in range(-amount):
            if e <= 1:
                break
            e -= 1
            self.emperor[i] = e
            for k in range(self.p):
                if self.pos[i, k] == e:
                    self.bump(i, k)
                    break

    cdef int64_t closest(self, Py_ssize_t i) noexcept nogil:
        """The painter closest to the Emperor (the first seat of a tie); -1 if all on the gate."""
        cdef int k, best = 0
        for k in range(1, self.p):
            if self.pos[i, k] > self.pos[i, best]:
                best = k
        return best if self.pos[i, best] > 0 else -1

    cdef int64_t furthest(self, Py_ssize_t i) noexcept nogil:
        """The painter furthest from him; -1 if two or more share the gate."""
        cdef int k, low = 0, gate = 0
        for k in range(self.p):
            if self.pos[i, k] < self.pos[i, low]:
                low = k
            gate += self.pos[i, k] == 0
        return -1 if gate > 1 else low

    cdef void jump(self, Py_ssize_t i, int64_t seat) noexcept nogil:
        """To the first free space beyond the next painter ahead; nobody ahead, no move."""
        cdef int64_t me = self.pos[i, seat], nearest = -1, target
        cdef int k
        for k in range(self.p):
            if k != seat and self.pos[i, k] > me and (nearest < 0 or self.pos[i, k] < nearest):
                nearest = self.pos[i, k]
        if nearest < 0:
            return
        target = nearest + 1
        while True:
            if target >= self.emperor[i]:
                self.bump(i, seat)
                return
            if not self.taken(i, target, seat):
                break
            target += 1
        self.pos[i, seat] = target

    cdef void count(self, Py_ssize_t i, int64_t seat) noexcept nogil:
        """Forward one free space per painter ahead."""
        cdef int64_t me = self.pos[i, seat], ahead = 0
        cdef int k
        for k in range(self.p):
            if k != seat and self.pos[i, k] > me:
                ahead += 1
        if ahead:
            self.move_painter(i, seat, ahead)

    # ------------------------------------------------------------------ scoring and rounds

    cdef int ranking(self, Py_ssize_t i, int64_t *ranked, int *in_garden) noexcept nogil:
        """``ranking``: the painters in the garden by space, highest first, then a lone
        painter on the gate; their number. ``in_garden``: how many stand in the garden."""
        cdef int k, m = 0, gate = -1, gates = 0, j
        cdef int64_t x
        for k in range(self.p):
            if self.pos[i, k] > 0:
                j = m
                while j > 0 and self.pos[i, ranked[j - 1]] < self.pos[i, k]:
                    ranked[j] = ranked[j - 1]
                    j -= 1
                ranked[j] = k
                m += 1
            else:
                gates += 1
                gate = k
        in_garden[0] = m
        if gates == 1:
            ranked[m] = gate
            return m + 1
        return m

    cdef void score(self, Py_ssize_t i) noexcept nogil:
        """``_score``: awards by closeness while the supply lasts; the line-up, or the end."""
        cdef int64_t ranked[MAX_PAINTERS]
        cdef int64_t got, spot
        cdef int m, garden, rank, k, count, line
        cdef bint last = self.scored[i] == self.nsak - 1
        m = self.ranking(i, ranked, &garden)
        count = self.n_last if last else self.n_awards
        for rank in range(min(m, count)):
            got = self.last_awards[rank] if last else self.awards[rank]
            if got > self.supply[i]:
                got = self.supply[i]
            self.supply[i] -= got
            self.tokens[i, ranked[rank]] += got
        self.scored[i] += 1
        if last:
            self.finish(i)
            return
        if garden == 0:
            return
        # The line-up: behind the closest painter, the others in the garden in their order,
        # then those on the gate in seat order; the line stops at the gate.
        line = garden
        for k in range(self.p):  # then the gate's painters, listed before anyone moves
            if self.pos[i, k] == 0:
                ranked[line] = k
                line += 1
        spot = self.pos[i, ranked[0]]
        for k in range(1, line):
            spot = spot - 1 if spot > 0 else 0
            self.pos[i, ranked[k]] = spot

    cdef void finish(self, Py_ssize_t i) noexcept nogil:
        """``_finish``: most tokens wins; a tie, the closest of the tied; still tied, shared."""
        cdef int k, n = self.n, winners = 0
        cdef int64_t best = -1, near = -1
        self.terminal[i] = 1
        self.qlen[i] = 0
        self.qi[i] = 0
        for k in range(n):
            if self.tokens[i, k] > best:
                best = self.tokens[i, k]
        for k in range(n):
            if self.tokens[i, k] == best and self.pos[i, k] > near:
                near = self.pos[i, k]
        for k in range(n):
            if self.tokens[i, k] == best and self.pos[i, k] == near:
                winners += 1
        for k in range(n):
            if self.tokens[i, k] == best and self.pos[i, k] == near:
                self.returns[i, k] = 1.0 / <double>winners
            else:
                self.returns[i, k] = 0.0

    cdef void end_round(self, Py_ssize_t i) noexcept nogil:
        """``_end_round``: hands refill to five in seat order; the next round."""
        cdef int s, k
        cdef int64_t card, a, b
        self.qlen[i] = 0
        self.qi[i] = 0
        for s in range(self.n):
            for k in range(HAND - self.hand_size[i, s]):
                card = self.draw(i)
                self.hand[i, s, card] = 1
            self.hand_size[i, s] = HAND
        self.round_[i] += 1
        if self.tactical:
            a, b = self.pos[i, 0], self.pos[i, 1]
            self.double_[i] = -1 if a == b else (0 if a < b else 1)

    # ------------------------------------------------------------------ observations and masks

    cdef void observe_one(self, Py_ssize_t i) noexcept nogil:
        """Table ``i``'s observations (as ``Observer._public``: the one-hot ones moved, the
        discard pile and hands where they changed, the scaled numbers written) and masks."""
        cdef int n = self.n, p = self.p, c = self.c, g = self.g, s, r, k, w
        cdef int64_t new[2 * MAX_PAINTERS + 6]
        cdef int64_t card_of[MAX_PAINTERS]
        cdef int64_t order_of[MAX_PAINTERS]
        cdef int64_t behind[MAX_PAINTERS]
        cdef float tokens[MAX_PAINTERS]
        cdef float sizes[MAX_PAINTERS]
        cdef int64_t e = self.emperor[i], row, old, scratch = self.scratch, part = 0, seat = -1
        cdef int64_t phase, d = self.double_[i], head = self.qi[i], wait = self.num_actions
        cdef int64_t size = self.size
        cdef bint term = self.terminal[i], pending = head < self.qlen[i] and not term
        cdef bint choosing = not term and self.qlen[i] == 0
        cdef float *flat = &self.flat[0]
        cdef float *out
        cdef int64_t *ones = &self.ones[i, 0, 0]
        cdef int64_t *pos = &self.pos[i, 0]
        cdef int64_t *by_painter
        cdef const float *spaces_tab = &self.spaces_tab[0]
        cdef uint8_t *hand = &self.hand[i, 0, 0]
        cdef uint8_t *shown
        cdef int8_t *m
        cdef float supply = self.tokens_tab[self.supply[i]]
        cdef float deck = self.deck_tab[self.deck_len[i]]
        cdef float rnd = self.round_tab[self.round_[i] if self.round_[i] < self.round_cap else self.round_cap]
        cdef float nxt = 0.0
        cdef int held[2 * HAND]
        cdef int count_held, a, b
        cdef int64_t s_emperor = self.s_emperor, s_painters = self.s_painters, s_revealed = self.s_revealed
        cdef int64_t s_resolved = self.s_resolved, s_behind = self.s_behind, s_tokens = self.s_tokens
        cdef int64_t s_sizes = self.s_sizes, s_hand = self.s_hand, s_discard = self.s_discard
        if self.scored[i] < self.nsak:
            nxt = spaces_tab[self.sakuras[self.scored[i]] - e + g]
        phase = 2 if term else (1 if pending else 0)
        if pending:
            seat = self.qseat[i, head]
            for k in range(p):
                card_of[self.qseat[i, k]] = self.qcard[i, k]
                order_of[self.qseat[i, k]] = k
            part = 0 if self.stage[i] == GARDEN_CHOICE else 1
        for k in range(p):  # by painter; each seat reads them rotated
            behind[k] = e - pos[k] + g
            tokens[k] = self.tokens_tab[self.tokens[i, k]]
        for k in range(n):
            sizes[k] = self.size_tab[self.hand_size[i, k]]
        for s in range(n):
            row = (i * n + s) * size
            out = flat + row
            by_painter = &self.by_painter[s, 0]
            # The one-hot slots, where each holds its one (``scratch``: nowhere).
            new[0] = row + s_emperor + e
            for r in range(p):
                new[1 + r] = row + s_painters + r * g + pos[by_painter[r]]
            new[p + 1] = row + self.s_scored + self.scored[i]
            new[p + 2] = row + self.s_phase + phase
            k = p + 3
            for r in range(p):
                new[k + r] = row + s_revealed + r * c + card_of[by_painter[r]] if pending else scratch
            new[k + p] = row + self.s_part + part if pending else scratch
            new[k + p + 1] = row + self.s_seat + ((seat - s) % n + n) % n if pending else scratch
            if self.tactical:
                if choosing and d >= 0:
                    new[k + p + 2] = row + self.s_double + ((d - s) % n + n) % n
                else:
                    new[k + p + 2] = scratch
            for w in range(self.width):  # cleared where they were, set where they are
                old = ones[w]
                if old != new[w]:
                    flat[old] = 0.0
            for w in range(self.width):
                if ones[w] != new[w]:
                    flat[new[w]] = 1.0
                    ones[w] = new[w]
            ones += self.width
            # The scaled numbers, written whole.
            for r in range(p):
                out[s_resolved + r] = 1.0 if pending and order_of[by_painter[r]] < head else 0.0
                out[s_behind + r] = spaces_tab[behind[by_painter[r]]]
                out[s_tokens + r] = tokens[by_painter[r]]
            out[self.s_supply] = supply
            out[self.s_next] = nxt
            out[self.s_round] = rnd
            out[self.s_deck] = deck
            for r in range(n):
                out[s_sizes + r] = sizes[(r + s) % n]
            # The hand, where it changed (eight cards at a time).
            shown = &self.shown_hand[(i * n + s) * c]
            changed(hand + s * c, shown, out + s_hand, c, 1, 0)
        # The discard pile (every seat sees it), where it changed.
        changed(&self.discarded[i, 0], &self.shown_discard[i * c], flat + i * n * size + s_discard, c, n, size)
        # The masks: the seat's legal ids, or ``wait`` alone.
        m = &self.mask[i, 0, 0]
        memset(m, 0, n * (wait + 1))
        for s in range(n):
            if choosing and s != d:
                memcpy(m + s * (wait + 1), hand + s * c, c)
            m[s * (wait + 1) + wait] = not (choosing or s == seat)
        if choosing and self.tactical and d >= 0:  # the double play: two different cards
            count_held = 0
            for k in range(c):
                if hand[d * c + k] and count_held < 2 * HAND:
                    held[count_held] = k
                    count_held += 1
            for a in range(count_held):
                for b in range(count_held):
                    if a != b:
                        m[d * (wait + 1) + c + held[a] * c + held[b]] = 1
        if seat >= 0:
            m[seat * (wait + 1) + wait - 2] = 1
            m[seat * (wait + 1) + wait - 1] = 1


cdef inline void changed(
    const uint8_t *now, uint8_t *shown, float *out, int length, int copies, int64_t stride
) noexcept nogil:
    """Where ``now`` differs from ``shown`` (what the observations show), write it to
    ``out[k]`` (and ``copies - 1`` more rows ``stride`` apart) and note it in ``shown``;
    eight bytes are compared at once, since a step changes a few cards of sixty."""
    cdef int k = 0, j, top, row
    cdef uint64_t x, y
    while k < length:
        top = k + 8 if k + 8 <= length else length
        if top - k == 8:
            memcpy(&x, now + k, 8)
            memcpy(&y, shown + k, 8)
            if x == y:
                k = top
                continue
        for j in range(k, top):
            if now[j] != shown[j]:
                shown[j] = now[j]
                for row in range(copies):
                    out[row * stride + j] = now[j]
        k = top
