# The engine's SplitMix64 (sakura.engine.rng) in C, for the kernels: included by
# kernel.pyx and cards_kernel.pyx (each holds it, inlined, in its own module).

cdef extern from *:
    """
    #include <stdint.h>
    /* The 128-bit product of Lemire's method (SplitMix64.below): its high and low halves. */
    static inline uint64_t sakura_mulhi(uint64_t a, uint64_t b, uint64_t *lo) {
    #if defined(__SIZEOF_INT128__)
        unsigned __int128 m = (unsigned __int128)a * b;
        *lo = (uint64_t)m;
        return (uint64_t)(m >> 64);
    #else
        uint64_t al = a & 0xFFFFFFFFu, ah = a >> 32, bl = b & 0xFFFFFFFFu, bh = b >> 32;
        uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
        uint64_t mid = (ll >> 32) + (lh & 0xFFFFFFFFu) + (hl & 0xFFFFFFFFu);
        *lo = a * b;
        return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    #endif
    }
    """
    uint64_t mulhi "sakura_mulhi"(uint64_t a, uint64_t b, uint64_t *lo) noexcept nogil

# SplitMix64's constants (sakura.engine.rng) and the shuffle's draw bound.
cdef uint64_t GOLDEN = 0x9E3779B97F4A7C15ULL
cdef uint64_t M1 = 0xBF58476D1CE4E5B9ULL
cdef uint64_t M2 = 0x94D049BB133111EBULL
cdef uint64_t BATCH = 1ULL << 48

# ---------------------------------------------------------------------- the generator


cdef inline uint64_t next64(uint64_t *state) noexcept nogil:
    """``SplitMix64.next64``: the state advanced in place, the next output."""
    cdef uint64_t z = state[0] + GOLDEN
    state[0] = z
    z = (z ^ (z >> 30)) * M1
    z = (z ^ (z >> 27)) * M2
    return z ^ (z >> 31)


cdef uint64_t below(uint64_t *state, uint64_t bound) noexcept nogil:
    """``SplitMix64.below``: Lemire's multiply, its rejection included."""
    cdef uint64_t lo, hi, threshold
    hi = mulhi(next64(state), bound, &lo)
    if lo < bound:
        threshold = (0 - bound) % bound  # (2**64 - bound) % bound
        while lo < threshold:
            hi = mulhi(next64(state), bound, &lo)
    return hi


cdef void shuffle(uint64_t *state, int16_t *items, Py_ssize_t length) noexcept nogil:
    """``SplitMix64.shuffle``: Fisher-Yates from the end, several swaps a draw."""
    cdef Py_ssize_t at = length - 1, k, j
    cdef uint64_t bound, r
    cdef int16_t x
    while at > 0:
        bound = 1
        k = at
        while k > 0 and bound * <uint64_t>(k + 1) <= BATCH:
            bound *= <uint64_t>(k + 1)
            k -= 1
        r = below(state, bound)
        while at > k:
            j = <Py_ssize_t>(r % <uint64_t>(at + 1))
            r = r // <uint64_t>(at + 1)
            x = items[at]
            items[at] = items[j]
            items[j] = x
            at -= 1
