"""Reading the other hands from the cards they played: better determinizations for MCTS.

Whoever knows the other hands in Sakura knows where the Emperor will stand this round, and so
which moves bump: a search that saw the true hands (but not the deck) won 93% of its games
against three ``greedy`` (``benchmarks/ladder.py --oracle-hands``), where one that draws the
hands uniformly from the unseen cards wins about 45%. A person at the table reads hands from
play; so can a bot, from its own views of the game alone:

* each of its earlier selection views shows the board as it was when everybody chose;
* the next round's view says who played which card then (``last_round``, public: the cards
  were turned face up in front of their players), and a view in the middle of a round says it
  of this round (``revealed``).

A player who chooses like the heuristic played the card it scored best, so a card it would
have scored higher than the one it played was probably not in its hand then. Each card a seat
may hold now gets a weight, the product over the rounds read of

    (1 - q) + q * (SLIP + (1 - SLIP) * sigmoid((v_played - v_card) / T))

where ``v`` is the heuristic's score on that round's board, ``T`` the temperature (in the
heuristic's tokens) and ``q = HELD ** draws`` the chance that a card held now was already held
then (one card of five is new after each round's draw). ``SLIP`` is the chance of a choice
against the model (people and other bots do not always choose as the heuristic would); a card
the viewer had seen then (its own hand, the face-up pile) tells nothing of that round. The
search deals each other hand card by card in proportion to these weights
(``SakuraGame.sample_state(..., likely=...)``), every round since the start counting, so the
constraints compound: a card kept through several rounds must have lost each time.

Not read (the search draws uniformly): tables with a court painter; in the tactical variant, a
round where the seat played two cards.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sakura.bots.sakura_heuristic import SakuraHeuristic, sakura_view
from sakura.engine import Game, State, View
from sakura.engine.games.sakura import SELECTION, SakuraGame, SakuraView, unseen_cards

Sampler = Callable[[int], State[Any]]
# The chance that a player chose against the model: without it one surprising choice would
# rule out the true hands.
SLIP = 0.05
# The chance that a card held now was held one draw earlier (four of the five cards stay).
HELD = 0.8
# Rounds further back than this weigh less than HELD ** READ_BACK (a tenth) and are not read.
READ_BACK = 10


class SakuraHandReader:
    """See the module docstring."""

    def __init__(self, game: SakuraGame) -> None:
        self.game = game
        self.heuristic = SakuraHeuristic(game)

    @classmethod
    def for_game(cls, game: Game[Any]) -> SakuraHandReader | None:
        return cls(game) if isinstance(game, SakuraGame) and game.court < 0 else None

    def remembers(self, view: View) -> bool:
        """Whether the search keeps ``view`` in the history it reads: the viewer is about to
        choose a card (the round's selection, its own choice not yet made)."""
        progress = view.progress
        return progress.decision == SELECTION and view.player in progress.players

    def plays(self, history: Sequence[View], view: View) -> list[tuple[SakuraView, dict[int, int]]]:
        """(the selection view of a round, the card each other seat played in it) for each
        round of ``history`` (the player's selection views, oldest first) whose cards ``view``
        or a later view of ``history`` says; seats that played two cards are left out."""
        me = view.player
        told: dict[int, tuple[tuple[int, int], ...]] = {}
        for later in (*history, view):
            v = sakura_view(later)
            if v.player != me:
                continue
            if v.last_round:
                told[v.round - 1] = v.last_round
            if v.revealed and len(v.revealed) >= v.players:
                told[v.round] = v.revealed
        out = []
        for earlier in history:
            e = sakura_view(earlier)
            if e.player != me or e.pending is not None or e.round not in told:
                continue
            cards: dict[int, list[int]] = {}
            for seat, card in told[e.round]:
                cards.setdefault(seat, []).append(card)
            played = {s: c[0] for s, c in cards.items() if s != me and s < e.players and len(c) == 1}
            if played:
                out.append((e, played))
        return out

    def likely(
        self, history: Sequence[View], view: View, temperature: float
    ) -> dict[int, dict[int, float]] | None:
        """seat -> card -> weight for each other seat's cards now (see the module docstring),
        or ``None`` where nothing is read."""
        now = sakura_view(view)
        if now.player is None or now.terminal or now.scored >= len(self.heuristic.sakuras):
            return None
        read = [(e, p) for e, p in self.plays(history, view) if now.round - e.round <= READ_BACK]
        if not read:
            return None
        h = self.heuristic
        keep = h.keep
        candidates = unseen_cards(self.game, now)
        out: dict[int, dict[int, float]] = {}
        for e, played in read:
            board = (e.emperor, list(e.painters), list(e.tokens), e.scored)
            if e.scored >= len(h.sakuras):
                continue
            seen = set(e.discard)
            seen.update(e.hand or ())
            q = HELD ** (now.round - e.round)
            for seat, card in played.items():
                v_played = h._select_value(board, seat, card, seat) - keep[card]
                weights = out.setdefault(seat, {})
                for c in candidates:
                    if c in seen:
                        continue
                    gap = (h._select_value(board, seat, c, seat) - keep[c] - v_played) / temperature
                    beaten = 1.0 / (1.0 + math.exp(min(60.0, gap)))  # it lost to the played card
                    f = (1.0 - q) + q * (SLIP + (1.0 - SLIP) * beaten)
                    weights[c] = weights.get(c, 1.0) * f
        return out or None

    def sampler(self, history: Sequence[View], view: View, temperature: float) -> Sampler | None:
        """Draws of states for ``view`` whose other hands follow the reading, or ``None``
        where nothing is read (the search then samples uniformly)."""
        weights: Mapping[int, Mapping[int, float]] | None = self.likely(history, view, temperature)
        if weights is None:
            return None
        game = self.game

        return game.sampler(sakura_view(view), likely=weights)
