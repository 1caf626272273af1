"""The card game's observation slots and action ids, read from a :class:`CardsView` only.

Cards are counted by name (two copies of a plain card are the same card): a count slot holds
``copies / 2``. Seats are relative: me first, the opponent second.

Action ids: ``3*i + a`` places card name ``i`` (of ``NAMES``, lowest first) in area ``a``
(garden, palace, temple); ``84 + i`` discards it; ``112 + i`` gives it.

>>> from sakura.engine import make_game
>>> game = make_game("sakura-cards")
>>> enc = CardsEncoder(game)
>>> state = game.new_initial_state(seed=3)
>>> view = state.view(state.turn)
>>> enc.encode(view).shape, enc.num_actions
((345,), 140)
>>> enc.action_text(enc.legal_ids(view)[0])
'place r1 garden'
"""

from __future__ import annotations

from sakura.engine.games.cards import AREAS, NAMES, CardsGame, CardsView, score_area
from sakura.rl.encoding import Encoder, Layout, Writes

NUMBERS = 5
ROUNDS = 3
MAX_AREA = 23  # three of a colour in a row (15 + 5) and one blossom (3)
MAX_CARDS = 20  # cards a player can hold, or put in one area, in a round


class CardsEncoder(Encoder):
    def __init__(self, game: CardsGame) -> None:
        self.game = game
        self.names = NAMES
        self.rank = {name: i for i, name in enumerate(NAMES)}
        k = len(NAMES)
        places = [f"place {name} {area}" for name in NAMES for area in AREAS]
        discards = [f"discard {name}" for name in NAMES]
        self.action_texts = (*places, *discards, *(f"give {name}" for name in NAMES))
        self.score_scale = 25.0  # points: a good area scores 15 to 23
        self.players = self.painters = 2

        lay = self.layout = Layout()
        mine = {"private": True}
        self.o_hand = lay.add("hand", k, "copies of each card name in my hand / 2", "hand", **mine)
        self.o_given = lay.add(
            "given", k, "copies of each card I gave this round / 2 (at most 1)", "given", **mine
        )
        self.o_received = lay.add(
            "received", k, "copies of each card I received this round / 2 (at most 1)", "received", **mine
        )
        self.o_discarded = lay.add(
            "my_discards", k, "copies of each card I discarded this round / 2", "discarded", **mine
        )
        self.o_areas = lay.add(
            "areas",
            2 * 3 * k,
            "per seat (me, opponent) and area (garden, palace, temple): copies of each card name there / 2",
            "areas",
            seats=2,
        )
        self.o_last = lay.add(
            "area_last",
            2 * 3 * NUMBERS,
            "per seat and area: one-hot of the number of its last card (all 0: empty)",
            "areas",
            seats=2,
        )
        self.o_count = lay.add(
            "area_size", 2 * 3, f"per seat and area: cards there / {MAX_CARDS}", "areas", seats=2
        )
        self.o_score = lay.add(
            "area_score", 2 * 3, f"per seat and area: its score now / {MAX_AREA}", "area_scores", seats=2
        )
        self.o_sizes = lay.add(
            "hand_sizes", 2, f"cards in each hand / {MAX_CARDS} (me first)", "hand_sizes", seats=2
        )
        self.o_dcounts = lay.add(
            "discard_counts",
            2,
            f"cards each seat discarded this round / {MAX_CARDS}",
            "discard_counts",
            seats=2,
        )
        self.o_aside = lay.add("aside", 1, "cards set aside unseen this round / 20", "aside")
        self.o_round = lay.add("round", ROUNDS, "one-hot: the round", "round")
        self.o_starter = lay.add(
            "starter", 2, "one-hot: who started this round (me, opponent)", "starter", seats=2
        )
        self.o_turn = lay.add("turn", 2, "one-hot: whose turn it is (me, opponent)", "turn", seats=2)
        self.o_phase = lay.add("phase", 3, "one-hot: place (or discard), give, game over", "phase, terminal")
        self.o_rounds = lay.add(
            "round_scores",
            2 * ROUNDS,
            f"per seat: each finished round's points / {3 * MAX_AREA}",
            "round_scores",
            seats=2,
        )
        self.o_totals = lay.add(
            "totals", 2, f"per seat: points so far / {3 * 3 * MAX_AREA}", "totals", seats=2
        )
        self.history = Layout()  # the view keeps the round's whole record; earlier rounds only score
        self._finish()

    def _counts(self, offset: int, cards: tuple[str, ...] | None, idx: list[int], val: list[float]) -> None:
        rank = self.rank
        seen: dict[int, float] = {}
        for name in cards or ():
            i = offset + rank[name]
            seen[i] = seen.get(i, 0.0) + 0.5
        idx += seen
        val += [min(v, 1.0) for v in seen.values()]  # a card given back and forth counts twice at most

    def public_key(self, view: CardsView) -> tuple[object, ...]:
        return (
            view.areas,
            view.area_scores,
            view.hand_sizes,
            view.discard_counts,
            view.aside,
            view.round,
            view.starter,
            view.turn,
            view.phase,
            view.terminal,
            view.round_scores,
            view.totals,
        )

    def encode_public(self, view: CardsView) -> Writes:
        k = len(self.names)
        idx: list[int] = []
        val: list[float] = []
        ones: list[int] = []
        for seat in (0, 1):
            for a, cards in enumerate(view.areas[seat]):
                slot = 3 * seat + a
                self._counts(self.o_areas + slot * k, cards, idx, val)
                if cards:
                    ones.append(self.o_last + slot * NUMBERS + int(cards[-1][1]) - 1)
                    idx.append(self.o_count + slot)
                    val.append(min(len(cards), MAX_CARDS) / MAX_CARDS)
                idx.append(self.o_score + slot)
                val.append(view.area_scores[seat][a] / MAX_AREA)
            idx += (self.o_sizes + seat, self.o_dcounts + seat)
            val += (min(view.hand_sizes[seat], MAX_CARDS) / MAX_CARDS, view.discard_counts[seat] / MAX_CARDS)
            for i, points in enumerate(view.round_scores[seat]):
                idx.append(self.o_rounds + seat * ROUNDS + i)
                val.append(points / (3 * MAX_AREA))
            idx.append(self.o_totals + seat)
            val.append(view.totals[seat] / (3 * 3 * MAX_AREA))
        idx.append(self.o_aside)
        val.append(view.aside / 20)
        ones += (self.o_round + view.round - 1, self.o_starter + view.starter)
        if view.terminal or view.turn is None:
            ones.append(self.o_phase + 2)
        else:
            ones += (self.o_turn + view.turn, self.o_phase + (0 if view.phase == "place" else 1))
        return ones, idx, val

    def encode_private(self, view: CardsView) -> Writes:
        idx: list[int] = []
        val: list[float] = []
        self._counts(self.o_hand, view.hand, idx, val)
        self._counts(self.o_given, view.given, idx, val)
        self._counts(self.o_received, view.received, idx, val)
        self._counts(self.o_discarded, view.discarded, idx, val)
        return [], idx, val

    def scores(self, view: CardsView) -> tuple[int, ...]:
        return view.totals

    def describe(self, view: CardsView) -> str:
        doing = "game over" if view.terminal else f"p{view.turn} to {view.phase}"
        lines = [f"round {view.round}  {doing}  totals {list(view.totals)}"]
        for seat in (0, 1):
            areas = "  ".join(
                f"{AREAS[a]}:{'.'.join(cards) or '-'}={score_area(cards)}"
                for a, cards in enumerate(view.areas[seat])
            )
            lines.append(f"p{seat} ({view.hand_sizes[seat]} in hand)  {areas}")
        if view.terminal and view.outcome is not None:
            lines.append(f"winners {list(view.outcome.winners)} ({view.outcome.reason})")
        return "\n".join(lines)
