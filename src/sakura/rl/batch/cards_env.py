"""``CardsBatchEnv``: N games of the three-area card game stepped as arrays (numpy).

The card game's ParallelEnv (``parallel_env(game="sakura-cards")``), batched: one
:meth:`step` is one decision of each of N tables (the player to move places, discards or
gives; the other seat's mask allows only ``wait``, and what it sends is ignored). The arrays
are those of :class:`~sakura.rl.batch.env.SakuraBatchEnv`, with the game first and the seat
second: ``obs`` ``(N, 2, 345)`` float32 (``CardsEncoder``'s), ``mask`` ``(N, 2, 141)`` int8
(the last id is ``wait``), ``rewards`` ``(N, 2)`` (``relative_rewards`` of the totals, and the
share of the win at the end), ``terminated`` ``(N,)``. Autoreset and seeds are the same too:
table ``i`` plays seeds ``s + i``, ``s + i + N``... (``env.seeds[i]`` names the game it plays
now, which ``CardsGame().new_initial_state(seed)`` replays).

>>> env = CardsBatchEnv(num_envs=3)
>>> obs, mask = env.reset(seed=0)
>>> obs.shape, mask.shape
((3, 2, 345), (3, 2, 141))
>>> obs, mask, rewards, terminated = env.step(mask.argmax(axis=2))
>>> rewards.shape, bool(terminated.any())
((3, 2), False)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sakura.engine.games.cards import CardsGame
from sakura.rl.batch import backends
from sakura.rl.batch.cards_rules import GIVE, CardGames, CardTables
from sakura.rl.batch.checks import Batched, check_illegal, check_num_envs, checked_actions, read_only
from sakura.rl.cards_encoding import MAX_AREA, MAX_CARDS, NUMBERS, ROUNDS, CardsEncoder
from sakura.rl.encoding import MASK_DTYPE, OBS_DTYPE


def _table(top: int, scale: float) -> np.ndarray:
    """``min(i, top) / scale`` for i in 0..top as the encoder stores it (float64, then float32)."""
    return np.array([i / scale for i in range(top + 1)], dtype=OBS_DTYPE)


class CardsBatchEnv(Batched):
    """``num_envs`` tables of the card game (the published deck)."""

    def __init__(
        self,
        num_envs: int = 1,
        *,
        game: CardsGame | None = None,
        score_weight: float = 1.0,
        illegal: str = "raise",
        backend: str = "auto",
    ) -> None:
        self.num_envs = check_num_envs(num_envs)
        self.illegal = check_illegal(illegal)
        self.game = game if game is not None else CardsGame()
        self.tables = CardTables(self.game)
        self.encoder = CardsEncoder(self.game)
        self.games = CardGames(self.tables, num_envs)
        self.players = 2
        self.wait = self.encoder.num_actions
        self.num_actions = self.wait + 1
        self.score_weight = float(score_weight)
        enc = self.encoder
        self.obs = np.zeros((num_envs, 2, enc.size), dtype=OBS_DTYPE)
        self.mask = np.zeros((num_envs, 2, self.num_actions), dtype=MASK_DTYPE)
        self.rewards = np.zeros((num_envs, 2), dtype=np.float64)
        self._ended = np.zeros(num_envs, dtype=bool)
        self._all = np.arange(num_envs)
        self._perm = np.stack(enc._perm)  # seat -> where each number is in the seat-ordered vector
        self._half = np.array([0.0, 0.5, 1.0], dtype=OBS_DTYPE)  # count / 2, at most 1
        self._cards = _table(MAX_CARDS, MAX_CARDS)
        self._area = _table(MAX_AREA, MAX_AREA)
        self._round = _table(3 * MAX_AREA, 3 * MAX_AREA)
        self._total = _table(3 * 3 * MAX_AREA, 3 * 3 * MAX_AREA)
        self._out = tuple(read_only(a) for a in (self.obs, self.mask, self.rewards))
        # ``compiled``: the C kernel (:mod:`.cards_kernel`); ``numpy``: the code below; ``auto``:
        # the kernel where it is built. ``self.backend`` says which runs (the same results).
        self.backend = backends.resolve(backend, "sakura-cards")
        self._kernel: Any = None
        if self.backend == "compiled":
            module = backends.kernel("sakura-cards")
            assert module is not None
            self._kernel = module.CardsKernel(self)
            self._ended_bytes = self._ended.view(np.uint8)

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One decision of every table; ``actions`` is ``(N, 2)`` ids (only the mover's
        counts). Returns obs, mask, rewards, terminated."""
        g = self.games
        actions = np.asarray(actions, dtype=np.int64)
        if actions.shape != (self.num_envs, 2):
            raise ValueError(f"one action a seat: shape ({self.num_envs}, 2), not {actions.shape}")
        if self._kernel is not None:  # every table played and observed in one C loop, in place
            actions = np.ascontiguousarray(actions)
            if self._kernel.first_illegal(actions, self._ended_bytes) >= 0:  # raise, or replace
                actions = np.ascontiguousarray(
                    checked_actions(self.mask, actions, self._ended, self.wait, self.illegal)
                )
            self._kernel.step(actions, self._ended_bytes)
            return self._out[0], self._out[1], self._out[2], self._ended.copy()
        actions = checked_actions(self.mask, actions, self._ended, self.wait, self.illegal)
        before = g.totals()
        restart = np.flatnonzero(self._ended)
        if len(restart):
            g.deal(restart, (g.seed[restart] + np.uint64(self.num_envs)).tolist())
        live = np.flatnonzero(~self._ended)
        g.act(live, actions[live, g.turn[live]])
        gains = (g.totals() - before).astype(np.float64)
        other = gains[:, ::-1]
        self.rewards[:] = self.score_weight * (gains - other) / self.encoder.score_scale
        self.rewards[restart] = 0.0
        ended = np.zeros(self.num_envs, dtype=bool)
        ended[live] = g.terminal[live]
        self.rewards[ended] += g.returns[ended]
        self._ended = ended
        obs, mask = self.observe()
        return obs, mask, self._out[2], ended

    def observe(self) -> tuple[np.ndarray, np.ndarray]:
        """Every seat's observation and mask now (the buffers ``step`` returns)."""
        if self._kernel is not None:
            self._kernel.observe()
            return self._out[0], self._out[1]
        g, enc = self.games, self.encoder
        n, k = self.num_envs, self.tables.k
        half = self._half
        public = np.zeros((n, enc.size), dtype=OBS_DTYPE)  # seats in seat order
        public[:, enc.o_areas : enc.o_areas + 6 * k] = half[np.minimum(g.area, 2)].reshape(n, -1)
        filled = g.length > 0
        slot = np.arange(6)
        last = (enc.o_last + slot * NUMBERS + g.last.reshape(n, 6) - 1).clip(0)
        rows, cols = np.nonzero(filled.reshape(n, 6))
        public[rows, last[rows, cols]] = 1.0
        public[:, enc.o_count : enc.o_count + 6] = self._cards[np.minimum(g.length, MAX_CARDS)].reshape(n, 6)
        public[:, enc.o_score : enc.o_score + 6] = self._area[g.score].reshape(n, 6)
        sizes = g.hand.sum(axis=2)
        public[:, enc.o_sizes : enc.o_sizes + 2] = self._cards[np.minimum(sizes, MAX_CARDS)]
        public[:, enc.o_dcounts : enc.o_dcounts + 2] = self._cards[g.discards.sum(axis=2)]
        # A round not yet played scores 0 here, as the encoder writes nothing for it.
        public[:, enc.o_rounds : enc.o_rounds + 2 * ROUNDS] = self._round[g.scores].reshape(n, -1)
        public[:, enc.o_totals : enc.o_totals + 2] = self._total[g.totals()]
        public[:, enc.o_aside] = self._cards[g.aside.sum(axis=1)]
        ar = np.arange(n)
        public[ar, enc.o_round + g.round - 1] = 1.0
        public[ar, enc.o_starter + g.starter] = 1.0
        over = g.terminal
        public[ar[over], enc.o_phase + 2] = 1.0
        on = ar[~over]
        public[on, enc.o_turn + g.turn[on]] = 1.0
        public[on, enc.o_phase + (g.phase[on] == GIVE)] = 1.0
        self.obs[:, 0] = public[:, self._perm[0]]
        self.obs[:, 1] = public[:, self._perm[1]]
        for start, counts in (
            (enc.o_hand, g.hand),
            (enc.o_given, g.given),
            (enc.o_received, g.received),
            (enc.o_discarded, g.discards),
        ):
            self.obs[:, :, start : start + k] = half[np.minimum(counts, 2)]
        self.mask[:, :, : self.wait] = g.legal()
        self.mask[:, :, self.wait] = ~self.mask[:, :, : self.wait].any(axis=2)
        return self._out[0], self._out[1]
