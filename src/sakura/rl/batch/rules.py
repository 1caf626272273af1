"""N games of Sakura as arrays, and the rules that play a round of them at once.

A second implementation of ``SakuraState`` (the reference, and the source of truth), written
for throughput: the state of N games is a handful of arrays with the game as first axis, and
every rule is applied to all the games it concerns in one array operation. A round plays as
at the table (``docs/rules.md``): every player picks a card at once (:meth:`Games.play`); the
cards resolve lowest order number first, each game stopping where a card asks its owner a
direction (:meth:`Games.answer` goes on); a sakura reached is scored, the rest of the round
discarded; hands refill in seat order, reshuffling the discard pile from the game's own
generator when the deck runs out.

Deals and reshuffles draw on each game's SplitMix64 exactly as the engine does
(:mod:`.rng`), so game ``i`` started from seed ``s`` is ``new_initial_state(s)``, card for
card. ``tests/rl/test_batch_differential.py`` plays thousands of games through both.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sakura.engine.rng import seed_to_int
from sakura.rl.batch import moves
from sakura.rl.batch.rng import shuffle
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

# Resolution stages of the card at the head of a game's queue (as in ``SakuraState``).
NOT_STARTED, GARDEN_CHOICE, GARDEN_DONE, PAINTER_CHOICE = 0, 1, 2, 3
Index = np.ndarray


class Games:
    """The state of ``num`` games of one table. Fields (first axis: the game):

    ``emperor``, ``pos`` (by painter, the court painter last), ``tokens``, ``supply``,
    ``scored``, ``round``; ``hand`` (players x cards, booleans) and ``hand_size``; ``deck`` (card indices, the
    top at ``deck_len - 1``), ``discard`` (oldest first, ``disc_len`` of them) and
    ``discarded`` (the same as booleans); the round's cards ``qcard``/``qseat`` in order of
    resolution (``qlen`` of them, 0 between rounds), ``qi`` the head, ``stage`` and
    ``scoring`` as in the engine; ``double`` (tactical: who plays two cards, -1 for nobody);
    ``terminal`` and ``returns`` (each player's share of the win); ``rng`` and ``seed``.
    """

    def __init__(self, tables: Tables, num: int) -> None:
        t = self.t = tables
        n, p, c = t.players, t.painters, t.cards
        self.num = num
        i64 = np.int64
        self.emperor = np.zeros(num, dtype=i64)
        self.pos = np.zeros((num, p), dtype=i64)
        self.tokens = np.zeros((num, p), dtype=i64)
        self.supply = np.zeros(num, dtype=i64)
        self.scored = np.zeros(num, dtype=i64)
        self.round = np.zeros(num, dtype=i64)
        self.hand = np.zeros((num, n, c), dtype=bool)
        self.hand_size = np.zeros((num, n), dtype=np.int64)  # kept with ``hand``: counted often
        self.deck = np.zeros((num, c), dtype=np.int16)
        self.deck_len = np.zeros(num, dtype=i64)
        self.discard = np.zeros((num, c), dtype=np.int16)
        self.disc_len = np.zeros(num, dtype=i64)
        self.discarded = np.zeros((num, c), dtype=bool)
        self.qcard = np.zeros((num, p), dtype=i64)
        self.qseat = np.zeros((num, p), dtype=i64)
        self.qlen = np.zeros(num, dtype=i64)
        self.qi = np.zeros(num, dtype=i64)
        self.stage = np.zeros(num, dtype=i64)
        self.scoring = np.zeros(num, dtype=bool)
        self.double = np.full(num, -1, dtype=i64)
        self.terminal = np.zeros(num, dtype=bool)
        self.returns = np.zeros((num, n), dtype=np.float64)
        self.rng = np.zeros(num, dtype=np.uint64)
        self.seed = np.zeros(num, dtype=np.uint64)
        self._deal_hands = np.arange(HAND * n) % n  # the k-th card dealt goes to hand k % n

    # ------------------------------------------------------------------ a new game

    def deal(self, games: Index, seeds: Sequence[int | str] | np.ndarray) -> None:
        """Start ``games`` afresh, game ``games[k]`` from ``seeds[k]``: the deal of
        ``SakuraGame.new_initial_state(seeds[k])``."""
        t = self.t
        states = np.array([seed_to_int(int(s) if isinstance(s, np.integer) else s) for s in seeds], np.uint64)
        self.seed[games] = states
        self.rng[games] = states
        self.deck[games] = np.arange(t.cards, dtype=np.int16)
        shuffle(self.rng, self.deck, games, t.cards)
        dealt = t.cards - HAND * t.players
        self.hand[games] = False
        cards = self.deck[games][:, ::-1][:, : HAND * t.players]  # popped from the top
        self.hand[games[:, None], self._deal_hands[None, :], cards] = True
        self.hand_size[games] = HAND
        self.deck_len[games] = dealt
        self.emperor[games] = t.torii
        self.pos[games] = 0
        self.tokens[games] = t.start_tokens
        self.supply[games] = t.total_tokens - t.start_tokens * t.painters
        self.scored[games] = 0
        self.round[games] = 1
        self.disc_len[games] = 0
        self.discarded[games] = False
        self.qlen[games] = 0
        self.qi[games] = 0
        self.stage[games] = NOT_STARTED
        self.scoring[games] = False
        self.double[games] = -1  # tactical: both painters start on the gate
        self.terminal[games] = False
        self.returns[games] = 0.0

    # ------------------------------------------------------------------ the deck

    def draw(self, games: Index) -> np.ndarray:
        """The top card of each game's deck (reshuffling an empty deck first)."""
        empty = games[self.deck_len[games] == 0]
        if len(empty):
            self._reshuffle(empty)
        self.deck_len[games] -= 1
        out: np.ndarray = self.deck[games, self.deck_len[games]].astype(np.int64)
        return out

    def _reshuffle(self, games: Index) -> None:
        """The discard pile, in the order it was discarded, shuffled into a new deck."""
        lengths = self.disc_len[games]
        if (lengths == 0).any():
            raise RuntimeError("no cards left to draw: the deck is too small for this table")
        for length in np.unique(lengths):
            some = games[lengths == length]
            self.deck[some, :length] = self.discard[some, :length]
            shuffle(self.rng, self.deck, some, int(length))
            self.deck_len[some] = length
        self.disc_len[games] = 0
        self.discarded[games] = False

    def _discard(self, games: Index, cards: Index) -> None:
        self.discard[games, self.disc_len[games]] = cards
        self.disc_len[games] += 1
        self.discarded[games, cards] = True

    # ------------------------------------------------------------------ a round

    def play(self, games: Index, cards: np.ndarray, court: Index) -> None:
        """Every player of ``games`` plays ``cards[k, seat]`` (a card index in its hand), the
        double player of the tactical variant also ``court[k]`` for the court painter (-1
        elsewhere); the cards are revealed and resolve up to a choice or the round's end."""
        t = self.t
        m = len(games)
        rows = np.arange(m)[:, None]
        self.hand[games[:, None], np.arange(t.players)[None, :], cards] = False
        self.hand_size[games] -= 1
        queue = np.zeros((m, t.painters), dtype=np.int64)
        queue[:, : t.players] = cards
        if t.court >= 0:
            doubles = court >= 0
            self.hand[games[doubles], self.double[games[doubles]], court[doubles]] = False
            self.hand_size[games[doubles], self.double[games[doubles]]] -= 1
            queue[doubles, t.court] = court[doubles]
            if (~doubles).any():  # the court painter's card: the top of the deck
                queue[~doubles, t.court] = self.draw(games[~doubles])
        order = np.argsort(queue, axis=1)
        self.qcard[games] = queue[rows, order]
        self.qseat[games] = order
        self.qlen[games] = t.painters
        self.qi[games] = 0
        self.stage[games] = NOT_STARTED
        self._advance(games)

    def answer(self, games: Index, forward: np.ndarray) -> None:
        """The owners of the pending choices of ``games`` answer forward (True) or back."""
        head = self.qi[games]
        card, seat = self.qcard[games, head], self.qseat[games, head]
        sign = np.where(forward, 1, -1)
        garden = self.stage[games] == GARDEN_CHOICE
        moves.move_emperor(self, games[garden], sign[garden] * self.t.g_amount[card[garden]])
        self.stage[games[garden]] = GARDEN_DONE
        painter = ~garden
        gp = games[painter]
        moves.move_painters(self, gp, seat[painter], sign[painter] * self.t.p_amount[card[painter]])
        self._finish_card(gp)
        self._advance(games)

    def _advance(self, games: Index) -> None:
        """Resolve cards until each game asks a choice or ends its round (one card of every
        game an iteration), then end the rounds that are over."""
        t = self.t
        live = games[(self.qi[games] < self.qlen[games]) & (self.stage[games] != PAINTER_CHOICE)]
        live = live[self.stage[live] != GARDEN_CHOICE]
        while len(live):
            head = self.qi[live]
            card, seat = self.qcard[live, head], self.qseat[live, head]
            court = seat == t.court
            new = self.stage[live] == NOT_STARTED
            if new.any():
                gn, cn = live[new], card[new]
                kind = t.g_kind[cn]
                ask = (kind == G_CHOICE) & ~court[new]
                self.stage[gn[ask]] = GARDEN_CHOICE
                emperor = (kind == G_EMPEROR) | ((kind == G_CHOICE) & court[new])
                moves.move_emperor(self, gn[emperor], t.g_amount[cn[emperor]])
                for which, find in ((G_CLOSEST, moves.closest), (G_FURTHEST, moves.furthest)):
                    these = kind == which
                    if these.any():
                        gk = gn[these]
                        target = find(self, gk)
                        some = target >= 0
                        moves.move_painters(self, gk[some], target[some], t.g_amount[cn[these]][some])
                self.stage[gn[~ask]] = GARDEN_DONE
            done = self.stage[live] == GARDEN_DONE
            gd, cd, sd = live[done], card[done], seat[done]
            kind = t.p_kind[cd]
            ask = (kind == P_CHOICE) & ~court[done]
            self.stage[gd[ask]] = PAINTER_CHOICE
            move = (kind == P_MOVE) | ((kind == P_CHOICE) & court[done])
            moves.move_painters(self, gd[move], sd[move], t.p_amount[cd[move]])
            jumps, counts = kind == P_JUMP, kind == P_COUNT
            if jumps.any():
                moves.jump(self, gd[jumps], sd[jumps])
            if counts.any():
                moves.count(self, gd[counts], sd[counts])
            finished = gd[~ask]
            self._finish_card(finished)
            live = finished[self.qi[finished] < self.qlen[finished]]
        over = games[(self.qi[games] >= self.qlen[games]) & ~self.terminal[games]]
        if len(over):
            self._end_round(over)

    def _finish_card(self, games: Index) -> None:
        """The head cards are resolved: discard them; after a sakura, discard the rest of the
        round unresolved (in order) and score."""
        self._discard(games, self.qcard[games, self.qi[games]])
        self.qi[games] += 1
        self.stage[games] = NOT_STARTED
        scoring = games[self.scoring[games]]
        if len(scoring) == 0:
            return
        for _ in range(1, self.t.painters):
            rest = scoring[self.qi[scoring] < self.qlen[scoring]]
            if len(rest) == 0:
                break
            self._discard(rest, self.qcard[rest, self.qi[rest]])
            self.qi[rest] += 1
        self.scoring[scoring] = False
        self._score(scoring)

    # ------------------------------------------------------------------ scoring and rounds

    def _score(self, games: Index) -> None:
        """Awards by closeness while the supply lasts; then the line-up, or the game's end."""
        t = self.t
        pos = self.pos[games]
        order = np.argsort(-pos, axis=1, kind="stable")  # the garden by space, then the gate
        garden = np.count_nonzero(pos > 0, axis=1)
        ranked = garden + ((t.painters - garden) == 1)  # a lone painter on the gate ranks last
        last = self.scored[games] == len(t.sakuras) - 1
        for rank in range(min(len(t.awards), t.painters)):
            award = np.where(last, t.last_awards[rank], t.awards[rank])
            got = np.where(rank < ranked, np.minimum(award, self.supply[games]), 0)
            self.supply[games] -= got
            self.tokens[games, order[:, rank]] += got
        self.scored[games] += 1
        self._finish(games[last])
        lined = ~last & (garden > 0)  # the others line up behind the closest painter
        gl, ol = games[lined], order[lined]
        top = self.pos[gl, ol[:, 0]]
        for k in range(1, t.painters):
            self.pos[gl, ol[:, k]] = np.maximum(top - k, 0)

    def _finish(self, games: Index) -> None:
        """Most tokens wins; a tie goes to the closest of the tied; still tied, shared."""
        if len(games) == 0:
            return
        n = self.t.players
        self.terminal[games] = True
        self.qlen[games] = 0
        self.qi[games] = 0
        tokens, pos = self.tokens[games, :n], self.pos[games, :n]
        tied = tokens == tokens.max(axis=1, keepdims=True)
        near = np.where(tied, pos, -1)
        winners = tied & (near == near.max(axis=1, keepdims=True))
        self.returns[games] = winners / winners.sum(axis=1, keepdims=True)

    def _end_round(self, games: Index) -> None:
        """Hands refill to five in seat order (the deck reshuffled when empty); next round."""
        t = self.t
        self.qlen[games] = 0
        self.qi[games] = 0
        for seat in range(t.players):
            need = HAND - self.hand_size[games, seat]
            for k in range(int(need.max(initial=0))):
                some = games[need > k]
                self.hand[some, seat, self.draw(some)] = True
            self.hand_size[games, seat] = HAND
        self.round[games] += 1
        if t.tactical:
            a, b = self.pos[games, 0], self.pos[games, 1]
            self.double[games] = np.where(a == b, -1, np.where(a < b, 0, 1))
