"""A second, tiny game of the protocol, so the generic bots are tested on more than Sakura.

*Prize bids* (after Goofspiel): twelve cards 1..12 are shuffled; each player holds four, unseen
by the other, and four more are the prizes, turned up one a round. Both bid a card face down
at the same time; the higher bid takes the prize's value (a tie takes nothing). It has what
matters to a bot: simultaneous secret choices, hidden hands, a hidden pile, and skill (bid
high for big prizes, low for small ones).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar

from sakura.engine import Event, IllegalActionError, Outcome, Progress

CARDS = tuple(range(1, 13))
HAND = 4


@dataclass(frozen=True, slots=True)
class Bid:
    value: int

    def __str__(self) -> str:
        return f"bid {self.value}"


@dataclass(frozen=True, slots=True)
class BidView:
    player: int | None
    hand: tuple[int, ...]
    scores: tuple[int, ...]
    played: tuple[tuple[int, int, int], ...]  # (prize, bid of 0, bid of 1)
    prize: int | None
    prizes_left: int
    chosen: tuple[bool, ...]
    my_choice: int | None
    current_players: tuple[int, ...]
    legal_actions: tuple[str, ...]
    terminal: bool

    @property
    def progress(self) -> Progress:
        """A round a prize: the bid (both at once) until the prizes are gone."""
        rounds = len(self.played) + (0 if self.terminal else 1)
        return Progress(max(1, rounds), None if self.terminal else "bid", self.current_players)

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "hand": list(self.hand)}


class BidState:
    def __init__(self, hands: list[list[int]], prizes: list[int]) -> None:
        self.hands = hands
        self.prizes = prizes  # the current prize is the last
        self.picks: list[int | None] = [None, None]
        self.scores = [0, 0]
        self.played: list[tuple[int, int, int]] = []

    @property
    def num_players(self) -> int:
        return 2

    def current_players(self) -> tuple[int, ...]:
        if self.is_terminal():
            return ()
        return tuple(p for p in (0, 1) if self.picks[p] is None)

    def legal_actions(self, player: int) -> list[Bid]:
        if player not in self.current_players():
            return []
        return [Bid(v) for v in sorted(self.hands[player])]

    def apply_action(self, player: int, action: Bid) -> list[Event]:
        if action not in self.legal_actions(player):
            raise IllegalActionError(f"{action} is not legal for player {player}")
        self.hands[player].remove(action.value)
        self.picks[player] = action.value
        if None not in self.picks:
            a, b = self.picks
            assert a is not None and b is not None
            prize = self.prizes.pop()
            self.played.append((prize, a, b))
            if a != b:
                self.scores[0 if a > b else 1] += prize
            self.picks = [None, None]
        return []

    def is_terminal(self) -> bool:
        return not self.prizes

    def progress(self) -> Progress:
        return self.view(None).progress

    def outcome(self) -> Outcome | None:
        if not self.is_terminal():
            return None
        best = max(self.scores)
        return Outcome(tuple(p for p in (0, 1) if self.scores[p] == best), tuple(self.scores))

    def view(self, player: int | None) -> BidView:
        return BidView(
            player=player,
            hand=tuple(sorted(self.hands[player])) if player is not None else (),
            scores=tuple(self.scores),
            played=tuple(self.played),
            prize=self.prizes[-1] if self.prizes else None,
            prizes_left=len(self.prizes),
            chosen=tuple(p is not None for p in self.picks),
            my_choice=self.picks[player] if player is not None else None,
            current_players=self.current_players(),
            legal_actions=tuple(str(a) for a in self.legal_actions(player)) if player is not None else (),
            terminal=self.is_terminal(),
        )

    def clone(self) -> BidState:
        c = BidState([h[:] for h in self.hands], self.prizes[:])
        c.picks, c.scores, c.played = self.picks[:], self.scores[:], self.played[:]
        return c


class PrizeBidsGame:
    name: ClassVar[str] = "prize-bids"

    @property
    def num_players(self) -> int:
        return 2

    def new_initial_state(self, seed: int | str = 0) -> BidState:
        deck = list(CARDS)
        random.Random(seed).shuffle(deck)
        return BidState([deck[:HAND], deck[HAND : 2 * HAND]], deck[2 * HAND : 3 * HAND])

    def parse_action(self, text: str) -> Bid:
        word, _, value = text.partition(" ")
        if word != "bid" or not value.isdigit():
            raise IllegalActionError(f"not an action: {text!r}")
        return Bid(int(value))

    def sample_state(self, view: BidView, seed: int | str, *, events: bool = False) -> BidState:
        """The other hand (and secret bid) and the prizes to come, from the unseen cards."""
        me = view.player
        assert me is not None and view.prize is not None
        seen = set(view.hand) | {c for row in view.played for c in row} | {view.prize}
        if view.my_choice is not None:
            seen.add(view.my_choice)
        unseen = [c for c in CARDS if c not in seen]
        random.Random(seed).shuffle(unseen)
        other = 1 - me
        held = view.prizes_left - (1 if view.chosen[other] else 0)
        hands: list[list[int]] = [[], []]
        hands[me] = list(view.hand)
        hands[other] = [unseen.pop() for _ in range(held)]
        state = BidState(hands, [unseen.pop() for _ in range(view.prizes_left - 1)] + [view.prize])
        state.scores = list(view.scores)
        state.played = list(view.played)
        state.picks[me] = view.my_choice
        if view.chosen[other]:
            state.picks[other] = unseen.pop()
        return state

    def config_json(self) -> dict[str, Any]:
        return {}
