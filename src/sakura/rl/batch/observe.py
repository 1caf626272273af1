"""Every seat's observation and action mask of N games, as the existing encoder makes them.

The layout is not written twice: the slot offsets are read from the game's
:class:`~sakura.rl.sakura_encoding.SakuraEncoder` (``encoder.layout``), and each slot is
filled from the batched state with the encoder's meaning (``docs/rl.md`` lists them): painters
rotated so the viewer comes first, numbers scaled as the encoder scales them (looked up from
tables of the encoder's own quotients, rounded to float32 as it rounds them). The masks are the
ParallelEnv's: the ids of the seat's legal actions, or only the extra ``wait`` id (the last)
for a seat that does not act now. The differential test checks both against the encoder.

Every slot is written whole, as one broadcast over the batch, so nothing has to be cleared
first. The slots ``chosen``, ``my_card`` and ``my_court_card`` stay zero: the batched step
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

    def __init__(self, encoder: SakuraEncoder) -> None:
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
        self.tokens_tab = np.array([k / encoder.total_tokens for k in range(encoder.total_tokens + 1)], OBS_DTYPE)
        self.round_tab = np.array([min(r, ROUND_CAP) / ROUND_CAP for r in range(ROUND_CAP + 1)], OBS_DTYPE)
        self.deck_tab = np.array([k / c for k in range(c + 1)], dtype=OBS_DTYPE)
        self.size_tab = np.array([k / HAND for k in range(2 * HAND + 1)], dtype=OBS_DTYPE)
        self.phase_rows = np.eye(3, dtype=OBS_DTYPE)  # choosing, resolving, game over
        self.pair_ok = ~np.eye(c, dtype=bool)  # the tactical double play: two different cards

    def observe(self, games: Games, obs: np.ndarray, mask: np.ndarray) -> None:
        """Fill ``obs`` and ``mask`` for every game of ``games``."""
        self._public(games, obs)
        self._masks(games, mask)

    def _public(self, s: Games, obs: np.ndarray) -> None:
        t, sl = s.t, self.slots
        num, n, p, g, c = s.num, t.players, t.painters, t.spaces, t.cards
        ids = t.space_ids
        e = s.emperor
        a, b = sl["emperor"]
        obs[:, :, a:b] = (e[:, None] == ids)[:, None, :]
        pos = s.pos[:, self.by_painter]  # (num, n, p) each seat's painters, rotated
        a, b = sl["painters"]
        obs[:, :, a:b] = (pos[..., None] == ids).reshape(num, n, p * g)
        a, b = sl["behind"]
        obs[:, :, a:b] = self.spaces_tab[e[:, None, None] - pos + g]
        a, b = sl["tokens"]
        obs[:, :, a:b] = self.tokens_tab[s.tokens[:, self.by_painter]]
        a, b = sl["supply"]
        obs[:, :, a] = self.tokens_tab[s.supply][:, None]
        a, b = sl["scored"]
        obs[:, :, a:b] = (s.scored[:, None] == np.arange(b - a))[:, None, :]
        left = s.scored < len(t.sakuras)
        nxt = t.sakuras[np.minimum(s.scored, len(t.sakuras) - 1)]
        obs[:, :, sl["next_sakura"][0]] = np.where(left, self.spaces_tab[nxt - e + g], 0.0)[:, None]
        obs[:, :, sl["round"][0]] = self.round_tab[np.minimum(s.round, ROUND_CAP)][:, None]
        obs[:, :, sl["deck"][0]] = self.deck_tab[s.deck_len][:, None]
        a, b = sl["discard"]
        obs[:, :, a:b] = s.discarded[:, None, :]
        a, b = sl["hand"]
        obs[:, :, a:b] = s.hand
        a, b = sl["hand_sizes"]
        obs[:, :, a:b] = self.size_tab[s.hand.sum(axis=2)[:, self.by_player]]
        for name in ("chosen", "my_card", "my_court_card"):  # see the module docstring
            if name in sl:
                a, b = sl[name]
                obs[:, :, a:b] = 0.0
        pending = (s.qi < s.qlen) & ~s.terminal
        choosing = ~s.terminal & (s.qlen == 0)
        if self.tactical:
            a, b = sl["double"]
            rel = np.where((choosing & (s.double >= 0))[:, None], (s.double[:, None] - self.seats) % n, -1)
            obs[:, :, a:b] = rel[..., None] == np.arange(n)
        # The round's revealed cards (shown while a choice is pending) and which are done.
        card_of = np.full((num, p), -1, dtype=np.int64)  # by painter
        order_of = np.full((num, p), p, dtype=np.int64)  # each painter's place in the queue
        rows = np.flatnonzero(pending)
        if len(rows):
            card_of[rows[:, None], s.qseat[rows]] = s.qcard[rows]
            order_of[rows[:, None], s.qseat[rows]] = np.arange(p)
        a, b = sl["revealed"]
        obs[:, :, a:b] = (card_of[:, self.by_painter][..., None] == np.arange(c)).reshape(num, n, p * c)
        a, b = sl["resolved"]
        obs[:, :, a:b] = (order_of < s.qi[:, None])[:, self.by_painter]
        a, b = sl["phase"]
        phase = np.where(s.terminal, 2, np.where(pending, 1, 0))
        obs[:, :, a:b] = self.phase_rows[phase][:, None, :]
        head = np.minimum(s.qi, p - 1)
        seat = np.where(pending, s.qseat[np.arange(num), head], -1)
        part = np.where(pending, np.where(s.stage == GARDEN_CHOICE, 0, 1), -1)
        a, b = sl["pending_part"]
        obs[:, :, a:b] = (part[:, None] == np.arange(2))[:, None, :]
        a, b = sl["pending_seat"]
        rel = np.where(pending[:, None], (seat[:, None] - self.seats) % n, -1)
        obs[:, :, a:b] = rel[..., None] == np.arange(p)
        self.pending_seat = seat

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
