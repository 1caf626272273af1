"""``SakuraJax``: N games of Sakura under ``jax.jit``/``vmap``, pgx-style (``init``/``step``/
``observe`` with legal-action masks).

The JAX path of the batched engine: :class:`~sakura.rl.batch.env.SakuraBatchEnv`'s game, its
observations, masks, rewards and autoreset, as one compiled function of a frozen state
(:class:`State`). ``init(seeds)`` deals; ``step(state, actions)`` plays one decision point of
every table (``actions``: ``(N, players)`` ids; a seat that must act and sends an id its mask
does not allow plays the lowest legal id instead, as ``illegal="replace"``; no error can be
raised inside ``jit``). Table ``i`` then plays seeds ``s``, ``s + N``, ``s + 2N``...: the game
of ``SakuraGame.new_initial_state(seed)``, which ``state.game.seed[i]`` names. The rules are
:mod:`.jax_rules`; ``tests/rl/test_jax_batch.py`` holds this path to the numpy one step for
step (which the reference engine holds in turn).

>>> import numpy as np
>>> env = SakuraJax(num_envs=3, players=4)
>>> state = env.init(np.arange(3))
>>> state.observation.shape, state.legal_action_mask.shape
((3, 4, 627), (3, 4, 63))
>>> state = env.step(state, np.asarray(state.legal_action_mask).argmax(axis=2))
>>> state.rewards.shape, bool(state.terminated.any())
((3, 4), False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from sakura.engine.games.sakura import SakuraGame
from sakura.rl.batch.jax_rng import U64
from sakura.rl.batch.jax_rules import Game, Rules, pick
from sakura.rl.batch.observe import Observer
from sakura.rl.batch.rules import GARDEN_CHOICE
from sakura.rl.batch.tables import Tables
from sakura.rl.sakura_encoding import ROUND_CAP, SakuraEncoder


class State(NamedTuple):
    """The batch: the games, and what the last step returned."""

    game: Game  # every field with the table first
    observation: jax.Array  # (N, players, size) float32
    legal_action_mask: jax.Array  # (N, players, actions + 1) bool; the last id is ``wait``
    rewards: jax.Array  # (N, players) float64
    terminated: jax.Array  # (N,) bool


class SakuraJax:
    """``num_envs`` tables of Sakura (``players``, ``variant`` as ``SakuraGame``'s)."""

    def __init__(
        self,
        num_envs: int = 1,
        players: int = 4,
        variant: str | None = None,
        *,
        game: SakuraGame | None = None,
        score_weight: float = 1.0,
    ) -> None:
        self.game = game if game is not None else SakuraGame(players, variant)
        self.tables = t = Tables(self.game)
        self.rules = Rules(t)
        self.encoder = enc = SakuraEncoder(self.game)
        self.num_envs = num_envs
        self.players = n = t.players
        self.wait = enc.num_actions
        self.num_actions = enc.num_actions + 1
        self.score_weight = float(score_weight)
        o = Observer(enc, 1)
        self._tabs = {
            name: jnp.asarray(getattr(o, name))
            for name in ("spaces_tab", "tokens_tab", "round_tab", "deck_tab", "size_tab")
        }
        self._by_painter = jnp.asarray(o.by_painter)
        self._by_player = jnp.asarray(o.by_player)
        self._slots = [(slot.name, slot.size) for slot in enc.layout]
        self._pair_ok = jnp.asarray(~np.eye(t.cards, dtype=bool))
        self._seats = jnp.arange(n)
        self.init = jax.jit(self._init)
        self.step = jax.jit(self._step)
        self.observe = jax.jit(jax.vmap(self._observe_one))

    # ------------------------------------------------------------------ the API

    def _init(self, seeds: Any) -> State:
        game = jax.vmap(self.rules.deal)(jnp.asarray(seeds).astype(U64))
        obs, mask = jax.vmap(self._observe_one)(game)
        n = self.num_envs
        return State(game, obs, mask, jnp.zeros((n, self.players)), jnp.zeros(n, dtype=bool))

    def _step(self, state: State, actions: Any) -> State:
        r, t = self.rules, self.tables
        actions = jnp.asarray(actions, dtype=jnp.int64)
        mask = state.legal_action_mask
        legal = jnp.take_along_axis(mask, jnp.clip(actions, 0, self.wait)[..., None], axis=2)[..., 0]
        actions = jnp.where(legal & (actions >= 0), actions, jnp.argmax(mask, axis=2))
        restart = state.terminated
        g = state.game
        g = jax.lax.cond(
            restart.any(),
            lambda: pick(restart, jax.vmap(r.deal)(g.seed + U64(self.num_envs)), g),
            lambda: g,
        )
        before = g.tokens[:, : self.players]
        live = ~restart
        choosing = live & (g.qlen == 0)
        pending = live & (g.qlen > 0)
        if t.court >= 0:  # the court painter's card comes from the deck: reshuffle if empty
            empty = choosing & (g.double < 0) & (g.deck_len == 0)
            g = jax.lax.cond(empty.any(), lambda: self._reshuffle(g, empty), lambda: g)
        cards, court = actions[:, : self.players], jnp.full(self.num_envs, -1)
        if t.tactical:
            d = jnp.maximum(g.double, 0)
            pair = actions[jnp.arange(self.num_envs), d] - t.cards
            doubled = (g.double >= 0) & choosing
            cards = cards.at[jnp.arange(self.num_envs), d].set(
                jnp.where(doubled, pair // t.cards, cards[jnp.arange(self.num_envs), d])
            )
            court = jnp.where(doubled, pair % t.cards, -1)
        cards = jnp.clip(cards, 0, t.cards - 1)
        seat = g.qseat[jnp.arange(self.num_envs), jnp.minimum(g.qi, t.painters - 1)]
        forward = actions[jnp.arange(self.num_envs), seat] == self.wait - 2
        acted = jax.vmap(r.act)(g, choosing, cards, court, forward)
        g = pick(choosing | pending, acted, g)
        over = (choosing | pending) & (g.qi >= g.qlen) & ~g.terminal
        g = jax.lax.cond(over.any(), lambda: self._end_rounds(g, over), lambda: g)
        gains = (g.tokens[:, : self.players] - before).astype(jnp.float64)
        total = gains.sum(axis=1, keepdims=True)
        # The divisors as whole arrays behind a barrier: XLA turns a division by a broadcast
        # number into a multiplication by its inverse, a last bit off numpy's quotient.
        others, scale = jax.lax.optimization_barrier(  # type: ignore[no-untyped-call, unused-ignore]
            (jnp.full(gains.shape, self.players - 1.0), jnp.full(gains.shape, self.encoder.score_scale))
        )
        rewards = self.score_weight * (gains - (total - gains) / others) / scale
        rewards = jnp.where(restart[:, None], 0.0, rewards)
        ended = g.terminal & live
        rewards = rewards + jnp.where(ended[:, None], g.returns, 0.0)
        obs, mask = jax.vmap(self._observe_one)(g)
        return State(g, obs, mask, rewards, ended)

    def _reshuffle(self, g: Game, which: jax.Array) -> Game:
        rng, deck, length = jax.vmap(self.rules.reshuffled)(g)
        fresh = g._replace(
            rng=rng,
            deck=deck,
            deck_len=length,
            disc_len=jnp.zeros_like(length),
            discarded=g.discarded & False,
        )
        return pick(which, fresh, g)

    def _end_rounds(self, g: Game, over: jax.Array) -> Game:
        r = self.rules
        use = over & (g.deck_len < jax.vmap(r.need)(g))
        fresh = jax.lax.cond(
            use.any(),
            lambda: jax.vmap(r.reshuffled)(g),
            lambda: (g.rng, g.deck, jnp.zeros_like(g.deck_len)),
        )
        return pick(over, jax.vmap(r.refill)(g, fresh, use), g)

    # ------------------------------------------------------------------ observations

    def _observe_one(self, s: Game) -> tuple[jax.Array, jax.Array]:
        """One game's ``(players, size)`` observations and ``(players, actions)`` masks."""
        t, tabs = self.tables, self._tabs
        n, p, g, c = t.players, t.painters, t.spaces, t.cards
        pending = (s.qi < s.qlen) & ~s.terminal
        choosing = ~s.terminal & (s.qlen == 0)
        head = jnp.minimum(s.qi, p - 1)
        seat = jnp.where(pending, s.qseat[head], -1)
        card_of = jnp.zeros(p, jnp.int64).at[s.qseat].set(s.qcard)
        place = jnp.zeros(p, jnp.int64).at[s.qseat].set(jnp.arange(p))
        resolved = pending & (place < s.qi)
        part = jnp.where(s.stage == GARDEN_CHOICE, 0, 1)
        phase = jnp.where(s.terminal, 2, jnp.where(pending, 1, 0))
        left = s.scored < len(t.sakuras)
        nxt = jnp.asarray(t.sakuras)[jnp.minimum(s.scored, len(t.sakuras) - 1)]
        f32 = jnp.float32

        def hot(i: jax.Array, size: int, on: Any = True) -> jax.Array:
            return jax.nn.one_hot(jnp.where(on, i, -1), size, dtype=f32)

        rows = []
        for me in range(n):
            bp = self._by_painter[me]
            parts = {
                "emperor": hot(s.emperor, g),
                "painters": hot(s.pos[bp], g).reshape(-1),
                "behind": tabs["spaces_tab"][s.emperor - s.pos[bp] + g],
                "tokens": tabs["tokens_tab"][s.tokens[bp]],
                "supply": tabs["tokens_tab"][s.supply][None],
                "scored": hot(s.scored, len(t.sakuras) + 1),
                "next_sakura": jnp.where(left, tabs["spaces_tab"][nxt - s.emperor + g], 0.0)[None].astype(
                    f32
                ),
                "round": tabs["round_tab"][jnp.minimum(s.round, ROUND_CAP)][None],
                "deck": tabs["deck_tab"][s.deck_len][None],
                "discard": s.discarded.astype(f32),
                "hand": s.hand[me].astype(f32),
                "hand_sizes": tabs["size_tab"][s.hand_size[self._by_player[me]]],
                "chosen": jnp.zeros(n, f32),
                "my_card": jnp.zeros(c, f32),
                "my_court_card": jnp.zeros(c, f32),
                "double": hot((s.double - me) % n, n, choosing & (s.double >= 0)),
                "revealed": hot(card_of[bp], c, pending).reshape(-1),
                "resolved": resolved[bp].astype(f32),
                "phase": hot(phase, 3),
                "pending_part": hot(part, 2, pending),
                "pending_seat": hot((seat - me) % n, p, pending),
            }
            rows.append(jnp.concatenate([parts[name] for name, _ in self._slots]))
        obs = jnp.stack(rows)
        acting = choosing | ((seat == self._seats) & pending)
        single = choosing & (self._seats != s.double)
        blocks = [s.hand & single[:, None]]
        if t.tactical:
            h = s.hand[jnp.maximum(s.double, 0)]
            pairs = (h[:, None] & h[None, :] & self._pair_ok).reshape(-1)
            mine = choosing & (self._seats == s.double)
            blocks.append(pairs[None, :] & mine[:, None])
        choice = (pending & (seat == self._seats))[:, None]
        blocks += [jnp.repeat(choice, 2, axis=1), ~acting[:, None]]
        return obs, jnp.concatenate(blocks, axis=1)


def seeds_of(state: State) -> Sequence[int]:
    """The seed of the game each table plays now."""
    return [int(x) for x in np.asarray(state.game.seed)]
