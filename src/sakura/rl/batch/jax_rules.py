"""Sakura's rules for one game as pure JAX functions (``vmap`` makes them N games).

The JAX path of the batched engine (``docs/rl.md``): the same rules as :mod:`.rules` and
:mod:`.moves` (numpy), written for one game over a frozen state (:class:`Game`, a pytree of
arrays), pgx-style, so that ``jax.vmap`` batches them and ``jax.jit`` compiles the whole step.
Where the numpy code selects games with index arrays, this code computes a move and keeps it
only where it applies (:func:`pick`); sets of spaces are boolean vectors counted with ``cumsum``.

Randomness is the engine's SplitMix64 (:mod:`.jax_rng`), so deals and reshuffles are the
engine's, card for card: ``tests/rl/test_jax_batch.py`` holds this
path to the numpy one (itself held to the reference engine) step for step.

Reshuffles and round ends that draw cards are done by the batch step (:mod:`.jax_env`) only
when some game needs them (``lax.cond`` on the batch), since under ``vmap`` a per-game branch
costs every game both sides.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp

from sakura.rl.batch.jax_rng import shuffle, shuffle_schedule
from sakura.rl.batch.rules import GARDEN_CHOICE, GARDEN_DONE, NOT_STARTED, PAINTER_CHOICE
from sakura.rl.batch.tables import (
    G_CHOICE,
    G_CLOSEST,
    G_EMPEROR,
    G_FURTHEST,
    HAND,
    P_CHOICE,
    P_COUNT,
    P_JUMP,
    P_MOVE,
    Tables,
)


class Game(NamedTuple):
    """One game's state (the fields of :class:`~sakura.rl.batch.rules.Games`, per game)."""

    emperor: jax.Array
    pos: jax.Array  # (painters,)
    tokens: jax.Array  # (painters,)
    supply: jax.Array
    scored: jax.Array
    round: jax.Array
    hand: jax.Array  # (players, cards) bool
    hand_size: jax.Array  # (players,)
    deck: jax.Array  # (cards,) the top at deck_len - 1
    deck_len: jax.Array
    discard: jax.Array  # (cards,) oldest first
    disc_len: jax.Array
    discarded: jax.Array  # (cards,) bool
    qcard: jax.Array  # (painters,) the round's cards in order of resolution
    qseat: jax.Array
    qlen: jax.Array
    qi: jax.Array
    stage: jax.Array
    scoring: jax.Array
    double: jax.Array
    terminal: jax.Array
    returns: jax.Array  # (players,) float64
    rng: jax.Array  # uint64
    seed: jax.Array  # uint64


def pick(do: jax.Array, new: Game, old: Game) -> Game:
    """``new`` where ``do``, else ``old``, field by field (``do``: one flag, or one a game
    of a batch, broadcast over each field's other axes)."""

    def pick(a: jax.Array, b: jax.Array) -> jax.Array:
        return jnp.where(do.reshape(do.shape + (1,) * (a.ndim - do.ndim)), a, b)

    out: Game = jax.tree_util.tree_map(pick, new, old)
    return out


# ---------------------------------------------------------------------- the rules


class Rules:
    """The rules of one table (its facts as constants), as functions of one :class:`Game`."""

    def __init__(self, tables: Tables) -> None:
        t = self.t = tables
        self.n, self.p, self.c, self.g = t.players, t.painters, t.cards, t.spaces
        bounds, swaps = shuffle_schedule(t.cards)
        self.plan = (jnp.asarray(bounds), jnp.asarray(swaps))
        self.g_kind, self.g_amount = jnp.asarray(t.g_kind), jnp.asarray(t.g_amount)
        self.p_kind, self.p_amount = jnp.asarray(t.p_kind), jnp.asarray(t.p_amount)
        self.sakuras = jnp.asarray(t.sakuras)
        ranks = min(len(t.awards), self.p)
        self.awards = [(t.awards[r], t.last_awards[r]) for r in range(ranks)]
        self.spaces = jnp.arange(self.g)
        self.deal_seat = jnp.arange(HAND * self.n) % self.n

    def deal(self, seed: jax.Array) -> Game:
        t, n, p, c = self.t, self.n, self.p, self.c
        rng, deck = shuffle(seed, jnp.arange(c, dtype=jnp.int64), jnp.int64(c), self.plan)
        cards = deck[::-1][: HAND * n]
        hand = jnp.zeros((n, c), dtype=bool).at[self.deal_seat, cards].set(True)
        zero = jnp.int64(0)
        return Game(
            emperor=jnp.int64(t.torii),
            pos=jnp.zeros(p, jnp.int64),
            tokens=jnp.full(p, t.start_tokens, jnp.int64),
            supply=jnp.int64(t.total_tokens - t.start_tokens * p),
            scored=zero,
            round=jnp.int64(1),
            hand=hand,
            hand_size=jnp.full(n, HAND, jnp.int64),
            deck=deck,
            deck_len=jnp.int64(c - HAND * n),
            discard=jnp.zeros(c, jnp.int64),
            disc_len=zero,
            discarded=jnp.zeros(c, dtype=bool),
            qcard=jnp.zeros(p, jnp.int64),
            qseat=jnp.zeros(p, jnp.int64),
            qlen=zero,
            qi=zero,
            stage=zero,
            scoring=jnp.bool_(False),
            double=jnp.int64(-1),
            terminal=jnp.bool_(False),
            returns=jnp.zeros(n, jnp.float64),
            rng=rng,
            seed=seed,
        )

    # -------------------------------------------------------------- moves

    def _others(self, s: Game, seat: jax.Array) -> jax.Array:
        """Spaces (not the gate) where a painter other than ``seat`` stands."""
        mine = jnp.arange(self.p) == seat
        hit = (s.pos[:, None] == self.spaces[None, :]) & ~mine[:, None]
        return hit.any(axis=0) & (self.spaces > 0)

    def _forward(
        self, occupied: jax.Array, start: jax.Array, steps: jax.Array, emperor: jax.Array
    ) -> jax.Array:
        free = ~occupied & (self.spaces > start) & (self.spaces < emperor)
        nth = free & (jnp.cumsum(free) == steps)
        return jnp.where(nth.any(), jnp.argmax(nth), -1)

    def _backward(self, occupied: jax.Array, start: jax.Array, steps: jax.Array) -> jax.Array:
        free = ~occupied & (self.spaces < start) & (self.spaces > 0)
        from_top = jnp.cumsum(free[::-1])[::-1]  # free spaces at or above each
        nth = free & (from_top == steps)
        return jnp.where(nth.any(), jnp.argmax(nth), 0)

    def _bump(self, s: Game, seat: jax.Array, do: jax.Array) -> Game:
        to = self._backward(self._others(s, seat), s.emperor, jnp.int64(3))
        lost = (do & (s.tokens[seat] > 0)).astype(jnp.int64)
        return s._replace(
            pos=s.pos.at[seat].set(jnp.where(do, to, s.pos[seat])),
            tokens=s.tokens.at[seat].add(-lost),
            supply=s.supply + lost,
        )

    def move_painter(self, s: Game, seat: jax.Array, amount: jax.Array, do: jax.Array) -> Game:
        seat = jnp.maximum(seat, 0)
        occupied = self._others(s, seat)
        here = s.pos[seat]
        fwd = self._forward(occupied, here, amount, s.emperor)
        back = self._backward(occupied, here, -amount)
        to = jnp.where(amount > 0, fwd, back)
        hit = do & (amount > 0) & (fwd < 0)
        moved = do & (amount != 0) & ~hit
        s = s._replace(pos=s.pos.at[seat].set(jnp.where(moved, to, here)))
        return self._bump(s, seat, hit)

    def move_emperor(self, s: Game, amount: jax.Array, do: jax.Array) -> Game:
        nxt = self.sakuras[jnp.minimum(s.scored, len(self.t.sakuras) - 1)]
        ahead = s.emperor + amount
        reach = ahead >= nxt
        fwd = do & (amount > 0)
        s = s._replace(
            emperor=jnp.where(fwd, jnp.where(reach, nxt, ahead), s.emperor),
            scoring=s.scoring | (fwd & reach),
        )
        for k in range(self.t.max_back):  # back: a space at a time, bumping whoever is there
            go = do & (amount < -k) & (s.emperor > 1)
            e = jnp.where(go, s.emperor - 1, s.emperor)
            here = s.pos == e
            s = self._bump(s._replace(emperor=e), jnp.argmax(here), go & here.any())
        return s

    def _ahead(self, s: Game, seat: jax.Array) -> jax.Array:
        return (s.pos > s.pos[seat]) & (jnp.arange(self.p) != seat)

    def _jump(self, s: Game, seat: jax.Array, do: jax.Array) -> Game:
        ahead = self._ahead(s, seat)
        do = do & ahead.any()
        nearest = jnp.where(ahead, s.pos, self.g).min()
        to = self._forward(self._others(s, seat), nearest, jnp.int64(1), s.emperor)
        hit = do & (to < 0)
        s = s._replace(pos=s.pos.at[seat].set(jnp.where(do & ~hit, to, s.pos[seat])))
        return self._bump(s, seat, hit)

    def _count(self, s: Game, seat: jax.Array, do: jax.Array) -> Game:
        n = self._ahead(s, seat).sum()
        return self.move_painter(s, seat, n, do & (n > 0))

    # -------------------------------------------------------------- a round

    def act(
        self, s: Game, choosing: jax.Array, cards: jax.Array, court: jax.Array, forward: jax.Array
    ) -> Game:
        """One decision point: the players' cards (``choosing``) or the pending choice's
        answer; then the cards resolve up to a choice or the round's end (one ``advance``
        for both, since under ``vmap`` every game runs both sides of a branch)."""
        return self.advance(pick(choosing, self._played(s, cards, court), self._answered(s, forward)))

    def _played(self, s: Game, cards: jax.Array, court: jax.Array) -> Game:
        """Every player plays ``cards[seat]`` (the double player also ``court`` for the court
        painter, or -1: the court painter's card is the deck's top, which the batch step has
        made sure is there); the round's cards are revealed, in order of resolution."""
        n = self.n
        hand = s.hand.at[jnp.arange(n), cards].set(False)
        size = s.hand_size - 1
        queue = jnp.zeros(self.p, jnp.int64).at[:n].set(cards)
        deck_len = s.deck_len
        if self.t.court >= 0:
            double = court >= 0
            d = jnp.maximum(s.double, 0)
            hand = hand.at[d, jnp.maximum(court, 0)].set(
                jnp.where(double, False, hand[d, jnp.maximum(court, 0)])
            )
            size = size.at[d].add(-double.astype(jnp.int64))
            top = s.deck[jnp.maximum(deck_len - 1, 0)]
            queue = queue.at[self.t.court].set(jnp.where(double, court, top))
            deck_len = jnp.where(double, deck_len, deck_len - 1)
        order = jnp.argsort(queue)
        return s._replace(
            hand=hand,
            hand_size=size,
            deck_len=deck_len,
            qcard=queue[order],
            qseat=order,
            qlen=jnp.int64(self.p),
            qi=jnp.int64(0),
            stage=jnp.int64(NOT_STARTED),
        )

    def _answered(self, s: Game, forward: jax.Array) -> Game:
        """The owner of the pending choice answers forward (True) or back."""
        card, seat = s.qcard[s.qi], s.qseat[s.qi]
        sign = jnp.where(forward, 1, -1)
        garden = s.stage == GARDEN_CHOICE
        s = self.move_emperor(s, sign * self.g_amount[card], garden)
        s = s._replace(stage=jnp.where(garden, GARDEN_DONE, s.stage))
        s = self.move_painter(s, seat, sign * self.p_amount[card], ~garden)
        return pick(~garden, self._finish_card(s), s)

    def _resolving(self, s: Game) -> jax.Array:
        return (s.qi < s.qlen) & (s.stage != GARDEN_CHOICE) & (s.stage != PAINTER_CHOICE)

    def advance(self, s: Game) -> Game:
        """Resolve cards until a choice is asked or the round's cards are all done."""
        done: Game = jax.lax.while_loop(self._resolving, self._resolve_one, s)
        return done

    def _resolve_one(self, s: Game) -> Game:
        head = jnp.minimum(s.qi, self.p - 1)
        card, seat = s.qcard[head], s.qseat[head]
        court = seat == self.t.court
        new = s.stage == NOT_STARTED
        kind, amount = self.g_kind[card], self.g_amount[card]
        ask = new & (kind == G_CHOICE) & ~court
        emperor = new & ((kind == G_EMPEROR) | ((kind == G_CHOICE) & court))
        s = self.move_emperor(s, amount, emperor)
        pos = s.pos
        closest = jnp.where(pos.max() == 0, -1, jnp.argmax(pos))
        s = self.move_painter(s, closest, amount, new & (kind == G_CLOSEST) & (closest >= 0))
        pos = s.pos
        furthest = jnp.where((pos == 0).sum() > 1, -1, jnp.argmin(pos))
        s = self.move_painter(s, furthest, amount, new & (kind == G_FURTHEST) & (furthest >= 0))
        s = s._replace(stage=jnp.where(ask, GARDEN_CHOICE, jnp.where(new, GARDEN_DONE, s.stage)))
        done = s.stage == GARDEN_DONE
        pk, pa = self.p_kind[card], self.p_amount[card]
        ask = done & (pk == P_CHOICE) & ~court
        s = s._replace(stage=jnp.where(ask, PAINTER_CHOICE, s.stage))
        s = self.move_painter(s, seat, pa, done & ((pk == P_MOVE) | ((pk == P_CHOICE) & court)))
        s = self._jump(s, seat, done & (pk == P_JUMP))
        s = self._count(s, seat, done & (pk == P_COUNT))
        return pick(done & ~ask, self._finish_card(s), s)

    def _discard_head(self, s: Game, do: jax.Array) -> Game:
        card = s.qcard[jnp.minimum(s.qi, self.p - 1)]
        return s._replace(
            discard=s.discard.at[s.disc_len].set(jnp.where(do, card, s.discard[s.disc_len])),
            disc_len=s.disc_len + do.astype(jnp.int64),
            discarded=s.discarded.at[card].set(s.discarded[card] | do),
            qi=s.qi + do.astype(jnp.int64),
        )

    def _finish_card(self, s: Game) -> Game:
        """The head card is resolved: discard it; after a sakura, the rest too, and score."""
        s = self._discard_head(s, jnp.bool_(True))._replace(stage=jnp.int64(NOT_STARTED))
        scoring = s.scoring
        for _ in range(1, self.p):
            s = self._discard_head(s, scoring & (s.qi < s.qlen))
        s = s._replace(scoring=jnp.bool_(False))
        return pick(scoring, self._score(s), s)

    def _score(self, s: Game) -> Game:
        t, p = self.t, self.p
        pos = s.pos
        order = jnp.argsort(-pos, stable=True)
        garden = (pos > 0).sum()
        ranked = garden + ((p - garden) == 1).astype(jnp.int64)
        last = s.scored == len(t.sakuras) - 1
        supply, tokens = s.supply, s.tokens
        for rank, (award, final) in enumerate(self.awards):
            got = jnp.where(rank < ranked, jnp.minimum(jnp.where(last, final, award), supply), 0)
            supply = supply - got
            tokens = tokens.at[order[rank]].add(got)
        s = s._replace(supply=supply, tokens=tokens, scored=s.scored + 1)
        top = pos[order[0]]
        lined = pos.at[order[1:]].set(jnp.maximum(top - jnp.arange(1, p), 0))
        s = s._replace(pos=jnp.where(~last & (garden > 0), lined, pos))
        return pick(last, self._finish(s), s)

    def _finish(self, s: Game) -> Game:
        n = self.n
        tokens, pos = s.tokens[:n], s.pos[:n]
        tied = tokens == tokens.max()
        near = jnp.where(tied, pos, -1)
        winners = tied & (near == near.max())
        returns = winners / winners.sum()
        return s._replace(terminal=jnp.bool_(True), qlen=jnp.int64(0), qi=jnp.int64(0), returns=returns)

    # -------------------------------------------------------------- the deck

    def reshuffled(self, s: Game) -> tuple[jax.Array, jax.Array, jax.Array]:
        """The discard pile shuffled into a new deck: (rng, deck, its length)."""
        rng, deck = shuffle(s.rng, s.discard, s.disc_len, self.plan)
        return rng, deck, s.disc_len

    def refill(self, s: Game, fresh: tuple[jax.Array, jax.Array, jax.Array], use: jax.Array) -> Game:
        """End the round: hands refill to five in seat order, from the deck's top and then
        (``use``: the deck ran out) from ``fresh``, the reshuffled discard pile; next round."""
        rng, new_deck, new_len = fresh
        hand = s.hand
        j = jnp.int64(0)
        for seat in range(self.n):
            need = HAND - s.hand_size[seat]
            for k in range(HAND):
                go = k < need
                old = j < s.deck_len
                card = jnp.where(
                    old,
                    s.deck[jnp.clip(s.deck_len - 1 - j, 0, self.c - 1)],
                    new_deck[jnp.clip(new_len - 1 - (j - s.deck_len), 0, self.c - 1)],
                )
                hand = hand.at[seat, card].set(hand[seat, card] | go)
                j = j + go.astype(jnp.int64)
        s2 = s._replace(
            hand=hand,
            hand_size=jnp.full(self.n, HAND, jnp.int64),
            qlen=jnp.int64(0),
            qi=jnp.int64(0),
            round=s.round + 1,
        )
        s2 = pick(
            use,
            s2._replace(
                rng=rng,
                deck=new_deck,
                deck_len=new_len - (j - s.deck_len),
                disc_len=jnp.int64(0),
                discarded=jnp.zeros(self.c, dtype=bool),
            ),
            s2._replace(deck_len=s.deck_len - j),
        )
        if self.t.tactical:
            a, b = s2.pos[0], s2.pos[1]
            s2 = s2._replace(double=jnp.where(a == b, -1, jnp.where(a < b, 0, 1)))
        return s2

    def need(self, s: Game) -> jax.Array:
        """Cards the round's end will draw."""
        return (HAND - s.hand_size).sum()


def as_game(fields: dict[str, Any]) -> Game:
    """A :class:`Game` from arrays named as its fields (for tests and conversions)."""
    return Game(**{name: jnp.asarray(fields[name]) for name in Game._fields})
