"""A game of the three-area card game in progress: the rules themselves.

Two players, three rounds. Each turn is two decisions of the same player: *place* a card at
the right end of one of their areas (never lower than the card it follows), or *discard* one
face down if no card of their hand fits anywhere; then *give* a card face down to the opponent,
if they still hold one. Turns alternate until both hands are empty (a player whose hand is
empty is passed over); then every area is scored, the areas are cleared, and the next round
is dealt from a fresh seeded shuffle.

The cards, hand size, number of rounds and scores are the game's deck (``state.game.deck``:
the published ``data/cards.txt`` unless the game was given another).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sakura.engine.errors import IllegalActionError, NotYourTurnError
from sakura.engine.games.cards import events as ev
from sakura.engine.games.cards.actions import CardsAction, Discard, Give, Place
from sakura.engine.games.cards.deck import AREAS, shuffled
from sakura.engine.protocol import Event, Outcome, Progress, StepHook
from sakura.engine.rng import SplitMix64

if TYPE_CHECKING:
    from sakura.engine.games.cards.game import CardsGame
    from sakura.engine.games.cards.view import CardsView

PLACE, GIVE = "place", "give"
_AREA_INDEX = {name: i for i, name in enumerate(AREAS)}


class CardsState:
    """See the module docstring. Build one with ``CardsGame.new_initial_state(seed)``."""

    __slots__ = (
        "_hook",
        "_log",
        "_outcome",
        "aside",
        "areas",
        "discards",
        "first",
        "game",
        "given",
        "hands",
        "phase",
        "received",
        "rng",
        "round",
        "scores",
        "terminal",
        "turn",
    )

    game: CardsGame
    rng: SplitMix64
    round: int  # 1..rounds (3)
    first: int  # who started round 1 (the start alternates)
    turn: int  # whose turn it is
    phase: str  # PLACE (or discard) then GIVE
    hands: list[list[str]]  # sorted by rank
    areas: list[list[list[str]]]  # [seat][area] left to right
    given: list[list[str]]  # cards each player gave this round, in order
    received: list[list[str]]  # cards each player received this round, in order
    discards: list[list[str]]  # cards each player discarded face down this round
    aside: list[str]  # the round's cards set aside unseen (sorted)
    scores: list[list[int]]  # [seat][round] totals of finished rounds
    terminal: bool
    _outcome: Outcome | None
    _log: list[Event] | None
    _hook: StepHook | None

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(cls, game: CardsGame, seed: int | str, *, events: bool = True) -> CardsState:
        self = cls.__new__(cls)
        self.game = game
        self.rng = SplitMix64(seed)
        self.first = self.rng.below(2)
        self.round = 0
        self.scores = [[], []]
        self.terminal = False
        self._outcome = None
        self._log = [] if events else None
        self._hook = None
        self._deal()
        if self._log is not None:
            self._log = []  # the deal before the first action is not an action's event
        return self

    def _deal(self) -> None:
        """Start the next round: clear the areas, shuffle all the cards (forty), deal a hand
        (ten) each."""
        self.round += 1
        game = self.game
        size = game.deck.hand
        deck = shuffled(game.cards, self.rng)
        self.hands = [deck[:size], deck[size : 2 * size]]
        for hand in self.hands:
            game.sort_cards(hand)
        self.aside = deck[2 * size :]
        game.sort_cards(self.aside)
        self.areas = [[[], [], []], [[], [], []]]
        self.given, self.received, self.discards = [[], []], [[], []], [[], []]
        self.turn = self.starter
        self.phase = PLACE
        if self._log is not None:
            self._log.append(ev.RoundStarted(self.round, self.turn))
            self._log.append(ev.CardsDealt(tuple(tuple(h) for h in self.hands), len(self.aside)))

    def clone(self) -> CardsState:
        """An independent copy (hidden parts and RNG included); the step hook is not copied."""
        c = CardsState.__new__(CardsState)
        c.game = self.game
        c.rng = SplitMix64(0)
        c.rng.state = self.rng.state
        c.round, c.first, c.turn, c.phase = self.round, self.first, self.turn, self.phase
        c.hands = [h[:] for h in self.hands]
        c.areas = [[a[:] for a in seat] for seat in self.areas]
        c.given = [g[:] for g in self.given]
        c.received = [r[:] for r in self.received]
        c.discards = [d[:] for d in self.discards]
        c.aside = self.aside[:]
        c.scores = [s[:] for s in self.scores]
        c.terminal = self.terminal
        c._outcome = self._outcome
        c._log = [] if self._log is not None else None
        c._hook = None
        return c

    def __repr__(self) -> str:
        return f"<CardsState {self.text()!r}>"

    # ------------------------------------------------------------------ queries

    @property
    def num_players(self) -> int:
        return 2

    @property
    def starter(self) -> int:
        """Who starts the current round: round 1's drawn player, then alternately."""
        return self.first if self.round % 2 == 1 else 1 - self.first

    def current_players(self) -> tuple[int, ...]:
        return () if self.terminal else (self.turn,)

    def progress(self) -> Progress:
        """The round, the decision pending (:data:`PLACE`, which may be a discard, or
        :data:`GIVE`; ``None`` at the end) and whose it is: what every view of it says."""
        if self.terminal:
            return Progress(self.round, None, ())
        return Progress(self.round, self.phase, (self.turn,))

    def fits(self, player: int, card: str) -> list[int]:
        """The areas (indices) where ``card`` may go: not lower than the area's last card."""
        number = self.game.number
        n = number[card]
        return [i for i, area in enumerate(self.areas[player]) if not area or number[area[-1]] <= n]

    def legal_actions(self, player: int) -> list[CardsAction]:
        if self.terminal or player != self.turn:
            return []
        names = list(dict.fromkeys(self.hands[player]))  # distinct, in rank order
        if self.phase == GIVE:
            return [Give(c) for c in names]
        places: list[CardsAction] = [Place(c, AREAS[i]) for c in names for i in self.fits(player, c)]
        return places or [Discard(c) for c in names]

    def is_terminal(self) -> bool:
        return self.terminal

    def outcome(self) -> Outcome | None:
        return self._outcome

    def totals(self) -> tuple[int, int]:
        return sum(self.scores[0]), sum(self.scores[1])

    def area_scores(self, player: int) -> tuple[int, ...]:
        score = self.game.score_area
        return tuple(score(a) for a in self.areas[player])

    def view(self, player: int | None) -> CardsView:
        return self.game.view_of(self, player)

    def text(self) -> str:
        """One line: round, whose turn and what to do, then each seat's hand and areas."""
        head = "end" if self.terminal else f"p{self.turn} {self.phase}"
        seats = []
        for p in range(2):
            areas = " ".join(f"{AREAS[i][0]}:{'.'.join(a) or '-'}" for i, a in enumerate(self.areas[p]))
            seats.append(f"{p}: [{'.'.join(self.hands[p])}] {areas} s{','.join(map(str, self.scores[p]))}")
        return f"r{self.round} {head} | {' | '.join(seats)}"

    def to_json(self) -> dict[str, Any]:
        """Every card's place, the scores and the generator (see :mod:`.serialize`, which
        loads it)."""
        return {
            "game": "sakura-cards",
            "config": self.game.config_json(),
            "round": self.round,
            "first": self.first,
            "turn": self.turn,
            "phase": self.phase,
            "hands": [list(h) for h in self.hands],
            "areas": [[list(a) for a in seat] for seat in self.areas],
            "given": [list(g) for g in self.given],
            "received": [list(r) for r in self.received],
            "discards": [list(d) for d in self.discards],
            "aside": list(self.aside),
            "scores": [list(s) for s in self.scores],
            "rng": self.rng.state,
        }

    def set_step_hook(self, hook: StepHook | None) -> None:
        """Call ``hook(state)`` after every action (each is one atomic step)."""
        self._hook = hook

    # ------------------------------------------------------------------ acting

    def apply_action(self, player: int, action: CardsAction) -> list[Event]:
        """Apply ``player``'s action; return the events it caused. Illegal actions raise
        :class:`IllegalActionError` (or :class:`NotYourTurnError`) and change nothing."""
        self._check(player, action)
        if self._log is not None:
            self._log = []
        self.apply_fast(player, action)
        return self._log if self._log is not None else []

    def apply_fast(self, player: int, action: CardsAction) -> None:
        """``apply_action`` for an action known to be legal: no checks, no events returned."""
        log = self._log
        hand = self.hands[player]
        card = action.card
        hand.remove(card)
        if isinstance(action, Give):
            other = 1 - player
            self.given[player].append(card)
            self.received[other].append(card)
            self.hands[other].append(card)
            self.game.sort_cards(self.hands[other])
            if log is not None:
                log.append(ev.CardGiven(player, other, card))
            self._next_turn()
        else:
            if isinstance(action, Place):
                self.areas[player][_AREA_INDEX[action.area]].append(card)
                if log is not None:
                    log.append(ev.CardPlaced(player, card, action.area))
            else:
                self.discards[player].append(card)
                if log is not None:
                    log.append(ev.CardDiscarded(player, card))
            if hand:
                self.phase = GIVE
            else:
                self._next_turn()
        if self._hook is not None:
            self._hook(self)

    def _check(self, player: int, action: CardsAction) -> None:
        if self.terminal:
            raise IllegalActionError("the game is over")
        if isinstance(player, bool) or not isinstance(player, int):
            raise IllegalActionError(f"a player is a seat number, not {player!r}")
        if not 0 <= player < 2:
            raise IllegalActionError(
                f"there is no player index {player} in a two-player game (indexes 0 and 1)"
            )
        if not isinstance(action, Place | Discard | Give):
            raise IllegalActionError(f"not an action of the card game: {action!r}")
        if player != self.turn:
            raise NotYourTurnError(f"it is player {self.turn + 1}'s turn, not player {player + 1}'s")
        card = action.card
        if not isinstance(card, str) or card not in self.game.rank:
            raise IllegalActionError(f"not a card: {card!r} (cards are like r1*, b3, y5)")
        if self.phase == GIVE and not isinstance(action, Give):
            raise IllegalActionError(f"player {player + 1} has placed a card and must now give one")
        if self.phase == PLACE and isinstance(action, Give):
            raise IllegalActionError(f"player {player + 1} must place (or discard) a card before giving one")
        if card not in self.hands[player]:
            raise IllegalActionError(f"player {player + 1} holds no {card}")
        if isinstance(action, Place):
            area = action.area
            if not isinstance(area, str) or area not in _AREA_INDEX:
                raise IllegalActionError(f"not an area: {area!r} (areas: {', '.join(AREAS)})")
            cards = self.areas[player][_AREA_INDEX[area]]
            number = self.game.number
            if cards and number[cards[-1]] > number[card]:
                raise IllegalActionError(
                    f"{card} cannot go in the {area}: it would follow a higher card ({cards[-1]})"
                )
        elif isinstance(action, Discard):
            for c in self.hands[player]:
                spots = self.fits(player, c)
                if spots:
                    raise IllegalActionError(
                        f"{c} can be placed (place {c} {AREAS[spots[0]]}): a card is discarded "
                        "only when none fits anywhere"
                    )

    # ------------------------------------------------------------------ turns and rounds

    def _next_turn(self) -> None:
        self.phase = PLACE
        other = 1 - self.turn
        if self.hands[other]:
            self.turn = other
        elif not self.hands[self.turn]:
            self._end_round()

    def _end_round(self) -> None:
        areas = (self.area_scores(0), self.area_scores(1))
        for p in range(2):
            self.scores[p].append(sum(areas[p]))
        if self._log is not None:
            cards = tuple(tuple(tuple(a) for a in seat) for seat in self.areas)
            detail = tuple(tuple(self.game.explain_area(a) for a in seat) for seat in self.areas)
            self._log.append(ev.RoundScored(self.round, areas, self.totals(), cards, detail))
        if self.round >= self.game.deck.rounds:
            self._finish()
        else:
            self._deal()

    def _finish(self) -> None:
        self.terminal = True
        self._outcome = outcome_of(self.totals())
        if self._log is not None:
            o = self._outcome
            self._log.append(ev.GameEnded(o.winners, o.scores, o.reason))


def outcome_of(totals: tuple[int, int]) -> Outcome:
    """The higher total wins; equal totals are a draw (both share the win)."""
    a, b = totals
    if a == b:
        return Outcome((0, 1), totals, "equal totals: a draw")
    return Outcome((0,) if a > b else (1,), totals, "higher total after three rounds")
