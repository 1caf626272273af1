"""``SakuraBatchEnv``: N games of Sakura stepped as arrays, every seat at once (numpy).

The ParallelEnv's game (``sakura.rl.pettingzoo_env``), batched: one :meth:`step` is one
decision point of each of N tables (all players choose a card; or one player answers a
choice while the others send anything, their masks allowing only ``wait``), with the same
observations, masks and rewards, as arrays with the game first and the seat second:

* ``obs``: ``(N, players, size)`` float32, ``encoder_for(game).encode_all(views)`` per game;
* ``mask``: ``(N, players, num_actions + 1)`` int8, the last id being ``wait``;
* ``rewards``: ``(N, players)`` float64 (``relative_rewards``: score changes against the
  others' / 10, times ``score_weight``, plus the share of the win at the end);
* ``terminated``: ``(N,)``.

Autoreset is Gymnasium's ``next_step``: the step that ends a game returns its final
observation (masks: ``wait`` only) and its final rewards; the next step starts that table's
next game, ignoring its actions, and returns the new game's first observation with zero
rewards. Table ``i`` plays seeds ``s + i``, ``s + i + N``, ``s + i + 2N``... from
``reset(seed=s)`` (or a list of first seeds), so ``env.seeds[i]`` always names the game it
plays, which ``SakuraGame.new_initial_state(seed)`` replays exactly.

The arrays returned are read-only views of the env's own buffers, overwritten by the next
``step``: copy what you keep (writing a fresh 10 MB array every step would cost more than the
rules, and the observations are updated in place, only where they change).

>>> env = SakuraBatchEnv(num_envs=3, players=4)
>>> obs, mask = env.reset(seed=0)
>>> obs.shape, mask.shape
((3, 4, 627), (3, 4, 63))
>>> actions = mask.argmax(axis=2)  # the lowest legal id of every seat
>>> obs, mask, rewards, terminated = env.step(actions)
>>> rewards.shape, bool(terminated.any())
((3, 4), False)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sakura.engine.games.sakura import SakuraGame
from sakura.rl.batch import backends
from sakura.rl.batch.checks import Batched, check_illegal, check_num_envs, checked_actions, read_only
from sakura.rl.batch.observe import Observer
from sakura.rl.batch.rules import Games
from sakura.rl.batch.tables import Tables
from sakura.rl.sakura_encoding import SakuraEncoder


class SakuraBatchEnv(Batched):
    """``num_envs`` tables of Sakura (``players`` 2 to 6; ``variant`` as ``SakuraGame``'s,
    or a ``game`` object with its own deck and garden). ``backend``: ``"compiled"`` (the C
    kernel, :mod:`.kernel`), ``"numpy"`` (:mod:`.rules`, :mod:`.observe`), or ``"auto"``, the
    kernel where it is built (``env.backend`` says which runs; the results are the same)."""

    def __init__(
        self,
        num_envs: int = 1,
        players: int = 4,
        variant: str | None = None,
        *,
        game: SakuraGame | None = None,
        score_weight: float = 1.0,
        illegal: str = "raise",
        backend: str = "auto",
    ) -> None:
        check_num_envs(num_envs)
        check_illegal(illegal)
        self.game = game if game is not None else SakuraGame(players, variant)
        self.tables = Tables(self.game)
        self.encoder = SakuraEncoder(self.game)
        self.observer = Observer(self.encoder, num_envs)
        self.games = Games(self.tables, num_envs)
        self.num_envs = num_envs
        self.players = self.game.players
        self.num_actions = self.encoder.num_actions + 1  # with ``wait``, the last id
        self.wait = self.encoder.num_actions
        self.score_weight = float(score_weight)
        self.illegal = illegal
        self.obs, self.mask = self.observer.obs, self.observer.mask
        self.rewards = np.zeros((num_envs, self.players), dtype=np.float64)
        self._ended = np.zeros(num_envs, dtype=bool)
        self._all = np.arange(num_envs)
        self._out = tuple(read_only(a) for a in (self.obs, self.mask, self.rewards))
        self.backend = backends.resolve(backend)
        self._kernel: Any = None
        if self.backend == "compiled":
            module = backends.kernel()
            assert module is not None
            self._kernel = module.SakuraKernel(self)
            self._ended_bytes = self._ended.view(np.uint8)

    def observe(self) -> tuple[np.ndarray, np.ndarray]:
        """Every seat's observation and mask now (the buffers ``step`` returns)."""
        if self._kernel is not None:
            self._kernel.observe()
        else:
            self.observer.observe(self.games)
        return self._out[0], self._out[1]

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One decision point of every table; ``actions`` is ``(N, players)`` ids (the
        actions of seats that do not act are ignored). Returns obs, mask, rewards, terminated."""
        g = self.games
        t = self.tables
        actions = np.asarray(actions, dtype=np.int64)
        if actions.shape != (self.num_envs, self.players):
            raise ValueError(
                f"one action a seat: shape ({self.num_envs}, {self.players}), not {actions.shape}"
            )
        if self._kernel is not None:
            return self._kernel_step(actions)
        actions = checked_actions(self.mask, actions, self._ended, self.wait, self.illegal)
        before = g.tokens[:, : self.players].copy()
        restart = np.flatnonzero(self._ended)
        if len(restart):
            next_seeds = (g.seed[restart] + np.uint64(self.num_envs)).tolist()
            g.deal(restart, next_seeds)
        live = ~self._ended
        choosing = np.flatnonzero(live & (g.qlen == 0))
        pending = np.flatnonzero(live & (g.qlen > 0))
        if len(choosing):
            ids = actions[choosing]
            cards, court = ids.copy(), np.full(len(choosing), -1, dtype=np.int64)
            if t.tactical:
                double = g.double[choosing]
                rows = np.flatnonzero(double >= 0)
                pair = ids[rows, double[rows]] - t.cards
                cards[rows, double[rows]] = pair // t.cards
                court[rows] = pair % t.cards
            g.play(choosing, cards, court)
        if len(pending):
            seat = g.qseat[pending, g.qi[pending]]
            g.answer(pending, actions[pending, seat] == self.wait - 2)
        after = g.tokens[:, : self.players]
        self._relative_rewards(after - before)
        self.rewards[restart] = 0.0
        ended = g.terminal & live
        self.rewards[ended] += g.returns[ended]
        self._ended = ended
        obs, mask = self.observe()
        return obs, mask, self._out[2], ended

    def _kernel_step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The step in the compiled kernel: every table played and observed in one C loop,
        in place (the same state, observations, masks and rewards as the numpy step)."""
        actions = np.ascontiguousarray(actions)
        if self._kernel.first_illegal(actions, self._ended_bytes) >= 0:  # raise, or replace
            actions = np.ascontiguousarray(
                checked_actions(self.mask, actions, self._ended, self.wait, self.illegal)
            )
        self._kernel.step(actions, self._ended_bytes)
        return self._out[0], self._out[1], self._out[2], self._ended.copy()

    def _relative_rewards(self, gains: np.ndarray) -> None:
        """``relative_rewards`` of ``sakura.rl.encoding`` for every table, the same floats."""
        n = self.players
        scale = self.encoder.score_scale
        w = self.score_weight
        g = gains.astype(np.float64)
        if n > 1:
            total = g.sum(axis=1, keepdims=True)
            self.rewards[:] = w * (g - (total - g) / (n - 1)) / scale
        else:
            self.rewards[:] = w * g / scale
