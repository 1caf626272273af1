"""Sakura's one-ply judgement: where will my painter stand, and what is that worth?

For each card in hand the heuristic plays the card on the public board (its garden action,
then its painter action) against the *expected* Emperor: the other cards of the round are
unknown, so the Emperor moves on average ``mu`` per card (from the deck's own data), and a card
with order number ``c`` expects ``others * below(c)`` of them to resolve first. Moving onto the
Emperor is a bump with the probability that he has not got far enough; the board that results
is scored from the player's side:

* tokens, plus the award of its rank among the painters weighted by how soon the coming
  sakura is reached (``weight = 1 / (1 + rounds to go)``), plus a little for progress;
* minus the same for the opponents (half on the strongest one), so that ``C-2`` on the
  leader, or ``E-1`` onto a painter right behind the Emperor, score when they pay;
* minus a keep value for flexible cards (JUMP, COUNT, the ± cards), so they are saved for
  when they pay.

A pending forward/back choice is judged the same way, but exactly: the Emperor's place is
known and so are the round's remaining cards.

This is a heuristic's model, not the rules: the engine stays the only judge of what happens.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sakura.bots.base import BotError
from sakura.engine import Action, Game, State, View
from sakura.engine.games.sakura import (
    BACK,
    FORWARD,
    GARDEN,
    Choose,
    Play,
    SakuraAction,
    SakuraGame,
    SakuraState,
    SakuraView,
)

# Card kinds, as the engine's data tables spell them.
_E, _E_CHOICE, _CLOSEST, _FURTHEST = "E", "E?", "C", "F"
_P, _P_CHOICE, _JUMP, _COUNT = "P", "P?", "JUMP", "COUNT"

_FORWARD, _BACK = FORWARD, BACK

PROGRESS = 0.15  # tokens a space of progress is worth
NEAR_RISK = 0.25  # standing right behind the Emperor: the next E-1 bumps
KEEP = {_JUMP: 0.3, _COUNT: 0.3, _P_CHOICE: 0.1, _E_CHOICE: 0.1}  # value of keeping a card


_Board = tuple[int, list[int], list[int], int]  # Emperor, painters, tokens, sakuras scored


@dataclass(frozen=True, slots=True)
class _Ask:
    """One question to the model: ``seat`` plays ``card``, judged from ``viewer``'s side; the
    Emperor is expected to move ``m_lo`` (spread ``sd``) before it, ``m_hi`` after it."""

    scored: int
    seat: int
    card: int
    viewer: int
    m_lo: float
    sd: float
    m_hi: float


def _any_beyond(pos: list[int], me: int, direction: int) -> bool:
    """Whether a painter stands further on (``direction`` 1) or further back (-1) than ``me``."""
    for q in pos:  # noqa: SIM110 (a loop the compiled build types; any() would make a generator)
        if (q - me) * direction > 0:
            return True
    return False


def _rounded(x: float) -> int:
    """``round(x)``, halves to even, in arithmetic the compiled build keeps in C doubles
    (``x - floor(x)`` is exact for a double)."""
    n = math.floor(x)
    d = x - n
    if d > 0.5 or (d == 0.5 and n % 2 == 1):
        n += 1
    return int(n)


def sakura_view(view: View) -> SakuraView:
    """``view`` as the Sakura view it is (a Sakura bot is only ever given those)."""
    if not isinstance(view, SakuraView):
        raise BotError(f"a Sakura bot reads Sakura views, not {type(view).__name__}")
    return view


def sakura_state(state: State[Any]) -> SakuraState:
    """``state`` (a search's sample) as the Sakura state it is."""
    if not isinstance(state, SakuraState):
        raise BotError(f"a Sakura bot searches Sakura states, not {type(state).__name__}")
    return state


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x * 0.7071067811865476))


class SakuraHeuristic:
    """See the module docstring. One per game config (it reads the deck and the garden)."""

    def __init__(self, game: SakuraGame) -> None:
        self.game = game
        self.gk, self.ga, self.pk, self.pa = game.g_kind, game.g_amount, game.p_kind, game.p_amount
        numbers = sorted(game.deck.numbers)
        self.below = [0.0] * (numbers[-1] + 1)
        for i, c in enumerate(numbers):
            self.below[c] = i / len(numbers)
        moves = [self.ga[c] if self.gk[c] == _E else 0 for c in numbers]
        self.mu = sum(moves) / len(moves)
        self.var = sum((m - self.mu) ** 2 for m in moves) / len(moves) + 0.15  # E± adds spread
        self.sakuras = game.sakuras
        self.awards = game.garden.awards
        self.last_awards = game.garden.last_awards
        self.painters = game.num_painters
        self.players = game.players
        self.court = game.court
        self.others = game.num_painters - 1  # cards played by the others each round
        self.speed = max(0.5, self.painters * self.mu)  # Emperor's spaces a round
        # The Emperor's expected advance before a card's painter action, its own move included.
        self.pre = [
            self.others * self.below[c] * self.mu + (self.ga[c] if self.gk[c] in (_E, _E_CHOICE) else 0)
            for c in range(len(self.gk))
        ]
        self.keep = [
            KEEP.get(self.pk[c], 0.0) + (0.1 if self.gk[c] == _E_CHOICE else 0.0) for c in range(len(self.gk))
        ]

    @classmethod
    def for_game(cls, game: Game[Any]) -> SakuraHeuristic:
        if not isinstance(game, SakuraGame):
            raise BotError(f"the Sakura heuristic plays Sakura, not {game.name!r}")
        return cls(game)

    # ------------------------------------------------------------------ the Heuristic protocol

    def view_scores(self, view: View) -> list[float]:
        v = sakura_view(view)
        assert v.player is not None
        actions = [self.game.parse_action(t) for t in v.legal_actions]
        pending = v.pending
        rest = [(card, seat) for seat, card in v.revealed[v.resolved + 1 :]] if pending else []
        board = (v.emperor, list(v.painters), list(v.tokens), v.scored)
        return self._scores(board, v.player, actions, pending, rest)

    def prior(self, state: State[Any], player: int, actions: Sequence[Action]) -> list[float]:
        s = sakura_state(state)
        pending = s.pending_choice()
        rest = [(card, seat) for seat, card in s.unresolved()] if pending else []
        board = (s.emperor, s.painters[:], s.tokens[:], s.scored)
        return self._scores(board, player, actions, pending, rest)

    def rollout_action(self, state: State[Any], player: int, rng: random.Random) -> SakuraAction:
        """A much cheaper rule than :meth:`prior` (rollouts call it hundreds of thousands of
        times): the card that moves the painter furthest without reaching the expected
        Emperor; answer a choice forward unless that bumps."""
        s = sakura_state(state)
        pos = s.painters
        e = s.emperor
        pending = s.pending_choice()
        if pending is not None:
            card = pending[1]
            if pending[2] == GARDEN:  # the Emperor's direction: back if that bumps a rival only
                spot = e - 1
                rival = spot in pos and pos.index(spot) != player
                return _BACK if rival else _FORWARD
            target = self._quick_target(pos, player, self.pk[card], self.pa[card], pos[player])
            return _FORWARD if target < e else _BACK
        hand = s.hand(player)
        if player == s.double_player:
            return self._rollout_double(pos, e, player, hand)
        best_card: int = hand[0]
        best = -1e9
        for c in hand:
            score = self._quick(pos, e, player, c)
            if score > best:
                best_card, best = c, score
        return self.game.plays[best_card]

    def playout(self, state: State[Any], rng: random.Random, epsilon: float) -> None:
        """Play a sampled fast state (``sample_state`` without events) to its end: each action
        by :meth:`rollout_action`, or uniformly at random with probability ``epsilon``. The
        loop of the search's rollouts (:class:`~sakura.bots.heuristics.Playout`), here so that
        the compiled build runs it with no Python call a step; it draws from ``rng`` in the
        order the search's own loop does."""
        s = sakura_state(state)
        while not s.is_terminal():
            for p in s.current_players():
                if rng.random() < epsilon:
                    actions = s.legal_actions(p)
                    s.apply_fast(p, actions[rng.randrange(len(actions))])
                else:
                    s.apply_fast(p, self.rollout_action(s, p, rng))

    def _rollout_double(self, pos: list[int], e: int, player: int, hand: list[int]) -> SakuraAction:
        """The court's player picks two cards: the pair best for itself and worst for the court."""
        own = {c: self._quick(pos, e, player, c) for c in hand}
        court = {c: self._quick(pos, e, self.court, c) for c in hand}
        pairs = [(a, b) for a in hand for b in hand if a != b]
        a, b = max(pairs, key=lambda ab: own[ab[0]] - court[ab[1]])
        return Play(a, b)

    def _quick(self, pos: list[int], e: int, seat: int, card: int) -> float:
        """A rough score of ``seat`` playing ``card``: spaces gained, -5 for a likely bump."""
        me = start = pos[seat]
        pre = self.pre[card]
        ex = e + pre
        kind = self.gk[card]
        keep = self.keep[card]
        bonus = -keep
        if kind == _CLOSEST:
            if me > 0 and not _any_beyond(pos, me, 1):  # the painter furthest on
                me -= 2
                bonus -= 2.0
            else:
                bonus += 0.5
        elif kind == _FURTHEST:
            if not _any_beyond(pos, me, -1):  # the painter furthest back
                me += 2
                bonus += 2.0
        elif self.ga[card] < 0 and _rounded(ex) == me:
            return -6.0
        kind, amount = self.pk[card], self.pa[card]
        if kind == _P:
            target = me + amount
        elif kind == _P_CHOICE:
            target = me + amount
            if target >= ex - 0.3:
                target = me - amount
        else:
            target = self._quick_target(pos, seat, kind, amount, me)
        if target >= ex - 0.3:
            return bonus - 5.0
        return target - start + bonus

    def _quick_target(self, pos: list[int], seat: int, kind: str, amount: int, me: int) -> int:
        if kind == _P or kind == _P_CHOICE:
            return me + amount
        ahead = []
        nearest = -1
        for i in range(len(pos)):  # plain loops: the compiled build types them
            q = pos[i]
            if i != seat and q > me:
                ahead.append(q)
                if nearest < 0 or q < nearest:
                    nearest = q
        if not ahead:
            return me
        if kind == _COUNT:
            return me + len(ahead)
        spot = nearest + 1
        while spot in ahead:
            spot += 1
        return spot

    # ------------------------------------------------------------------ scoring

    def _scores(
        self,
        board: _Board,
        me: int,
        actions: Sequence[Action],
        pending: tuple[int, int, str] | None,
        rest: Sequence[tuple[int, int]],
    ) -> list[float]:
        e, pos, tokens, scored = board
        if scored >= len(self.sakuras):
            return [0.0] * len(actions)
        if pending is not None:
            seat, card, part = pending
            ask = _Ask(scored, seat, card, me, 0.0, 0.0, self._known_moves(rest))
            out = []
            for a in actions:
                direction = 1 if not isinstance(a, Choose) or a.forward else -1
                if part == GARDEN:
                    out.append(self._play(ask, e, pos, tokens, garden_dir=direction))
                else:
                    out.append(self._play(ask, e, pos, tokens, painter_dir=direction, garden_done=True))
            return out
        own: dict[int, float] = {}
        court: dict[int, float] = {}
        base = 0.0
        out = []
        for a in actions:
            if not isinstance(a, Play):
                raise BotError(f"{a} is not a card to play: the players are choosing cards")
            c = a.card
            if c not in own:
                own[c] = self._select_value(board, me, c, me) - self.keep[c]
            value = own[c]
            if a.court is not None:
                k = a.court
                if not court:
                    base = self._board_value(
                        pos, tokens, scored, e + self.others * self.mu, viewer=me, scoring=False
                    )
                if k not in court:
                    court[k] = self._select_value(board, self.court, k, me) - base
                value += court[k]
            out.append(value)
        return out

    def _select_value(self, board: _Board, seat: int, card: int, viewer: int) -> float:
        """Value for ``viewer`` of ``seat`` choosing ``card`` now, the round's others unknown."""
        e, pos, tokens, scored = board
        share = self.below[card]
        ask = _Ask(
            scored,
            seat,
            card,
            viewer,
            self.others * share * self.mu,
            math.sqrt(self.others * share * self.var),
            self.others * (1.0 - share) * self.mu,
        )
        return self._play(ask, e, pos, tokens)

    def _known_moves(self, rest: Sequence[tuple[int, int]]) -> float:
        """How far the round's remaining (revealed) cards move the Emperor, E± counted as 0."""
        return float(sum(self.ga[c] for c, _ in rest if self.gk[c] == _E))

    def _play(
        self,
        ask: _Ask,
        e: int,
        pos: list[int],
        tokens: list[int],
        *,
        garden_dir: int = 0,
        painter_dir: int = 0,
        garden_done: bool = False,
    ) -> float:
        """Expected value for the viewer once the card resolves, the Emperor having moved
        ``m_lo`` (spread ``sd``) before it and moving ``m_hi`` after it."""
        target = self.sakuras[ask.scored]
        if not garden_done and e < target and ask.m_lo > 0 and ask.sd > 0:
            # The others' lower cards may reach the sakura first: then this card is discarded.
            p_pre = 1.0 - _phi((target - 0.5 - e - ask.m_lo) / ask.sd)
            if p_pre > 0.02:
                now = self._board_value(pos, tokens, ask.scored, target, viewer=ask.viewer, scoring=True)
                capped = _Ask(
                    ask.scored,
                    ask.seat,
                    ask.card,
                    ask.viewer,
                    min(ask.m_lo, target - 1 - e),
                    ask.sd,
                    ask.m_hi,
                )
                later = self._resolve(
                    capped,
                    e,
                    pos,
                    tokens,
                    garden_dir=garden_dir,
                    painter_dir=painter_dir,
                    garden_done=garden_done,
                )
                return p_pre * now + (1.0 - p_pre) * later
        return self._resolve(
            ask, e, pos, tokens, garden_dir=garden_dir, painter_dir=painter_dir, garden_done=garden_done
        )

    def _resolve(
        self,
        ask: _Ask,
        e: int,
        pos: list[int],
        tokens: list[int],
        *,
        garden_dir: int,
        painter_dir: int,
        garden_done: bool,
    ) -> float:
        seat, card = ask.seat, ask.card
        target = self.sakuras[ask.scored]
        scoring = e >= target
        eb = min(e + ask.m_lo, float(target))
        if not garden_done:
            kind, amount = self.gk[card], self.ga[card]
            if kind == _E_CHOICE:
                if seat == self.court:
                    kind = _E
                elif garden_dir == 0:
                    return max(
                        self._resolve(
                            ask, e, pos, tokens, garden_dir=d, painter_dir=painter_dir, garden_done=False
                        )
                        for d in (1, -1)
                    )
                else:
                    kind, amount = _E, amount * garden_dir
            if kind == _E:
                if amount > 0:
                    if eb + amount >= target - 0.5:
                        eb, scoring = float(target), True
                    else:
                        eb += amount
                elif not scoring:
                    eb = max(1.0, eb + amount)
                    spot = round(eb)
                    if spot in pos:
                        pos, tokens = self._bumped(pos, tokens, pos.index(spot), spot)
            elif kind == _CLOSEST:
                best = max(pos)
                if best > 0:
                    pos = self._moved_back(pos, pos.index(best), -amount)
            else:  # furthest forward
                low = min(pos)
                if not (low == 0 and pos.count(0) > 1):
                    pos, tokens = self._forward(pos, tokens, pos.index(low), amount, eb=eb, sd=ask.sd)[0]
        # The painter action.
        kind = self.pk[card]
        if kind == _P_CHOICE and seat != self.court and painter_dir == 0:
            return max(
                self._after_garden(ask, pos, tokens, eb, scoring=scoring, direction=d) for d in (1, -1)
            )
        return self._after_garden(ask, pos, tokens, eb, scoring=scoring, direction=painter_dir or 1)

    def _after_garden(
        self, ask: _Ask, pos: list[int], tokens: list[int], eb: float, *, scoring: bool, direction: int
    ) -> float:
        seat, scored, viewer = ask.seat, ask.scored, ask.viewer
        kind, amount = self.pk[ask.card], self.pa[ask.card]
        me = pos[seat]
        if kind == _P or kind == _P_CHOICE:
            steps = amount * direction if kind == _P_CHOICE else amount
        else:
            ahead = [q for i, q in enumerate(pos) if i != seat and q > me]
            if not ahead:
                steps = 0
            elif kind == _COUNT:
                steps = len(ahead)
            else:  # JUMP: the first empty space in front of the next painter ahead
                spot = min(ahead) + 1
                while spot in ahead:
                    spot += 1
                steps = sum(1 for q in range(me + 1, spot + 1) if q not in ahead)
        target = float(self.sakuras[scored])
        end = target if scoring else min(eb + ask.m_hi, target)
        if steps < 0:
            moved = self._moved_back(pos, seat, -steps)
            return self._board_value(moved, tokens, scored, end, viewer=viewer, scoring=scoring)
        if steps == 0:
            return self._board_value(pos, tokens, scored, end, viewer=viewer, scoring=scoring)
        safe, hit, p_bump = self._forward(pos, tokens, seat, steps, eb=eb, sd=ask.sd)
        value = 0.0
        if p_bump < 1.0:
            value += (1.0 - p_bump) * self._board_value(*safe, scored, end, viewer=viewer, scoring=scoring)
        if p_bump > 0.0:
            value += p_bump * self._board_value(*hit, scored, end, viewer=viewer, scoring=scoring)
        return value

    # ------------------------------------------------------------------ movement model

    def _forward(
        self, pos: list[int], tokens: list[int], seat: int, steps: int, *, eb: float, sd: float
    ) -> tuple[tuple[list[int], list[int]], tuple[list[int], list[int]], float]:
        """(board if no bump, board if bumped, probability of the bump) for ``steps`` empty
        spaces forward with the Emperor expected at ``eb`` (spread ``sd``)."""
        others = [q for i, q in enumerate(pos) if i != seat]
        t = pos[seat]
        while steps:
            t += 1
            if t not in others:
                steps -= 1
        p_bump = (1.0 if t >= eb - 1e-9 else 0.0) if sd < 1e-9 else _phi((t + 0.5 - eb) / sd)
        safe = pos[:]
        safe[seat] = t
        spot = min(round(eb), t)
        hit_pos, hit_tokens = self._bumped(pos, tokens, seat, max(spot, 1))
        return (safe, tokens), (hit_pos, hit_tokens), p_bump

    def _bumped(self, pos: list[int], tokens: list[int], seat: int, at: int) -> tuple[list[int], list[int]]:
        """``seat`` bumped at space ``at``: back three empty spaces, one token lost."""
        others = [q for i, q in enumerate(pos) if i != seat]
        p, steps = at, 3
        while steps and p > 0:
            p -= 1
            if p == 0 or p not in others:
                steps -= 1
        out = pos[:]
        out[seat] = p
        lost = tokens[:]
        if lost[seat] > 0:
            lost[seat] -= 1
        return out, lost

    def _moved_back(self, pos: list[int], seat: int, steps: int) -> list[int]:
        others = [q for i, q in enumerate(pos) if i != seat]
        p = pos[seat]
        while steps and p > 0:
            p -= 1
            if p == 0 or p not in others:
                steps -= 1
        out = pos[:]
        out[seat] = p
        return out

    # ------------------------------------------------------------------ static evaluation

    def _board_value(  # noqa: PLR0917
        self,
        pos: list[int],
        tokens: list[int],
        scored: int,
        emperor: float,
        viewer: int,
        scoring: bool,
    ) -> float:
        """Tokens and the coming sakura's award by rank, the viewer's minus its rivals'.
        (All arguments positional: the compiled build makes this a C method.)"""
        target = self.sakuras[scored]
        awards = self.last_awards if scored == len(self.sakuras) - 1 else self.awards
        distance = max(0.0, target - emperor)
        weight = 1.0 if scoring else 1.0 / (1.0 + distance / self.speed)
        gate = pos.count(0)
        values = []
        for seat in range(self.players):  # plain loops: the compiled build types them
            q = pos[seat]
            value = float(tokens[seat]) + PROGRESS * q
            if not (q == 0 and gate > 1):
                rank = 0
                for r in pos:
                    if r > q:
                        rank += 1
                if rank < len(awards):
                    value += weight * awards[rank]
            if 0 < emperor - q < 1.5:
                value -= NEAR_RISK
            values.append(value)
        mine = values[viewer] if viewer < self.players else 0.0
        top = 0.0
        total = 0.0
        rivals = 0
        for seat in range(len(values)):
            if seat != viewer:
                value = values[seat]
                if rivals == 0 or value > top:
                    top = value
                total += value
                rivals += 1
        if not rivals:
            return mine
        return mine - 0.5 * top - 0.5 * total / rivals
