"""Sakura's observation slots and action ids, read from a :class:`SakuraView` only.

Sizes follow the table (garden length, painters, the deck's cards), so a 4-player game and a
6-player game have different but fixed shapes. Painters are ordered relative to the viewer:
itself first, then the next seats, the court painter last (``encoding.rotation``).

Action ids: ``0..C-1`` play the deck's ``C`` cards (in order-number order); in the tactical
variant ``C + a*C + b`` plays card ``a`` for yourself and card ``b`` for the court painter;
then ``forward`` and ``back``.

>>> from sakura.engine import make_game
>>> game = make_game("sakura", {"players": 4})
>>> enc = SakuraEncoder(game)
>>> view = game.new_initial_state(seed=2030).view(0)
>>> obs = enc.encode(view)
>>> obs.shape, obs.dtype, float(obs[enc.layout["emperor"].start + 4])
((627,), dtype('float32'), 1.0)
>>> [enc.action_text(i) for i in enc.legal_ids(view)] == list(view.legal_actions)
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from sakura.engine.games.sakura import SakuraGame, SakuraView, make_views
from sakura.rl.encoding import Encoder, Layout, Writes, check_player_view, rotation

if TYPE_CHECKING:
    from sakura.engine.games.sakura import SakuraState

ROUND_CAP = 50  # rounds are counted up to here (random games last at most about 25)
HAND = 5


class SakuraEncoder(Encoder):
    def __init__(self, game: SakuraGame) -> None:
        self.game = game
        numbers = game.numbers
        self.cards = c = len(numbers)
        self.card = {n: i for i, n in enumerate(numbers)}
        self.players = n = game.players
        self.painters = p = game.num_painters
        self.spaces = g = len(game.garden.spaces)
        self.tactical = game.variant == "tactical"
        self.total_tokens = game.deck.total_tokens
        self.rot = [rotation(seat, n, p) for seat in range(n)]
        texts = [f"play {k}" for k in numbers]
        if self.tactical:
            texts += [f"play {a} court {b}" for a in numbers for b in numbers]
        self.action_texts = (*texts, "forward", "back")
        self.score_scale = 10.0  # tokens: a sakura's first award is 3 or 4

        lay = self.layout = Layout()
        painter_order = "by painter: me, the next seats in turn, the court painter last"
        self.o_emperor = lay.add("emperor", g, "one-hot: the Emperor's space", "emperor")
        self.o_painters = lay.add(
            "painters", p * g, f"one-hot of each painter's space ({painter_order})", "painters", seats=p
        )
        self.o_behind = lay.add(
            "behind", p, "(Emperor's space - painter's space) / spaces", "emperor, painters", seats=p
        )
        self.o_tokens = lay.add("tokens", p, "each painter's tokens / tokens in the box", "tokens", seats=p)
        self.o_supply = lay.add("supply", 1, "tokens left in the supply / tokens in the box", "supply")
        self.o_scored = lay.add("scored", len(game.sakuras) + 1, "one-hot: sakuras scored so far", "scored")
        self.o_next = lay.add(
            "next_sakura", 1, "(next unscored sakura - Emperor's space) / spaces", "sakuras, scored, emperor"
        )
        self.o_round = lay.add("round", 1, f"min(round, {ROUND_CAP}) / {ROUND_CAP}", "round")
        self.o_deck = lay.add("deck", 1, "cards in the deck / cards", "deck_size")
        self.o_discard = lay.add("discard", c, "multi-hot: the face-up discard pile", "discard")
        self.o_hand = lay.add("hand", c, "multi-hot: my hand", "hand", private=True)
        self.o_sizes = lay.add(
            "hand_sizes", n, "cards in each player's hand / 5 (me first)", "hand_sizes", seats=n
        )
        self.o_chosen = lay.add(
            "chosen", n, "1 if that player has chosen this round (not what; me first)", "chosen", seats=n
        )
        self.o_mine = lay.add(
            "my_card", c, "one-hot: the card I chose this round, not yet revealed", "my_choice", private=True
        )
        if self.tactical:
            self.o_court = lay.add(
                "my_court_card",
                c,
                "one-hot: the card I chose for the court painter",
                "my_choice",
                private=True,
            )
            self.o_double = lay.add(
                "double", n, "one-hot: who plays two cards this round (me first)", "double", seats=n
            )
        self.o_revealed = lay.add(
            "revealed",
            p * c,
            f"one-hot of each painter's revealed card this round ({painter_order})",
            "revealed",
            seats=p,
        )
        self.o_resolved = lay.add(
            "resolved",
            p,
            "1 if that painter's revealed card is resolved or discarded",
            "revealed, resolved",
            seats=p,
        )
        self.o_phase = lay.add(
            "phase",
            3,
            "one-hot: choosing cards, resolving (a choice pending), game over",
            "pending, terminal",
        )
        self.o_part = lay.add("pending_part", 2, "the pending choice's part: garden, painter", "pending")
        self.o_pending = lay.add(
            "pending_seat",
            p,
            "whose the pending choice is (one-hot by painter, me first)",
            "pending",
            seats=p,
        )

        hist = self.history = Layout()
        self.h_played = hist.add(
            "played",
            p * c,
            f"multi-hot: every card each painter has revealed in the game so far ({painter_order})",
            "revealed (every view seen)",
            seats=p,
        )
        self._finish()

    def views(self, state: SakuraState) -> tuple[SakuraView, ...]:
        """Every seat's view, made by the engine at once (:func:`make_views`: the same views
        as ``state.view(seat)``, their public part made once), without the preview of a
        pending choice, which no slot reads."""
        return make_views(state, preview=False)

    def public_key(self, view: SakuraView) -> tuple[object, ...]:
        return (
            view.emperor,
            view.painters,
            view.tokens,
            view.supply,
            view.scored,
            view.round,
            view.deck_size,
            view.discard,
            view.hand_sizes,
            view.chosen,
            view.double,
            view.revealed,
            view.resolved,
            view.pending,
            view.terminal,
        )

    def encode_public(self, view: SakuraView) -> Writes:
        g, c = self.spaces, self.cards
        card = self.card
        emperor = view.emperor
        ones = [self.o_emperor + emperor]
        idx: list[int] = []
        val: list[float] = []
        o_painters, o_behind, o_tokens = self.o_painters, self.o_behind, self.o_tokens
        total = self.total_tokens
        for seat, pos in enumerate(view.painters):
            ones.append(o_painters + seat * g + pos)
            idx += (o_behind + seat, o_tokens + seat)
            val += ((emperor - pos) / g, view.tokens[seat] / total)
        idx.append(self.o_supply)
        val.append(view.supply / total)
        scored = view.scored
        ones.append(self.o_scored + scored)
        if scored < len(view.sakuras):
            idx.append(self.o_next)
            val.append((view.sakuras[scored] - emperor) / g)
        idx += (self.o_round, self.o_deck)
        val += (min(view.round, ROUND_CAP) / ROUND_CAP, view.deck_size / c)
        o = self.o_discard
        ones += [o + card[k] for k in view.discard]
        o_sizes, o_chosen = self.o_sizes, self.o_chosen
        for seat, size in enumerate(view.hand_sizes):
            idx.append(o_sizes + seat)
            val.append(size / HAND)
            if view.chosen[seat]:
                ones.append(o_chosen + seat)
        if self.tactical and view.double is not None:
            ones.append(self.o_double + view.double)
        o_revealed, o_resolved = self.o_revealed, self.o_resolved
        for i, (seat, k) in enumerate(view.revealed):
            ones.append(o_revealed + seat * c + card[k])
            if i < view.resolved:
                ones.append(o_resolved + seat)
        pending = view.pending
        if view.terminal:
            ones.append(self.o_phase + 2)
        elif pending is not None:
            ones += (
                self.o_phase + 1,
                self.o_part + (0 if pending[2] == "garden" else 1),
                self.o_pending + pending[0],
            )
        else:
            ones.append(self.o_phase)
        return ones, idx, val

    def encode_private(self, view: SakuraView) -> Writes:
        card = self.card
        o = self.o_hand
        ones = [o + card[k] for k in view.hand or ()]
        mine = view.my_choice
        if mine:
            ones.append(self.o_mine + card[mine[0]])
            if len(mine) > 1:
                ones.append(self.o_court + card[mine[1]])
        return ones, [], []

    def update_history(self, history: np.ndarray, view: SakuraView) -> None:
        me = check_player_view(view)
        rot, c, card = self.rot[me], self.cards, self.card
        if view.revealed:
            history[[self.h_played + rot[seat] * c + card[k] for seat, k in view.revealed]] = 1.0

    def scores(self, view: SakuraView) -> tuple[int, ...]:
        return view.tokens[: self.players]

    def describe(self, view: SakuraView) -> str:
        names = [f"p{s}" for s in range(self.players)] + (["court"] if view.court is not None else [])
        painters = "  ".join(
            f"{name}@{pos}:{tok}t" for name, pos, tok in zip(names, view.painters, view.tokens, strict=True)
        )
        nxt = view.sakuras[view.scored] if view.scored < len(view.sakuras) else "-"
        lines = [
            f"round {view.round}  Emperor at {view.emperor} (next sakura {nxt}, {view.scored} scored)  "
            f"supply {view.supply}  deck {view.deck_size}  discard {len(view.discard)}",
            f"painters (space:tokens)  {painters}",
        ]
        if view.terminal and view.outcome is not None:
            lines.append(f"game over: winners {list(view.outcome.winners)} ({view.outcome.reason})")
        elif view.pending is not None:
            seat, k, part = view.pending
            lines.append(f"resolving: {names[seat]} chooses the {part} direction of card {k}")
        else:
            waiting = ", ".join(names[s] for s in view.current_players)
            lines.append(f"choosing cards: {waiting}")
        return "\n".join(lines)
