"""Every seat's observation and action mask of N games, as the existing encoder makes them.

The layout is not written twice: the slot offsets are read from the game's
:class:`~sakura.rl.sakura_encoding.SakuraEncoder` (``encoder.layout``), and each slot is
filled from the batched state with the encoder's meaning (``docs/rl.md`` lists them): painters
rotated so the viewer comes first, numbers scaled as the encoder scales them (looked up from
tables of the encoder's own quotients, rounded to float32 as it rounds them). The masks are the
ParallelEnv's: the ids of the seat's legal actions, or only the extra ``wait`` id (the last)
for a seat that does not act now. The differential test checks both against the encoder.

The observations are kept up to date in place rather than written anew: the one-hot slots'
ones are moved where they changed (by flat index), the discard pile and hands where a card
changed, the few scaled numbers by broadcast. A step changes a few dozen of each seat's
hundreds of numbers; writing them all (or clearing the buffer) cost more than the rules.

The slots ``chosen``, ``my_card`` and ``my_court_card`` stay zero: the batched step
takes every player's card at once and reveals them, so no observation is ever made between
two players' choices (the ParallelEnv's observations are made at the same moments).
"""

from __future__ import annotations

import numpy as np

from sakura.rl.batch.rules import GARDEN_CHOICE, Games
from sakura.rl.encoding import MASK_DTYPE, OBS_DTYPE
from sakura.rl.sakura_encoding import HAND, ROUND_CAP, SakuraEncoder


class Observer:
    """Writes observations ``(N, players, size)`` and masks ``(N, players, actions + 1)``."""

    def __init__(self, encoder: SakuraEncoder, num: int) -> None:
        self.encoder = encoder
        lay = encoder.layout
        self.size = lay.size
        self.slots = {slot.name: (slot.start, slot.stop) for slot in lay}
        n, p = encoder.players, encoder.painters
        g, c = encoder.spaces, encoder.cards
        self.num_actions = encoder.num_actions
        self.tactical = encoder.tactical
        # Slot ``r`` of seat ``s``'s painter blocks shows painter ``(r + s) % n`` (the court last).
        self.by_painter = np.array([[(r + s) % n if r < n else r for r in range(p)] for s in range(n)])
        self.by_player = np.array([[(r + s) % n for r in range(n)] for s in range(n)])
        self.seats = np.arange(n)
        # The encoder's quotients, as it computes them (a Python float, stored as float32).
        self.spaces_tab = np.array([d / g for d in range(-g, g + 1)], dtype=OBS_DTYPE)  # index d + g
        self.tokens_tab = np.array(
            [k / encoder.total_tokens for k in range(encoder.total_tokens + 1)], OBS_DTYPE
        )
        self.round_tab = np.array([min(r, ROUND_CAP) / ROUND_CAP for r in range(ROUND_CAP + 1)], OBS_DTYPE)
        self.deck_tab = np.array([k / c for k in range(c + 1)], dtype=OBS_DTYPE)
        self.size_tab = np.array([k / HAND for k in range(2 * HAND + 1)], dtype=OBS_DTYPE)
        self.painter_base = np.arange(p) * g  # where each painter's one-hot block starts
        self.card_base = np.arange(p) * c
        self.pair_ok = ~np.eye(c, dtype=bool)  # the tactical double play: two different cards
        # The buffers, kept up to date in place. One spare number after the observations is
        # where a one-hot slot with nothing to show points (``scratch``).
        self._flat = np.zeros(num * n * lay.size + 1, dtype=OBS_DTYPE)
        self.scratch = num * n * lay.size
        self.obs = self._flat[:-1].reshape(num, n, lay.size)
        self.mask = np.zeros((num, n, self.num_actions + 1), dtype=MASK_DTYPE)
        self.row_base = (np.arange(num * n, dtype=np.int64) * lay.size).reshape(num, n, 1)
        self.pad = self.scratch - self.row_base
        # Each seat's one-hot slots: the Emperor, the painters, scored, phase, the revealed
        # cards by painter, the pending part and seat, (tactical) the double player.
        self.width = 2 * p + 5 + (1 if self.tactical else 0)
        self._ones = np.full((num, n, self.width), self.scratch, dtype=np.int64)
        self._discarded = np.zeros(num * c, dtype=bool)  # as the observations show them now
        self._hand = np.zeros(num * n * c, dtype=bool)
        self.seat_offsets = np.arange(n) * lay.size  # from a game's first seat's row to each

    def observe(self, games: Games) -> None:
        """Bring ``obs`` and ``mask`` up to date with ``games`` (the games this observer was
        made for: the observations are updated in place, where they changed)."""
        self._public(games, self.obs)
        self._masks(games, self.mask)

    def _public(self, s: Games, obs: np.ndarray) -> None:
        t, sl = s.t, self.slots
        num, n, p, g = s.num, t.players, t.painters, t.spaces
        e = s.emperor
        pos = s.pos[:, self.by_painter]  # (num, n, p) each seat's painters, rotated
        pending = (s.qi < s.qlen) & ~s.terminal
        # The one-hot slots: where each holds its one, by flat index (``scratch`` for none).
        phase = np.where(s.terminal, 2, np.where(pending, 1, 0))
        ones = np.empty((num, n, self.width), dtype=np.int64)
        ones[:, :, 0] = (sl["emperor"][0] + e)[:, None]
        ones[:, :, 1 : p + 1] = sl["painters"][0] + self.painter_base + pos
        ones[:, :, p + 1] = (sl["scored"][0] + s.scored)[:, None]
        ones[:, :, p + 2] = (sl["phase"][0] + phase)[:, None]
        self.pending_seat = seat = np.full(num, -1, dtype=np.int64)
        card_of = np.zeros((num, p), dtype=np.int64)  # each painter's revealed card (if pending)
        resolved = np.zeros((num, p), dtype=bool)
        part = np.zeros(num, dtype=np.int64)
        some = np.flatnonzero(pending)
        if len(some):
            # A choice is pending: the round's revealed cards, which are done, whose choice.
            qi, qseat = s.qi[some], s.qseat[some]
            seat[some] = qseat[np.arange(len(some)), qi]
            at = some[:, None]
            card_of[at, qseat] = s.qcard[some]
            order_of = np.empty((len(some), p), dtype=np.int64)  # each painter's place in the queue
            order_of[np.arange(len(some))[:, None], qseat] = np.arange(p)
            resolved[some] = order_of < qi[:, None]
            part[some] = np.where(s.stage[some] == GARDEN_CHOICE, 0, 1)
        k = p + 3
        pad, pad1 = self.pad, self.pad[:, :, 0]  # none: ``scratch`` once the row is added
        ones[:, :, k : k + p] = pad
        if len(some):
            rev = card_of[some][:, self.by_painter]
            ones[some, :, k : k + p] = sl["revealed"][0] + self.card_base + rev
        pend = pending[:, None]
        ones[:, :, k + p] = np.where(pend, sl["pending_part"][0] + part[:, None], pad1)
        ones[:, :, k + p + 1] = np.where(pend, sl["pending_seat"][0] + (seat[:, None] - self.seats) % n, pad1)
        if self.tactical:
            some = (~s.terminal & (s.qlen == 0) & (s.double >= 0))[:, None]
            rel = (s.double[:, None] - self.seats) % n  # (num, n)
            ones[:, :, k + p + 2] = np.where(some, sl["double"][0] + rel, pad1)
        ones += self.row_base
        # Only the ones that moved: cleared where they were, set where they are. Each entry
        # of ``ones`` has a slot (or a painter's block) of its own, so none clears another's.
        moved = ones != self._ones
        self._flat[self._ones[moved]] = 0.0
        self._flat[ones[moved]] = 1.0
        self._ones = ones
        # The multi-hot slots (the discard pile, the hand), where they changed.
        c, size = t.cards, self.size
        now = s.discarded.reshape(-1)
        changed = np.flatnonzero(now != self._discarded)
        at = (changed // c * n * size + sl["discard"][0] + changed % c)[:, None] + self.seat_offsets
        self._flat[at] = now[changed][:, None]
        np.copyto(self._discarded, now)
        now = s.hand.reshape(-1)
        changed = np.flatnonzero(now != self._hand)
        self._flat[changed // c * size + sl["hand"][0] + changed % c] = now[changed]
        np.copyto(self._hand, now)
        # The other slots, written whole.
        a, b = sl["resolved"]
        obs[:, :, a:b] = resolved[:, self.by_painter]
        a, b = sl["behind"]
        obs[:, :, a:b] = self.spaces_tab[e[:, None, None] - pos + g]
        a, b = sl["tokens"]
        obs[:, :, a:b] = self.tokens_tab[s.tokens[:, self.by_painter]]
        obs[:, :, sl["supply"][0]] = self.tokens_tab[s.supply][:, None]
        left = s.scored < len(t.sakuras)
        nxt = t.sakuras[np.minimum(s.scored, len(t.sakuras) - 1)]
        obs[:, :, sl["next_sakura"][0]] = np.where(left, self.spaces_tab[nxt - e + g], 0.0)[:, None]
        obs[:, :, sl["round"][0]] = self.round_tab[np.minimum(s.round, ROUND_CAP)][:, None]
        obs[:, :, sl["deck"][0]] = self.deck_tab[s.deck_len][:, None]
        a, b = sl["hand_sizes"]
        obs[:, :, a:b] = self.size_tab[s.hand_size[:, self.by_player]]
        # ``chosen``, ``my_card`` and ``my_court_card`` stay zero: see the module docstring.

    def _masks(self, s: Games, mask: np.ndarray) -> None:
        t = s.t
        c, k = t.cards, self.num_actions
        choosing = ~s.terminal & (s.qlen == 0)
        mask[:] = 0
        single = choosing[:, None] & (self.seats != s.double[:, None])
        mask[:, :, :c] = s.hand & single[..., None]
        if self.tactical:
            rows = np.flatnonzero(choosing & (s.double >= 0))
            if len(rows):
                h = s.hand[rows, s.double[rows]]
                pairs = h[:, :, None] & h[:, None, :] & self.pair_ok
                mask[rows, s.double[rows], c : c + c * c] = pairs.reshape(len(rows), c * c)
        rows = np.flatnonzero(self.pending_seat >= 0)
        mask[rows, self.pending_seat[rows], k - 2 : k] = 1
        acting = choosing[:, None] | (self.pending_seat[:, None] == self.seats)
        mask[:, :, k] = ~acting
        assert mask.dtype == MASK_DTYPE
