"""One Sakura table's facts as arrays: what the batched rules look up by card and by space.

Everything here is read from a :class:`~sakura.engine.games.sakura.SakuraGame` (its deck and
garden are data), so the batched engine plays whatever deck and garden the reference plays.
Cards are indexed ``0..C-1`` in order-number order, as the RL encoders number them; since
cards resolve lowest order number first, a lower index resolves first.
"""

from __future__ import annotations

import numpy as np

from sakura.engine.games.sakura import (
    CLOSEST,
    COUNT,
    EMPEROR,
    EMPEROR_CHOICE,
    FURTHEST,
    JUMP,
    MOVE,
    MOVE_CHOICE,
    SakuraGame,
)

# Garden kinds and painter kinds as small ints (the engine's are strings).
G_EMPEROR, G_CHOICE, G_CLOSEST, G_FURTHEST = 0, 1, 2, 3
P_MOVE, P_CHOICE, P_JUMP, P_COUNT = 0, 1, 2, 3
_G_KINDS = {EMPEROR: G_EMPEROR, EMPEROR_CHOICE: G_CHOICE, CLOSEST: G_CLOSEST, FURTHEST: G_FURTHEST}
_P_KINDS = {MOVE: P_MOVE, MOVE_CHOICE: P_CHOICE, JUMP: P_JUMP, COUNT: P_COUNT}
HAND = 5


class Tables:
    """The facts of ``game`` (a Sakura table: players, variant, deck, garden) as arrays."""

    def __init__(self, game: SakuraGame) -> None:
        if game.name != "sakura":
            raise ValueError(f"the batched engine plays Sakura, not {game.name!r}")
        self.game = game
        self.players = game.players
        self.painters = game.num_painters
        self.court = game.court  # the court painter's seat, or -1
        self.tactical = game.variant == "tactical"
        self.numbers = np.array(game.numbers, dtype=np.int64)
        self.cards = len(game.numbers)
        self.spaces = len(game.garden.spaces)
        self.torii = game.torii
        self.sakuras = np.array(game.sakuras, dtype=np.int64)
        self.awards = tuple(game.garden.awards)
        self.last_awards = tuple(game.garden.last_awards)
        self.total_tokens = game.deck.total_tokens
        self.start_tokens = game.deck.start_tokens
        ops = [game.ops[n] for n in game.numbers]
        self.g_kind = np.array([_G_KINDS[g] for g, _, _, _ in ops], dtype=np.int8)
        self.g_amount = np.array([a for _, a, _, _ in ops], dtype=np.int64)
        self.p_kind = np.array([_P_KINDS[p] for _, _, p, _ in ops], dtype=np.int8)
        self.p_amount = np.array([a for _, _, _, a in ops], dtype=np.int64)
        # The largest backward step of the Emperor (E-1 in the printed deck): his moves back
        # go one space at a time, since each space may hold a painter he bumps.
        backs = [-a for k, a in zip(self.g_kind, self.g_amount, strict=True) if k == G_EMPEROR and a < 0]
        backs += [a for k, a in zip(self.g_kind, self.g_amount, strict=True) if k == G_CHOICE]
        self.max_back = max(backs, default=0)
        self.space_ids = np.arange(self.spaces)
        self.seat_ids = np.arange(self.painters)
        # Sets of spaces as the bits of a uint64 (the moves count free spaces with bit tricks):
        # ``bit[q]`` is space q, ``below[q]`` the spaces under q, ``above[q]`` those over q.
        if self.spaces > 63:
            raise ValueError(f"the batched engine plays gardens of up to 63 spaces, not {self.spaces}")
        ones = [(1 << q) for q in range(self.spaces + 1)]
        self.bit = np.array(ones, dtype=np.uint64)
        self.below = np.array([b - 1 for b in ones], dtype=np.uint64)
        self.above = np.array([(ones[-1] - 1) & ~((b << 1) - 1) for b in ones], dtype=np.uint64)
