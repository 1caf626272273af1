"""The round solver: each round played as the simultaneous-move game it is (spec ``rm``).

MCTS over determinizations plays the card that is best *on average* over the hands it
imagines, against opponents whose own statistics are pooled over every hand they were dealt
("best on average whenever held"). A round of Sakura is a simultaneous-move game with
hidden hands; this bot solves it as one:

1. **Deals.** ``samples`` determinizations of the bot's view (the game's own sampler, from
   the view only), each a guess at every other hand.
2. **Tables.** On each deal, a payoff table over the round's joint choices: every card the bot
   may play × each other player's ``width`` most promising cards in that deal's hand (by the
   game heuristic's judgement; fewer where the table would pass ``joint`` entries). Each
   entry is the round resolved through the engine (a forward/back choice on the way answered
   by the heuristic's quick rule), then judged at the next round's start by the game's
   learned value estimate (:mod:`sakura.bots.sakura_value`), or, where none is shipped for
   the table, played out to the end by the search's rollout rule. Every player gets its own
   reward (``w * share of the win + (1 - w) * squashed token margin``, as in MCTS).
3. **Equilibrium.** Regret matching plus (:func:`sakura.bots.regret.solve`) over all the
   tables at once: the bot has one mixed strategy (it does not know which deal is true), each
   other player one per deal (it knows its hand).
4. **Decision** (``play``): ``avg`` the equilibrium's most-weighted card; ``br`` the card of
   the highest value against the others' equilibrium strategies.

A decision where the bot alone chooses (a forward/back choice mid-resolution) is left to an
inner MCTS (``fallback`` iterations). The bot reads only its view, takes its randomness from
its own seeded RNG, and with an iteration limit decides the same on every machine.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from sakura.bots.base import Limit, check_view
from sakura.bots.heuristics import Heuristic, Playout, evaluator_for, heuristic_for
from sakura.bots.mcts import MctsBot
from sakura.bots.regret import Table, solve
from sakura.engine import Action, Game, State, View, fast_path

PLAYS = ("avg", "br")
LEAVES = ("value", "rollout")


class RoundSolverBot:
    """See the module docstring. ``limit`` counts deals (determinizations); the options:
    ``iterations`` of regret matching, ``width`` cards considered for each other player,
    ``joint`` the most entries of one table, ``play`` the decision rule, ``leaf`` how an entry
    is judged (``value``, or ``rollout`` to the end), ``w``/``scale`` the reward, ``epsilon``
    random moves in rollouts, ``fallback`` MCTS iterations for a choice the bot makes alone."""

    def __init__(
        self,
        game: Game[Any],
        seed: int,
        limit: Limit,
        *,
        iterations: int = 64,
        width: int = 2,
        joint: int = 200,
        play: str = "avg",
        w: float = 0.25,
        scale: float = 4.0,
        epsilon: float = 0.1,
        fallback: int = 300,
        leaf: str = "value",
        label: str | None = None,
    ) -> None:
        if play not in PLAYS:
            raise ValueError(f"play is one of {', '.join(PLAYS)}, not {play!r}")
        if leaf not in LEAVES:
            raise ValueError(f"leaf is one of {', '.join(LEAVES)}, not {leaf!r}")
        self.game = game
        self.fast = fast_path(game)
        self.rng = random.Random(seed)
        self.limit = limit
        self.iterations = max(1, int(iterations))
        self.width = max(1, int(width))
        self.joint = max(1, int(joint))
        self.play = play
        self.w, self.scale, self.epsilon = w, scale, epsilon
        self.heuristic: Heuristic | None = heuristic_for(game, required=False)
        # ``leaf="rollout"`` plays every entry out to the end even where a value is shipped.
        self.evaluator = evaluator_for(game) if leaf == "value" else None
        self.inner = MctsBot(game, seed ^ 0x5EED, Limit(iterations=max(1, int(fallback))))
        self.label = label or f"rm:{limit}"
        self.last_deals = 0  # how many deals the last decision solved (for benchmarks)

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
        sample = self.fast.sampler(view)
        rng = self.rng
        first = sample(rng.getrandbits(63))
        if len(first.current_players()) < 2:  # nobody chooses with the bot: nothing to solve
            return self.inner.act(view)
        mine = [self.game.parse_action(t) for t in legal]
        budget = self.limit.start()
        tables: list[Table] = []
        state = first
        while True:
            tables.append(self._table(state, me, mine))
            if not budget.spend():
                break
            state = sample(rng.getrandbits(63))
        self.last_deals = len(tables)
        solution = solve(tables, self.iterations)
        pick = solution.most_weighted() if self.play == "avg" else solution.best_response()
        chosen: Action = mine[pick]
        return chosen

    # ------------------------------------------------------------------ one deal's table

    def _table(self, state: State[Any], me: int, mine: Sequence[Any]) -> Table:
        """The payoff table of ``state``'s round: the bot first, then the others in seat order."""
        others = [p for p in state.current_players() if p != me]
        choices = [self._candidates(state, p) for p in others]
        while _product([len(mine)] + [len(c) for c in choices]) > self.joint:
            widest = max(range(len(choices)), key=lambda i: len(choices[i]))
            if len(choices[widest]) == 1:
                break
            choices[widest] = choices[widest][:-1]
        seats = [me, *others]
        payoffs: list[list[float]] = []
        for joint in _joints([list(mine), *choices]):
            leaf = state.clone()
            apply = self.fast.stepper(leaf)
            for seat, action in zip(seats, joint, strict=True):
                apply(seat, action)
            rewards = self._leaf(leaf, apply)
            payoffs.append([rewards[s] for s in seats])
        return Table(tuple([len(mine)] + [len(c) for c in choices]), payoffs)

    def _candidates(self, state: State[Any], player: int) -> list[Any]:
        """``player``'s ``width`` best-judged actions in this deal (the heuristic judges only
        what the player sees: its hand and the board), best first."""
        actions = list(state.legal_actions(player))
        if len(actions) <= self.width or self.heuristic is None:
            return actions[: self.width] if self.heuristic is None else actions
        scores = self.heuristic.prior(state, player, actions)
        order = sorted(range(len(actions)), key=lambda i: (-scores[i], i))
        return [actions[i] for i in order[: self.width]]

    def _leaf(self, state: State[Any], apply: Callable[[int, Any], Any]) -> list[float]:
        """Every player's reward after the round: the value estimate at the next round's start
        where the game ships one, else the end of a rollout."""
        rng = self.rng
        heuristic = self.heuristic
        evaluator = self.evaluator
        if evaluator is not None:
            while not state.is_terminal():
                judged = evaluator.value(state)
                if judged is not None:
                    w = self.w
                    shares, margins = judged
                    return [w * a + (1.0 - w) * b for a, b in zip(shares, margins, strict=True)]
                for p in state.current_players():
                    apply(p, self._rollout_action(state, p, rng))
            return self._rewards(state)
        if self.fast.fast and isinstance(heuristic, Playout):
            heuristic.playout(state, rng, self.epsilon)
        else:
            while not state.is_terminal():
                for p in state.current_players():
                    apply(p, self._rollout_action(state, p, rng))
        return self._rewards(state)

    def _rollout_action(self, state: State[Any], player: int, rng: random.Random) -> Any:
        if self.heuristic is None or rng.random() < self.epsilon:
            actions = state.legal_actions(player)
            return actions[rng.randrange(len(actions))]
        return self.heuristic.rollout_action(state, player, rng)

    def _rewards(self, state: State[Any]) -> list[float]:
        outcome = state.outcome()
        assert outcome is not None
        shares, scores = outcome.returns(), outcome.scores
        out = []
        for p, share in enumerate(shares):
            rivals = [scores[o] for o in range(len(shares)) if o != p]
            best = max(rivals) if rivals else scores[p]
            margin = math.tanh((scores[p] - best) / self.scale)
            out.append(self.w * share + (1.0 - self.w) * (0.5 + 0.5 * margin))
        return out


def _product(sizes: Sequence[int]) -> int:
    out = 1
    for s in sizes:
        out *= s
    return out


def _joints(choices: Sequence[Sequence[Any]]) -> list[tuple[Any, ...]]:
    """Every joint choice, row-major (the last player's varies fastest), as :class:`Table` reads."""
    out: list[tuple[Any, ...]] = [()]
    for options in choices:
        out = [(*j, a) for j in out for a in options]
    return out
