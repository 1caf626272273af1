"""Every seat's observation and action mask of N games, as the existing encoder makes them.

The layout is not written twice: the slot offsets are read from the game's
:class:`~sakura.rl.sakura_encoding.SakuraEncoder` (``encoder.layout``), and each slot is
filled from the batched state with the encoder's meaning (``docs/rl.md`` lists them): painters
rotated so the viewer comes first, numbers scaled as the encoder scales them (looked up from
tables of the encoder's own quotients, rounded to float32 as it rounds them). The masks are the
ParallelEnv's: the ids of the seat's legal actions, or only the extra ``wait`` id (the last)
for a seat that does not act now. The differential test checks both against the encoder.

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
        self.tokens_tab = np.array(
            [k / encoder.total_tokens for k in range(encoder.total_tokens + 1)], OBS_DTYPE
        )
        self.round_tab = np.array([min(r, ROUND_CAP) / ROUND_CAP for r in range(ROUND_CAP + 1)], OBS_DTYPE)
        self.deck_tab = np.array([k / c for k in range(c + 1)], dtype=OBS_DTYPE)
        self.size_tab = np.array([k / HAND for k in range(2 * HAND + 1)], dtype=OBS_DTYPE)
        self.painter_base = np.arange(p) * g  # where each painter's one-hot block starts
        self.card_base = np.arange(p) * c
        self.pair_ok = ~np.eye(c, dtype=bool)  # the tactical double play: two different cards
        self._ones = np.zeros(0, dtype=np.int64)  # where the one-hot slots hold a one now

    def observe(self, games: Games, obs: np.ndarray, mask: np.ndarray) -> None:
        """Fill ``obs`` and ``mask`` for every game of ``games``. ``obs`` must be the same
        buffer at every call, changed by nothing else: the ones of its one-hot slots written
        last time are cleared by index, which spares clearing the whole buffer."""
        self._public(games, obs)
        self._masks(games, mask)

    def _public(self, s: Games, obs: np.ndarray) -> None:
        t, sl = s.t, self.slots
        num, n, p, g = s.num, t.players, t.painters, t.spaces
        size = self.size
        flat = obs.reshape(-1)
        e = s.emperor
        pos = s.pos[:, self.by_painter]  # (num, n, p) each seat's painters, rotated
        pending = (s.qi < s.qlen) & ~s.terminal
        # The one-hot slots: the ones of last time cleared, this time's set, by flat index.
        phase = np.where(s.terminal, 2, np.where(pending, 1, 0))
        ones = np.empty((num, n, p + 3), dtype=np.int64)
        ones[:, :, 0] = (sl["emperor"][0] + e)[:, None]
        ones[:, :, 1 : p + 1] = sl["painters"][0] + self.painter_base + pos
        ones[:, :, p + 1] = (sl["scored"][0] + s.scored)[:, None]
        ones[:, :, p + 2] = (sl["phase"][0] + phase)[:, None]
        row_base = (np.arange(num * n, dtype=np.int64) * size).reshape(num, n, 1)
        ones += row_base
        parts = [ones.reshape(-1)]
        if self.tactical:
            some = np.flatnonzero(~s.terminal & (s.qlen == 0) & (s.double >= 0))
            rel = (s.double[some, None] - self.seats) % n  # (m, n)
            parts.append((row_base[some, :, 0] + sl["double"][0] + rel).reshape(-1))
        self.pending_seat = seat = np.full(num, -1, dtype=np.int64)
        resolved = np.zeros((num, p), dtype=bool)
        some = np.flatnonzero(pending)
        if len(some):
            # A choice is pending: the round's revealed cards, which are done, whose choice.
            qi, qseat, qcard = s.qi[some], s.qseat[some], s.qcard[some]
            seat[some] = head = qseat[np.arange(len(some)), qi]
            at = np.arange(len(some))[:, None]
            card_of = np.empty((len(some), p), dtype=np.int64)  # by painter
            order_of = np.empty((len(some), p), dtype=np.int64)  # each painter's place in the queue
            card_of[at, qseat] = qcard
            order_of[at, qseat] = np.arange(p)
            resolved[some] = order_of < qi[:, None]
            base = row_base[some]  # (m, n, 1)
            part = np.where(s.stage[some] == GARDEN_CHOICE, 0, 1)
            rel = (head[:, None] - self.seats) % n  # (m, n)
            parts += (
                (base + sl["revealed"][0] + self.card_base + card_of[:, self.by_painter]).reshape(-1),
                (base[:, :, 0] + sl["pending_part"][0] + part[:, None]).reshape(-1),
                (base[:, :, 0] + sl["pending_seat"][0] + rel).reshape(-1),
            )
        flat[self._ones] = 0.0
        self._ones = np.concatenate(parts)
        flat[self._ones] = 1.0
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
        a, b = sl["discard"]
        np.copyto(obs[:, :, a:b], s.discarded[:, None, :])
        a, b = sl["hand"]
        np.copyto(obs[:, :, a:b], s.hand)
        a, b = sl["hand_sizes"]
        obs[:, :, a:b] = self.size_tab[np.count_nonzero(s.hand, axis=2)[:, self.by_player]]
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
