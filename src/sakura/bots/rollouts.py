"""Rollout best response: each legal action played out on the same sampled deals against a
model of the other players, the best mean taken (``br:N``).

MCTS picks the card whose playouts did best, each card tried on its own determinizations and
in its own proportion, so two cards a few points apart are ordered by the luck of the hidden
hands more than by what they do. Against opponents whose way of playing is known (the
heuristic, as ``greedy`` plays, or players near it), the round needs no tree: what they will
play this round follows from their hands, so the decision is a *best response* to that model,
averaged over the hands they may hold. This bot computes it directly, by **common random
numbers** as :mod:`sakura.bots.judge` does:

1. **Deal**: a determinization of the bot's view (the game's own sampler, from the view only).
2. **The others now**: every other player choosing at this moment picks by the model, from
   its hand in this deal: the heuristic's best action (``model=0``, what ``greedy`` plays) or
   a softmax over the heuristic's scores at temperature ``model``.
3. **Each action**: for every legal action of the bot, the deal is cloned, the others' choices
   and the action applied, and the game played on from the *same* random stream: the first
   ``lookahead`` decisions by the heuristic's full judgement for everyone (greedy's play, the
   bot's own later choices included: one step of policy improvement over it), the rest by the
   search's cheap rollout rule. The reward is MCTS's (win share and squashed token margin).
4. **Decision**: the action of the highest mean over the deals. The hand luck of a deal is
   the same for every action, so the differences between actions are measured paired.

**Players of the playouts.** By default everyone after the bot's action plays by the
heuristic (then the cheap rule). A caller may give the playouts two models of play instead
(:data:`Player`, a function of a sampled state, a seat and the playout's generator): ``me``,
how the bot itself plays on (for example a trained policy reading its own view of the sampled
state: ``policy:N`` of :mod:`sakura.rl.policy`), and ``others``, how everyone else plays, now
and later (by default their best card by the heuristic, what ``greedy`` plays). With ``me``
given, each playout goes to the game's end by the two models: one step of policy improvement
over ``me`` against that model of the table.

``N`` counts playouts (one action on one deal), as MCTS counts iterations, so ``br:1500`` and
``mcts:1500`` spend alike; a deal is always finished for every action. With ``halve=1`` the
actions are narrowed by successive halving (after each quarter of the budget the worse half
by mean is dropped, never below two), which spends the later deals on the close cards.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from sakura.bots.base import Limit, check_view, weighted_index
from sakura.bots.heuristics import Heuristic, Playout, best_action, heuristic_for, look_ahead
from sakura.engine import Action, Game, State, View, fast_path

# A model of how a player plays in a playout: (sampled state, seat, the playout's generator)
# -> an action of ``state.legal_actions(seat)`` (the only one where there is one), decided
# from that seat's own view only.
Player = Callable[[State[Any], int, random.Random], Any]


class RolloutBot:
    """See the module docstring. ``limit`` counts playouts (or seconds); ``lookahead`` the
    decisions played by the heuristic's judgement after the bot's action, ``model`` how the
    others choose now (0: their best by the heuristic; above: a softmax at that temperature),
    ``w``/``scale`` the reward's mix (as :class:`~sakura.bots.mcts.MctsBot`), ``epsilon`` the
    random moves of the cheap rule, ``halve`` successive halving on or off."""

    def __init__(
        self,
        game: Game[Any],
        seed: int,
        limit: Limit,
        *,
        lookahead: int = 12,
        model: float = 0.0,
        w: float = 0.25,
        scale: float = 4.0,
        epsilon: float = 0.1,
        halve: bool = False,
        label: str | None = None,
        me: Player | None = None,
        others: Player | None = None,
    ) -> None:
        self.game = game
        self.fast = fast_path(game)
        self.rng = random.Random(seed)
        self.limit = limit
        self.lookahead = int(lookahead)
        self.model = float(model)
        self.w, self.scale, self.epsilon = w, scale, epsilon
        self.halve = halve
        self.heuristic: Heuristic | None = heuristic_for(game, required=False)
        self.playout = (
            self.heuristic.playout if isinstance(self.heuristic, Playout) and self.fast.fast else None
        )
        self.me, self.others = me, others
        self.label = label or f"br:{limit}"
        self.last_deals = 0  # deals the last decision played out (for benchmarks)

    @property
    def spec(self) -> str:
        return self.label

    def act(self, view: View) -> Action:
        legal = check_view(view).legal_actions
        me = view.player
        assert me is not None
        if len(legal) == 1:
            only: Action = self.game.parse_action(legal[0])
            return only
        actions = [self.game.parse_action(t) for t in legal]
        alive = list(range(len(actions)))
        totals = [0.0] * len(actions)
        counts = [0] * len(actions)
        budget = self.limit.start()
        rng = self.rng
        sample = self.fast.sampler(view)
        cap = self.limit.iterations
        stages = [cap * k // 4 for k in (1, 2, 3)] if self.halve and cap is not None else []
        deals = 0
        going = True
        while going:
            base = sample(rng.getrandbits(63))
            stream = rng.getrandbits(63)
            others = self._others(base, me, stream)
            for i in alive:
                totals[i] += self._play(base, me, actions[i], others, stream)
                counts[i] += 1
                if not budget.spend():
                    going = False
            deals += 1
            if stages and budget.done >= stages[0]:
                stages.pop(0)
                alive = _better_half(alive, totals, counts)
        self.last_deals = deals
        # Only actions that finished the same deals compete (the last deal may be partial).
        full = max(counts[i] for i in alive)
        best = max((i for i in alive if counts[i] == full), key=lambda i: (totals[i], -i))
        picked: Action = actions[best]
        return picked

    def _others(self, base: State[Any], me: int, stream: int) -> list[tuple[int, Any]]:
        """What the other players choosing now play in deal ``base``, by the model."""
        rng = random.Random(stream ^ 0x5EED)
        out: list[tuple[int, Any]] = []
        for p in base.current_players():
            if p == me:
                continue
            if self.others is not None:
                out.append((p, self.others(base, p, rng)))
                continue
            choices = base.legal_actions(p)
            if len(choices) == 1 or self.heuristic is None:
                out.append((p, choices[rng.randrange(len(choices))]))
                continue
            scores = self.heuristic.prior(base, p, choices)
            out.append((p, choices[self._pick(scores, rng)]))
        return out

    def _pick(self, scores: Sequence[float], rng: random.Random) -> int:
        top = max(scores)
        if self.model <= 0.0:
            best = [i for i, v in enumerate(scores) if v >= top - 1e-9]
            return best[0] if len(best) == 1 else best[rng.randrange(len(best))]
        return weighted_index([math.exp((v - top) / self.model) for v in scores], rng)

    def _play(
        self, base: State[Any], me: int, action: Any, others: list[tuple[int, Any]], stream: int
    ) -> float:
        """``me``'s reward for ``action`` on deal ``base`` (cloned), the game played on from
        the random stream ``stream``."""
        state = base.clone()
        rng = random.Random(stream)
        apply = self.fast.stepper(state)
        for p, a in others:
            apply(p, a)
        apply(me, action)
        self._roll(state, apply, rng, me)
        return self._reward(state, me)

    def _roll(
        self, state: State[Any], apply: Callable[[int, Any], Any], rng: random.Random, seat: int
    ) -> None:
        if self.me is not None:
            self._by_models(state, apply, rng, seat)
            return
        heuristic = self.heuristic
        if heuristic is not None:
            look_ahead(state, apply, heuristic, self.lookahead, rng)
        if self.playout is not None:
            self.playout(state, rng, self.epsilon)
            return
        while not state.is_terminal():
            for p in state.current_players():
                choices = state.legal_actions(p)
                if heuristic is None or rng.random() < self.epsilon:
                    apply(p, choices[rng.randrange(len(choices))])
                else:
                    apply(p, heuristic.rollout_action(state, p, rng))

    def _by_models(
        self,
        state: State[Any],
        apply: Callable[[int, Any], Any],
        rng: random.Random,
        seat: int,
    ) -> None:
        """Play ``state`` to its end, the bot's ``seat`` by ``me`` and every other by ``others``
        (the heuristic's best where no ``others`` was given)."""
        me = self.me
        assert me is not None
        others = self.others or self._best
        while not state.is_terminal():
            for p in state.current_players():
                apply(p, (me if p == seat else others)(state, p, rng))

    def _best(self, state: State[Any], seat: int, rng: random.Random) -> Any:
        """``seat``'s best action by the heuristic (``greedy``'s play); a random legal action
        for a game without a heuristic."""
        if self.heuristic is not None:
            return best_action(self.heuristic, state, seat, rng)
        choices = state.legal_actions(seat)
        return choices[0] if len(choices) == 1 else choices[rng.randrange(len(choices))]

    def _reward(self, state: State[Any], me: int) -> float:
        outcome = state.outcome()
        assert outcome is not None
        scores = outcome.scores
        rivals = [s for p, s in enumerate(scores) if p != me]
        margin = math.tanh((scores[me] - max(rivals)) / self.scale) if rivals else 0.0
        return self.w * outcome.returns()[me] + (1.0 - self.w) * (0.5 + 0.5 * margin)


def _better_half(alive: list[int], totals: Sequence[float], counts: Sequence[int]) -> list[int]:
    """The better half of ``alive`` by mean (at least two kept), in their first order."""
    if len(alive) <= 2:
        return alive
    keep = max(2, (len(alive) + 1) // 2)
    ranked = sorted(alive, key=lambda i: (-totals[i] / max(1, counts[i]), i))[:keep]
    return sorted(ranked)
