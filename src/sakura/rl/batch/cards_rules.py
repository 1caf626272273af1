"""The three-area card game's rules over N games at once (numpy arrays): a second
implementation of ``sakura.engine.games.cards.state``, held to it by
``tests/rl/test_cards_batch_differential.py``.

A card is a card *name*'s index (``CardsGame.names``: lowest number first, then colour, plain
before blossom), since two cards of one name are interchangeable; hands, gifts, discards and the
cards set aside are counts by name (``(N, 2, names)``), and each area keeps its cards in the
order they were placed (the last one decides what may follow). Every round's shuffle is the
engine's, from the game's own generator (:mod:`.rng`), so ``CardsGame.new_initial_state(seed)``
replays any table.

An area's score (its best three cards, plus the blossom bonus) is worked out from which colours
each number shows, as bit sets: three cards of one colour, three colours, numbers in a row, the
same colour in a row, and a run in three colours (a choice of three distinct colours, one for
each number, Hall's condition, looked up in a table). The best of those the area can make is
its best three's score; ``test_area_scores_are_the_engines`` checks it against the engine's.
"""

from __future__ import annotations

import numpy as np

from sakura.engine.games.cards import CardsGame
from sakura.engine.games.cards.deck import default_cards
from sakura.rl.batch import rng as batch_rng

PLACE, GIVE = 0, 1
AREAS = 3


class CardTables:
    """The facts of a card game (its deck) as arrays the batched rules look up."""

    def __init__(self, game: CardsGame) -> None:
        if game.name != "sakura-cards":
            raise ValueError(f"the batched card game plays sakura-cards, not {game.name!r}")
        if game.deck != default_cards():
            raise ValueError("the batched card game plays the published deck (the encoder's)")
        deck = game.deck
        self.game = game
        self.names = game.names
        self.k = len(self.names)
        self.hand = deck.hand
        self.rounds = deck.rounds
        self.total = len(game.cards)
        self.rank = game.rank
        # Deck position -> name index: the shuffle shuffles positions, as the engine's does.
        self.card_name = np.array([game.rank[c] for c in game.cards], dtype=np.int64)
        letters = [letter for letter, _ in deck.colours]
        self.colours = len(letters)
        self.numbers = deck.numbers
        self.number = np.array([game.number[n] for n in self.names], dtype=np.int64)
        self.number_index = np.array([deck.numbers.index(game.number[n]) for n in self.names])
        self.colour = np.array([letters.index(n[0]) for n in self.names])
        self.blossom = np.array([n.endswith("*") for n in self.names])
        self.three, self.one, self.row, self.per_blossom, self.limit = deck.rules
        # The runs the numbers allow: j such that numbers j, j+1, j+2 follow each other.
        nums = deck.numbers
        self.runs = [j for j in range(len(nums) - 2) if nums[j + 1] == nums[j] + 1 == nums[j + 2] - 1]
        # Hall's condition for three colour sets (bits): a distinct colour for each.
        sets = np.arange(1 << self.colours)
        pop = np.array([bin(s).count("1") for s in range(1 << self.colours)])
        a, b, c = np.meshgrid(sets, sets, sets, indexing="ij")
        self.distinct = (
            (pop[a] >= 1) & (pop[b] >= 1) & (pop[c] >= 1)
            & (pop[a | b] >= 2) & (pop[a | c] >= 2) & (pop[b | c] >= 2) & (pop[a | b | c] >= 3)
        )  # fmt: skip
        # Name -> (colour, number) cell, as a matrix summing names' counts into cells.
        cells = np.zeros((self.k, self.colours * len(nums)), dtype=np.int64)
        cells[np.arange(self.k), self.colour * len(nums) + self.number_index] = 1
        self.to_cells = cells
        self.bits = (1 << np.arange(self.colours)).astype(np.int64)

    def area_scores(self, counts: np.ndarray) -> np.ndarray:
        """The score of each area whose cards (counts by name) are the rows of ``counts``."""
        m = len(counts)
        c = counts.astype(np.int64)
        cells = (c @ self.to_cells).reshape(m, self.colours, len(self.numbers))
        by_colour = cells.sum(axis=2)
        one = (by_colour >= 3).any(axis=1)
        three = (by_colour > 0).sum(axis=1) >= 3
        shown = ((cells > 0) * self.bits[None, :, None]).sum(axis=1)  # colours at each number
        best = np.where(one, self.one, 0)
        best = np.maximum(best, np.where(three, self.three, 0))
        for j in self.runs:
            x, y, z = shown[:, j], shown[:, j + 1], shown[:, j + 2]
            run = (x > 0) & (y > 0) & (z > 0)
            best = np.maximum(best, np.where(run, self.row, 0))
            best = np.maximum(best, np.where((x & y & z) != 0, self.one + self.row, 0))
            best = np.maximum(best, np.where(self.distinct[x, y, z], self.three + self.row, 0))
        blossoms = c[:, self.blossom].sum(axis=1)
        out: np.ndarray = np.where(blossoms > self.limit, 0, best + self.per_blossom * blossoms)
        return out


class CardGames:
    """The state of N card games (see the module docstring), stepped by :meth:`act`."""

    def __init__(self, tables: CardTables, num: int) -> None:
        t = self.t = tables
        k = t.k
        self.num = num
        self.seed = np.zeros(num, dtype=np.uint64)
        self.rng = np.zeros(num, dtype=np.uint64)
        self.first = np.zeros(num, dtype=np.int64)
        self.round = np.zeros(num, dtype=np.int64)
        self.turn = np.zeros(num, dtype=np.int64)
        self.phase = np.zeros(num, dtype=np.int64)
        self.terminal = np.zeros(num, dtype=bool)
        self.hand = np.zeros((num, 2, k), dtype=np.int64)
        self.given = np.zeros((num, 2, k), dtype=np.int64)
        self.received = np.zeros((num, 2, k), dtype=np.int64)
        self.discards = np.zeros((num, 2, k), dtype=np.int64)
        self.aside = np.zeros((num, k), dtype=np.int64)
        self.area = np.zeros((num, 2, AREAS, k), dtype=np.int64)  # counts by name
        self.seq = np.zeros((num, 2, AREAS, t.total), dtype=np.int64)  # names, as placed
        self.length = np.zeros((num, 2, AREAS), dtype=np.int64)
        self.last = np.zeros((num, 2, AREAS), dtype=np.int64)  # the last card's number (0: empty)
        self.score = np.zeros((num, 2, AREAS), dtype=np.int64)
        self.scores = np.zeros((num, 2, t.rounds), dtype=np.int64)  # finished rounds' points
        self.returns = np.zeros((num, 2), dtype=np.float64)
        self._positions = np.zeros((num, t.total), dtype=np.int64)

    @property
    def starter(self) -> np.ndarray:
        """Who starts each game's round: round 1's drawn player, then alternately."""
        return np.where(self.round % 2 == 1, self.first, 1 - self.first)

    def totals(self) -> np.ndarray:
        """Each seat's points so far (finished rounds)."""
        out: np.ndarray = self.scores.sum(axis=2)
        return out

    def deal(self, games: np.ndarray, seeds: list[int]) -> None:
        """New games on ``games`` (indices) from ``seeds``: draw who starts, deal round 1."""
        self.seed[games] = np.array(seeds, dtype=np.uint64)
        state = self.seed[games].copy()
        first, _ = batch_rng.below(state, 2)  # below(2) never rejects: its threshold is 0
        self.rng[games] = state
        self.first[games] = first.astype(np.int64)
        self.round[games] = 0
        self.scores[games] = 0
        self.terminal[games] = False
        self.returns[games] = 0.0
        self._round(games)

    def _round(self, games: np.ndarray) -> None:
        """Start the next round of ``games``: clear, shuffle the whole deck, deal two hands."""
        if len(games) == 0:
            return
        t = self.t
        self.round[games] += 1
        pos = self._positions
        pos[games] = np.arange(t.total)
        batch_rng.shuffle(self.rng, pos, games, t.total)
        names = t.card_name[pos[games]]
        n = len(games)
        rows = np.arange(n)[:, None]
        for seat in (0, 1):
            hand = np.zeros((n, t.k), dtype=np.int64)
            np.add.at(hand, (rows, names[:, seat * t.hand : (seat + 1) * t.hand]), 1)
            self.hand[games, seat] = hand
        aside = np.zeros((n, t.k), dtype=np.int64)
        np.add.at(aside, (rows, names[:, 2 * t.hand :]), 1)
        self.aside[games] = aside
        for array in (
            self.given,
            self.received,
            self.discards,
            self.area,
            self.length,
            self.last,
            self.score,
        ):
            array[games] = 0
        self.turn[games] = self.starter[games]
        self.phase[games] = PLACE

    def act(self, games: np.ndarray, ids: np.ndarray) -> None:
        """The player to move in each of ``games`` takes the encoder's action ``ids`` (legal)."""
        t = self.t
        k = t.k
        seat = self.turn[games]
        giving = ids >= 3 * k + k
        placing = ids < 3 * k
        name = np.where(placing, ids // 3, np.where(giving, ids - 4 * k, ids - 3 * k))
        self.hand[games, seat, name] -= 1
        g = games[giving]
        if len(g):
            s, nm = seat[giving], name[giving]
            self.given[g, s, nm] += 1
            self.received[g, 1 - s, nm] += 1
            self.hand[g, 1 - s, nm] += 1
        p = games[placing]
        if len(p):
            s, nm, a = seat[placing], name[placing], ids[placing] % 3
            self.area[p, s, a, nm] += 1
            self.seq[p, s, a, self.length[p, s, a]] = nm
            self.length[p, s, a] += 1
            self.last[p, s, a] = t.number[nm]
            self.score[p, s, a] = t.area_scores(self.area[p, s, a])
        d = games[~giving & ~placing]
        if len(d):
            self.discards[d, seat[~giving & ~placing], name[~giving & ~placing]] += 1
        holds = self.hand[games, seat].any(axis=1)
        give_next = ~giving & holds
        self.phase[games[give_next]] = GIVE
        self._next_turn(games[~give_next])

    def _next_turn(self, games: np.ndarray) -> None:
        if len(games) == 0:
            return
        self.phase[games] = PLACE
        turn = self.turn[games]
        other_holds = self.hand[games, 1 - turn].any(axis=1)
        self.turn[games[other_holds]] = 1 - turn[other_holds]
        rest = games[~other_holds]
        done = rest[~self.hand[rest, self.turn[rest]].any(axis=1)]
        if len(done) == 0:
            return
        self.scores[done, :, self.round[done] - 1] = self.score[done].sum(axis=2)
        last = self.round[done] >= self.t.rounds
        self._round(done[~last])
        ended = done[last]
        self.terminal[ended] = True
        totals = self.totals()[ended]
        win0, win1 = totals[:, 0] >= totals[:, 1], totals[:, 1] >= totals[:, 0]
        share = 1.0 / (win0.astype(np.float64) + win1)
        self.returns[ended] = np.stack([win0 * share, win1 * share], axis=1)

    def legal(self) -> np.ndarray:
        """``(N, 2, 5 * names)`` 0/1: every seat's legal ids now (none for the seat not to
        move, or at the end)."""
        t = self.t
        k = t.k
        n = self.num
        out = np.zeros((n, 2, 5 * k), dtype=np.int8)
        live = np.flatnonzero(~self.terminal)
        seat = self.turn[live]
        held = self.hand[live, seat] > 0  # (m, k)
        give = self.phase[live] == GIVE
        # Fits: an area is empty or its last number is not above the card's.
        last = self.last[live, seat]  # (m, 3)
        fits = held[:, :, None] & (last[:, None, :] <= t.number[None, :, None])  # (m, k, 3)
        places = fits.reshape(len(live), 3 * k) & ~give[:, None]
        none_fit = ~places.any(axis=1) & ~give
        block = np.zeros((len(live), 5 * k), dtype=bool)
        block[:, : 3 * k] = places
        block[:, 3 * k : 4 * k] = held & none_fit[:, None]
        block[:, 4 * k :] = held & give[:, None]
        out[live, seat] = block
        return out
