"""A game of Sakura in progress: the rules themselves.

The state is mutable and flat (lists of ints) because simulations and tree search apply
millions of actions; ``clone()`` copies a handful of short lists. Callers only ever change it
through :meth:`SakuraState.apply_action`, which checks everything before it touches anything.

Decision points are those of the table:

1. *Selection*: every player secretly chooses a card (the tactical variant's player further
   from the Emperor chooses two: one for the court painter). ``current_players()`` lists all who
   have yet to choose; the cards are revealed when the last one arrives.
2. *Resolution*, lowest order number first. A card offering a choice (``E±1``, ``P±n``) stops
   resolution and asks its owner then; the court painter always goes forward.

Spaces are numbered from the gate (0). ``pos[seat]`` is each painter's space (the court painter
is the last seat in the two-player variants).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from sakura.engine.errors import DeckExhaustedError, IllegalActionError, InvalidStateError, NotYourTurnError
from sakura.engine.games.sakura import events as ev
from sakura.engine.games.sakura.actions import BACK, FORWARD, Choose, Play, SakuraAction
from sakura.engine.games.sakura.cards import (
    CLOSEST,
    COUNT,
    EMPEROR,
    EMPEROR_CHOICE,
    MOVE,
    MOVE_CHOICE,
)
from sakura.engine.games.sakura.decisions import (
    GARDEN,
    GARDEN_CHOICE,
    GARDEN_DONE,
    NOT_STARTED,
    PAINTER,
    PAINTER_CHOICE,
    SELECTION,
)
from sakura.engine.games.sakura.position import Position, position_of
from sakura.engine.protocol import Event, Outcome, Progress, StepHook
from sakura.engine.rng import SplitMix64

if TYPE_CHECKING:
    from sakura.engine.games.sakura.game import SakuraGame
    from sakura.engine.games.sakura.view import SakuraView

_CHOICES = (FORWARD, BACK)
_CHOICE_TEXTS = (str(FORWARD), str(BACK))
_T = TypeVar("_T")

# A dealer names the card each draw takes: given the cards of the deck (in no meaningful
# order), it returns one of them. See ``SakuraState.set_dealer``.
Dealer = Callable[[Sequence[int]], int]


class SakuraState:
    """See the module docstring. Build one with ``SakuraGame.new_initial_state(seed)``."""

    __slots__ = (
        "_dealer",
        "_hook",
        "_log",
        "_outcome",
        "deck",
        "discard",
        "double",
        "emperor",
        "game",
        "hands",
        "last_round",
        "picks",
        "_waiting",
        "pos",
        "qi",
        "queue",
        "rng",
        "round",
        "scored",
        "scoring",
        "stage",
        "supply",
        "terminal",
        "tokens",
    )

    game: SakuraGame
    emperor: int
    pos: list[int]
    tokens: list[int]
    supply: int
    scored: int
    hands: list[list[int]]
    deck: list[int]  # the top of the deck is the *last* element
    discard: list[int]
    rng: SplitMix64
    round: int
    picks: list[tuple[int, ...] | None]
    _waiting: tuple[int, ...]  # the players yet to choose: ``picks`` that are None (cached)
    queue: list[tuple[int, int]]  # (card, seat) in order of resolution
    qi: int  # index in queue of the card resolving or next to resolve
    # The previous round's revealed cards, (seat, card) in order of resolution as views show
    # them: public (every player saw who played which), which the discard pile does not say.
    last_round: tuple[tuple[int, int], ...]
    stage: int
    scoring: bool  # the Emperor reached an unscored sakura during the head card
    double: int | None  # tactical variant: the player who plays two cards this round, if any
    terminal: bool
    _outcome: Outcome | None
    _log: list[Event] | None
    _hook: StepHook | None
    _dealer: Dealer | None

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(
        cls, game: SakuraGame, seed: int | str, *, events: bool = True, dealer: Dealer | None = None
    ) -> SakuraState:
        rng = SplitMix64(seed)
        deck = list(game.numbers)
        hands: list[list[int]] = [[] for _ in range(game.players)]
        if dealer is None:
            rng.shuffle(deck)
            for _ in range(5):
                for hand in hands:
                    hand.append(deck.pop())
        else:  # the dealer names every card, dealt one at a time round the table
            for _ in range(5):
                for hand in hands:
                    hand.append(_dealt(deck, dealer))
        for hand in hands:
            hand.sort()
        start = game.deck.start_tokens
        state = cls._make(
            game,
            emperor=game.torii,
            pos=[0] * game.num_painters,
            tokens=[start] * game.num_painters,
            supply=game.deck.total_tokens - start * game.num_painters,
            scored=0,
            hands=hands,
            deck=deck,
            discard=[],
            rng=rng,
            events=events,
        )
        state._dealer = dealer
        return state

    @classmethod
    def _make(
        cls,
        game: SakuraGame,
        *,
        emperor: int,
        pos: list[int],
        tokens: list[int],
        supply: int,
        scored: int,
        hands: list[list[int]],
        deck: list[int],
        discard: list[int],
        rng: SplitMix64,
        events: bool,
        round: int = 1,
    ) -> SakuraState:
        self = cls.__new__(cls)
        self.game = game
        self.emperor = emperor
        self.pos = pos
        self.tokens = tokens
        self.supply = supply
        self.scored = scored
        self.hands = hands
        self.deck = deck
        self.discard = discard
        self.rng = rng
        self.round = round
        self.picks = [None] * game.players
        self._waiting = game.seats
        self.queue = []
        self.qi = 0
        self.last_round = ()
        self.stage = NOT_STARTED
        self.scoring = False
        self.terminal = scored >= len(game.sakuras)
        self._outcome = None
        self._log = [] if events else None
        self._hook = None
        self._dealer = None
        self.double = self._double_player()
        if self.terminal:
            self._finish()
        return self

    def clone(self) -> SakuraState:
        """An independent copy (hidden parts and RNG included); the step hook and the dealer
        are not copied."""
        c = SakuraState.__new__(SakuraState)
        c.game = self.game
        c.emperor = self.emperor
        c.pos = self.pos[:]
        c.tokens = self.tokens[:]
        c.supply = self.supply
        c.scored = self.scored
        c.hands = [h[:] for h in self.hands]
        c.deck = self.deck[:]
        c.discard = self.discard[:]
        c.rng = SplitMix64(0)
        c.rng.state = self.rng.state
        c.round = self.round
        c.picks = self.picks[:]
        c._waiting = self._waiting
        c.queue = self.queue[:]
        c.qi = self.qi
        c.last_round = self.last_round
        c.stage = self.stage
        c.scoring = self.scoring
        c.double = self.double
        c.terminal = self.terminal
        c._outcome = self._outcome
        c._log = [] if self._log is not None else None
        c._hook = None
        c._dealer = None
        return c

    def __repr__(self) -> str:
        return f"<SakuraState {self.text()!r}>"

    # ------------------------------------------------------------------ protocol: queries

    @property
    def num_players(self) -> int:
        return self.game.players

    @property
    def in_selection(self) -> bool:
        """True while players are choosing cards (no card is resolving)."""
        return not self.terminal and self.qi >= len(self.queue)

    # Read by search bots on the states they sample (never on the true state, which they do
    # not hold): named public reads, so that a bot depends on what the rules call things, not
    # on how this class keeps them. The lists are the state's own, for speed: read, never change.

    @property
    def painters(self) -> list[int]:
        """Each painter's space, by seat (the court painter last), as a view's ``painters``."""
        return self.pos

    def hand(self, player: int) -> list[int]:
        """``player``'s hand, sorted (hidden from the others: a search reads its sample's)."""
        return self.hands[player]

    @property
    def double_player(self) -> int | None:
        """Tactical variant: the player who plays two cards this round (one for the court
        painter), or ``None`` (another variant, or both players on the gate)."""
        return self.double

    def unresolved(self) -> list[tuple[int, int]]:
        """The round's revealed cards after the one resolving now, ``(seat, card)`` in order
        of resolution (as a view's ``revealed[resolved + 1:]``); empty during the selection."""
        return [(seat, card) for card, seat in self.queue[self.qi + 1 :]]

    def current_players(self) -> tuple[int, ...]:
        if self.terminal:
            return ()
        queue = self.queue
        if self.qi < len(queue):
            return (queue[self.qi][1],)
        return self._waiting

    def legal_actions(self, player: int) -> list[SakuraAction]:
        game = self.game
        return self._legal(player, game.plays, game.pair_plays, _CHOICES)

    def legal_texts(self, player: int) -> list[str]:
        """``[str(a) for a in self.legal_actions(player)]``, read from the game's tables of
        texts made once: views carry the texts, and the RL environments make every seat's
        view after every step, where formatting them anew was a third of a view's cost."""
        game = self.game
        return self._legal(player, game.play_texts, game.pair_texts, _CHOICE_TEXTS)

    def _legal(
        self, player: int, plays: Sequence[_T], pairs: Sequence[Sequence[_T]], choices: tuple[_T, ...]
    ) -> list[_T]:
        """The legal moves of ``player``, each taken from the tables given: ``plays[card]``,
        ``pairs[card][court]`` (tactical double play) or ``choices`` (forward, back)."""
        if self.terminal:
            return []
        if self.qi < len(self.queue):
            return list(choices) if self.queue[self.qi][1] == player else []
        picks = self.picks
        if not 0 <= player < len(picks) or picks[player] is not None:
            return []
        hand = self.hands[player]
        if player == self.double:
            return [pairs[a][b] for a in hand for b in hand if a != b]
        return [plays[card] for card in hand]

    def pending_choice(self) -> tuple[int, int, str] | None:
        """(seat, card, "garden" | "painter") if a resolving card waits for its owner."""
        if self.stage == GARDEN_CHOICE or self.stage == PAINTER_CHOICE:
            card, seat = self.queue[self.qi]
            return seat, card, GARDEN if self.stage == GARDEN_CHOICE else PAINTER
        return None

    def progress(self) -> Progress:
        """The round, the decision pending (:data:`~.decisions.SELECTION`, or the
        :data:`~.decisions.GARDEN` or :data:`~.decisions.PAINTER` choice of a resolving card;
        ``None`` at the end) and whose it is: what every view of this state says."""
        if self.terminal:
            return Progress(self.round, None, ())
        pending = self.pending_choice()
        if pending is not None:
            return Progress(self.round, pending[2], (pending[0],))
        return Progress(self.round, SELECTION, self._waiting)

    def choice_effects(self, forward: bool) -> list[Event]:
        """What answering the pending choice ``forward`` (or back) does at once, on a copy with
        every hidden part left out (hands, deck, secret picks): the moves and bumps alone, which
        depend on public facts only. Used by the views' preview; [] when no choice is pending."""
        pending = self.pending_choice()
        if pending is None:
            return []
        seat, card, part = pending
        c = self.clone()
        c.hands = [[] for _ in self.hands]
        c.deck = []
        c.picks = [None] * len(self.picks)
        c._log = []
        if part == GARDEN:
            amount = self.game.g_amount[card]
            c._move_emperor(card, amount if forward else -amount)
        else:
            amount = self.game.p_amount[card]
            c._move_painter(seat, amount if forward else -amount, "painter", card)
        return c._log

    def is_terminal(self) -> bool:
        return self.terminal

    def outcome(self) -> Outcome | None:
        return self._outcome

    def view(self, player: int | None) -> SakuraView:
        return self.game.view_of(self, player)

    def position(self) -> Position:
        return position_of(self)

    def text(self) -> str:
        return self.position().text()

    def to_json(self) -> dict[str, Any]:
        """``{"game": "sakura", "config", "position", "rng"}``, mid-round ``"resolved"``, and
        after the first round ``"last_round"`` (see :mod:`.serialize`, which loads it)."""
        out: dict[str, Any] = {
            "game": "sakura",
            "config": self.game.config_json(),
            "position": self.position().to_json(),
            "rng": self.rng.state,
        }
        if 0 < self.qi < len(self.queue):  # the round's cards already resolved, for views
            out["resolved"] = [[card, seat] for card, seat in self.queue[: self.qi]]
        if self.last_round:  # who played which card last round, for views
            out["last_round"] = [[seat, card] for seat, card in self.last_round]
        return out

    def set_step_hook(self, hook: StepHook | None) -> None:
        """Call ``hook(state)`` after every resolved card and every answered choice."""
        self._hook = hook

    def set_dealer(self, dealer: Dealer | None) -> None:
        """Let ``dealer`` name the card of every later draw (``None``: the top of the deck).

        Without a dealer the deck is shuffled by the game's seeded generator and every draw
        takes its top card, which is what makes a seed replay a game. A dealer makes each draw
        an explicit choice instead: it is called with the cards of the deck (the court
        painter's card, each card refilling a hand; after the discard pile became the deck,
        that pile, which is then not shuffled) and returns the one drawn. Whoever models
        chance outside the engine (OpenSpiel, card by card) deals this way; a state dealt by
        ``new_initial_state(dealer=...)`` keeps its dealer. A dealer returning a card that is
        not in the deck raises :class:`InvalidStateError` mid-step: use one only on a state
        you own."""
        self._dealer = dealer

    # ------------------------------------------------------------------ protocol: acting

    def apply_action(self, player: int, action: SakuraAction) -> list[Event]:
        """Apply ``player``'s action; return the events it caused. Illegal actions raise
        :class:`IllegalActionError` (or :class:`NotYourTurnError`) and change nothing."""
        self._check(player, action)
        if self._log is not None:
            self._log = []
        if isinstance(action, Play):
            self._pick(player, action)
        else:
            self._answer(action.forward)
        out = self._log
        return out if out is not None else []

    def apply_fast(self, player: int, action: SakuraAction) -> None:
        """``apply_action`` for an action known to be legal (from ``legal_actions``): no
        checks, no events returned. For simulations and search only."""
        if isinstance(action, Play):
            self._pick(player, action)
        else:
            self._answer(action.forward)

    def _check(self, player: int, action: SakuraAction) -> None:
        if self.terminal:
            raise IllegalActionError("the game is over")
        if isinstance(player, bool) or not isinstance(player, int):
            raise IllegalActionError(f"a player is a seat number, not {player!r}")
        if not 0 <= player < self.game.players:
            players = self.game.players
            raise IllegalActionError(
                f"there is no player index {player} in a {players}-player game (indexes 0 to {players - 1})"
            )
        if isinstance(action, Choose):
            pending = self.pending_choice()
            if pending is None:
                raise IllegalActionError("no choice is pending: the players are choosing cards")
            if pending[0] != player:
                raise NotYourTurnError(f"player {pending[0] + 1} chooses now, not player {player + 1}")
            return
        if not isinstance(action, Play):
            raise IllegalActionError(f"not a Sakura action: {action!r}")
        card, court = action.card, action.court
        if type(card) is not int or (court is not None and type(court) is not int):
            raise IllegalActionError(f"cards are order numbers, not {card!r} (court {court!r})")
        if self.qi < len(self.queue):
            raise NotYourTurnError(
                f"cards are resolving: player {self.queue[self.qi][1] + 1} must choose forward or back"
            )
        if self.picks[player] is not None:
            raise NotYourTurnError(f"player {player + 1} has already chosen this round")
        hand = self.hands[player]
        if action.card not in hand:
            raise IllegalActionError(f"card {action.card} is not in player {player + 1}'s hand")
        if player == self.double:
            if action.court is None:
                raise IllegalActionError(f"player {player + 1} plays two cards this round: 'play N court M'")
            if action.court not in hand:
                raise IllegalActionError(f"card {action.court} is not in player {player + 1}'s hand")
            if action.court == action.card:
                raise IllegalActionError("the court painter's card must be another card")
        elif action.court is not None:
            raise IllegalActionError(f"player {player + 1} does not play for the court painter this round")

    # ------------------------------------------------------------------ selection

    def _pick(self, player: int, action: Play) -> None:
        hand = self.hands[player]
        card, court = action.card, action.court
        hand.remove(card)
        picks = self.picks
        if court is None:
            picks[player] = (card,)
        else:
            hand.remove(court)
            picks[player] = (card, court)
        log = self._log
        if log is not None:
            log.append(ev.CardChosen(player, picks[player]))
        waiting = self._waiting
        i = waiting.index(player)
        self._waiting = waiting = waiting[:i] + waiting[i + 1 :]
        if waiting:
            return
        self._reveal()
        self._advance()

    def _reveal(self) -> None:
        game = self.game
        picks = self.picks
        plays = [(pick[0], seat) for seat, pick in enumerate(picks) if pick is not None]
        court_from_deck = False
        if self.double is not None:
            pick = picks[self.double]
            assert pick is not None
            plays.append((pick[1], game.court))
        elif game.court >= 0:
            plays.append((self._draw(), game.court))
            court_from_deck = True
        plays.sort()
        self.queue = plays
        self.qi = 0
        self.stage = NOT_STARTED
        self.picks = [None] * game.players
        self._waiting = game.seats
        log = self._log
        if log is not None:
            log.append(ev.CardsRevealed(tuple([(s, c) for c, s in plays]), court_from_deck))

    # ------------------------------------------------------------------ resolution

    def _answer(self, forward: bool) -> None:
        card, seat = self.queue[self.qi]
        log = self._log
        if self.stage == GARDEN_CHOICE:
            if log is not None:
                log.append(ev.ChoiceMade(seat, card, "garden", forward))
            amount = self.game.g_amount[card]
            self._move_emperor(card, amount if forward else -amount)
            self.stage = GARDEN_DONE
        else:
            if log is not None:
                log.append(ev.ChoiceMade(seat, card, "painter", forward))
            amount = self.game.p_amount[card]
            self._move_painter(seat, amount if forward else -amount, "painter", card)
            self._finish_card()
        # After the round's last card the hook waits for the end of the round (in _advance).
        if self._hook is not None and self.qi < len(self.queue):
            self._hook(self)
        self._advance()

    def _advance(self) -> None:
        """Resolve cards until one asks its owner a choice or the round ends.

        The step hook runs after every resolved card and every answered choice, except that
        after the round's last card it runs once the round is over (scored, lined up and
        refilled), so that every position it sees is one a game can be set up from."""
        game = self.game
        court = game.court
        log = self._log
        hook = self._hook
        ops = game.ops
        while self.qi < len(self.queue):
            card, seat = self.queue[self.qi]
            g_kind, g_amount, p_kind, p_amount = ops[card]
            if self.stage == NOT_STARTED:
                if log is not None:
                    log.append(ev.CardResolving(seat, card))
                if g_kind == EMPEROR:
                    self._move_emperor(card, g_amount)
                elif g_kind == EMPEROR_CHOICE and seat != court:
                    self.stage = GARDEN_CHOICE
                    if log is not None:
                        log.append(ev.ChoiceAsked(seat, card, "garden"))
                    return
                else:
                    self._garden_action(card, g_kind, g_amount)
                self.stage = GARDEN_DONE
            # GARDEN_DONE: the painter action
            if p_kind == MOVE:
                self._move_painter(seat, p_amount, "painter", card)
            elif p_kind == MOVE_CHOICE and seat != court:
                self.stage = PAINTER_CHOICE
                if log is not None:
                    log.append(ev.ChoiceAsked(seat, card, "painter"))
                return
            else:
                self._painter_action(seat, card, p_kind, p_amount)
            if self.scoring:
                self._finish_card()
            else:  # _finish_card's usual case, inline: this loop is the engine's hottest
                self.discard.append(card)
                self.qi += 1
                self.stage = NOT_STARTED
            if hook is not None and self.qi < len(self.queue):
                hook(self)
        # The round is over (or the game): the hook sees the state settled, hands refilled.
        if not self.terminal:
            self._end_round()
        if hook is not None:
            hook(self)

    def _finish_card(self) -> None:
        """The head card is resolved: discard it; after a sakura, discard the rest and score."""
        self.discard.append(self.queue[self.qi][0])
        self.qi += 1
        self.stage = NOT_STARTED
        if self.scoring:
            rest = self.queue[self.qi :]
            if rest:
                cards = [c for c, _ in rest]
                self.discard.extend(cards)
                if self._log is not None:
                    self._log.append(ev.CardsDiscarded(tuple(cards)))
            self.qi = len(self.queue)
            self.scoring = False
            self._score()

    def _garden_action(self, card: int, kind: str, amount: int) -> None:
        if kind == EMPEROR or kind == EMPEROR_CHOICE:  # the court painter's E± goes forward
            self._move_emperor(card, amount)
            return
        # CLOSEST or FURTHEST: move that painter, if there is one.
        target = self._closest() if kind == CLOSEST else self._furthest()
        if target >= 0:
            self._move_painter(target, amount, "closest" if kind == CLOSEST else "furthest", card)
        elif self._log is not None:
            self._log.append(ev.PainterStayed(None, card, "nobody"))

    def _painter_action(self, seat: int, card: int, kind: str, amount: int) -> None:
        if kind == MOVE or kind == MOVE_CHOICE:
            self._move_painter(seat, amount, "painter", card)
            return
        pos = self.pos
        me = pos[seat]
        ahead = [q for i, q in enumerate(pos) if i != seat and q > me]
        if not ahead:
            if self._log is not None:
                why = "closest" if me > 0 else "no_one_ahead"
                self._log.append(ev.PainterStayed(seat, card, why))
            return
        if kind == COUNT:
            self._move_painter(seat, len(ahead), "count", card)
            return
        # JUMP: the first empty space in front of the next painter ahead.
        emperor = self.emperor
        target = min(ahead) + 1
        while True:
            if target >= emperor:
                self._bump(seat, me, "painter", card)
                return
            if target not in ahead:
                break
            target += 1
        pos[seat] = target
        if self._log is not None:
            self._log.append(ev.PainterMoved(seat, me, target, "jump", card))

    def _closest(self) -> int:
        """The painter closest to the Emperor, or -1 if all are on the gate."""
        pos = self.pos
        best = max(pos)
        return pos.index(best) if best > 0 else -1

    def _furthest(self) -> int:
        """The painter furthest from the Emperor; -1 if two or more share the gate."""
        pos = self.pos
        low = min(pos)
        if low == 0 and pos.count(0) > 1:
            return -1
        return pos.index(low)

    def _move_painter(self, seat: int, amount: int, cause: str, card: int) -> None:
        """Move ``amount`` empty spaces (signed); reaching the Emperor is a bump."""
        pos = self.pos
        start = p = pos[seat]
        # Spaces are looked up in ``pos`` itself: the mover's own entry is ``start``, which a
        # move away from it never meets again.
        if amount > 0:
            emperor = self.emperor
            while amount:
                p += 1
                if p >= emperor:
                    self._bump(seat, start, "painter", card)
                    return
                if p not in pos:
                    amount -= 1
        else:
            while amount and p > 0:
                p -= 1
                if p == 0 or p not in pos:
                    amount += 1
        pos[seat] = p
        if self._log is not None:
            self._log.append(ev.PainterMoved(seat, start, p, cause, card))

    def _bump(self, seat: int, start: int, by: str, card: int) -> None:
        """``seat`` fell from grace at the Emperor's space: it loses a token (if it has one)
        and goes back three empty spaces counted from there."""
        pos = self.pos
        others = pos[:seat] + pos[seat + 1 :]
        at = p = self.emperor
        steps = 3
        while steps and p > 0:
            p -= 1
            if p == 0 or p not in others:
                steps -= 1
        pos[seat] = p
        lost = self.tokens[seat] > 0
        if lost:
            self.tokens[seat] -= 1
            self.supply += 1
        if self._log is not None:
            self._log.append(ev.Bumped(seat, start, at, p, lost, by, card))

    def _move_emperor(self, card: int, amount: int) -> None:
        e = start = self.emperor
        log = self._log
        if amount > 0:
            # Forward he meets no painter; he stops on the next unscored sakura if he gets there.
            e += amount
            nxt = self.game.sakuras[self.scored]
            if e >= nxt:
                e = nxt
                self.scoring = True
            self.emperor = e
            if log is not None:
                log.append(ev.EmperorMoved(card, start, e))
            return
        pos = self.pos
        bumped = False
        for _ in range(-amount):
            if e <= 1:
                break
            e -= 1
            self.emperor = e
            if e in pos:
                if log is not None:
                    log.append(ev.EmperorMoved(card, start, e))
                start, bumped = e, True
                self._bump(pos.index(e), e, "emperor", card)
        if log is not None and (e != start or not bumped):
            log.append(ev.EmperorMoved(card, start, e))

    # ------------------------------------------------------------------ scoring and rounds

    def ranking(self) -> list[int]:
        """Painters in order of closeness to the Emperor, for scoring. Painters in the garden
        rank by space; a lone painter on the gate ranks last; painters sharing the gate are
        tied and left out."""
        pos = self.pos
        garden = sorted((i for i, q in enumerate(pos) if q > 0), key=lambda i: -pos[i])
        gate = [i for i, q in enumerate(pos) if q == 0]
        return garden + gate if len(gate) == 1 else garden

    def _score(self) -> None:
        game = self.game
        sakuras = game.sakuras
        index = self.scored
        last = index == len(sakuras) - 1
        awards = game.garden.last_awards if last else game.garden.awards
        ranked = self.ranking()
        given: list[tuple[int, int, int]] = []
        for rank, seat in enumerate(ranked[: len(awards)]):
            got = min(awards[rank], self.supply)
            self.supply -= got
            self.tokens[seat] += got
            given.append((seat, rank + 1, got))
        self.scored += 1
        if self._log is not None:
            self._log.append(ev.SakuraScored(index, sakuras[index], tuple(given), self.supply))
        if last:
            self._finish()
            return
        self._line_up()

    def _line_up(self) -> None:
        """The others line up directly behind the closest painter, in their order; painters
        sharing the gate join the line in seat order. The line stops at the gate."""
        pos = self.pos
        garden = sorted((i for i, q in enumerate(pos) if q > 0), key=lambda i: -pos[i])
        if not garden:
            return
        line = garden[1:] + [i for i, q in enumerate(pos) if q == 0]
        spot = pos[garden[0]]
        for seat in line:
            spot = max(spot - 1, 0)
            if pos[seat] != spot:
                start = pos[seat]
                pos[seat] = spot
                if self._log is not None:
                    self._log.append(ev.PainterMoved(seat, start, spot, "lineup", None))

    def _end_round(self) -> None:
        self.last_round = tuple([(seat, card) for card, seat in self.queue])
        self.queue = []
        self.qi = 0
        deck = self.deck
        log = self._log
        draws: list[tuple[int, ...] | None] = []
        for hand in self.hands:
            need = 5 - len(hand)
            if need <= len(deck) and self._dealer is None:  # the usual case: the top cards at once
                got = deck[len(deck) - need :]
                del deck[len(deck) - need :]
                got.reverse()
            else:
                got = [self._draw() for _ in range(need)]
                deck = self.deck
            hand.extend(got)
            hand.sort()
            if log is not None:
                draws.append(tuple(got))
        self.round += 1
        self.double = self._double_player() if self.game.court >= 0 else None
        if log is not None:
            log.append(ev.HandsRefilled(tuple([len(d or ()) for d in draws]), tuple(draws)))
            log.append(ev.RoundStarted(self.round, self.double))

    def _draw(self) -> int:
        if not self.deck:
            if not self.discard:
                raise DeckExhaustedError("no cards left to draw: the deck is too small for this table")
            self.deck = self.discard
            self.discard = []
            dealer = self._dealer
            if dealer is None:
                self.rng.shuffle(self.deck)
            if self._log is not None:
                order = tuple(reversed(self.deck)) if dealer is None else None  # a dealer: no order
                self._log.append(ev.DeckReshuffled(len(self.deck), order))
        if self._dealer is not None:
            return _dealt(self.deck, self._dealer)
        return self.deck.pop()

    def _sync_waiting(self) -> None:
        """Recompute the cached list of players yet to choose after ``picks`` was set."""
        self._waiting = tuple(p for p, pick in enumerate(self.picks) if pick is None)

    def _double_player(self) -> int | None:
        """Tactical variant: the player further from the Emperor plays two cards; nobody if
        both players stand on the gate."""
        if self.game.variant != "tactical":
            return None
        a, b = self.pos[0], self.pos[1]
        if a == b:  # only possible on the gate
            return None
        return 0 if a < b else 1

    def _finish(self) -> None:
        self.terminal = True
        if self.queue:
            self.last_round = tuple([(seat, card) for card, seat in self.queue])
        self.queue = []
        self.qi = 0
        players = range(self.game.players)
        best = max(self.tokens[p] for p in players)
        tied = [p for p in players if self.tokens[p] == best]
        reason = "most tokens"
        if len(tied) > 1:
            closest = max(self.pos[p] for p in tied)
            tied = [p for p in tied if self.pos[p] == closest]
            reason = "most tokens, then closest to the Emperor"
            if len(tied) > 1:
                reason = "most tokens, tied on the gate: shared win"
        scores = tuple(self.tokens[p] for p in players)
        self._outcome = Outcome(tuple(tied), scores, reason)
        if self._log is not None:
            self._log.append(ev.GameEnded(tuple(tied), tuple(self.tokens), reason))


def _dealt(deck: list[int], dealer: Dealer) -> int:
    """Take the card ``dealer`` names out of ``deck``."""
    card = dealer(tuple(deck))
    if type(card) is not int or card not in deck:
        raise InvalidStateError(f"the dealer drew {card!r}, which is not in the deck")
    deck.remove(card)
    return card
