"""Information-set Monte Carlo tree search with decoupled UCT, for any game of the protocol.

Each iteration:

1. **Determinize**: ``game.sample_state(view, seed)`` draws a full state consistent with the
   bot's view (other hands from the unseen cards, secret picks, deck order). The bot never
   holds the true state, so it cannot peek.
2. **Select** down a tree whose nodes are keyed by the public history of joint actions from
   the root. At a node, each acting player (all who choose at once during a simultaneous
   selection, or the one who answers a mid-resolution choice) picks its own action by its own
   statistics (decoupled UCT): mean reward + exploration + a heuristic prior that fades with
   visits (progressive bias). Only actions legal in this determinization compete, and
   exploration counts how often an action was *available*, not how often the node was
   visited (as in ISMCTS), so cards an opponent rarely holds are not over-explored.
3. **Expand** one new node, then **roll out** to the end with the game's heuristic policy
   (a little randomness mixed in), or uniformly at random for a game without one.
4. **Back up** each player's own reward along the path: ``w * share of the win + (1 - w) *
   token margin`` (the margin squashed by tanh), so every player in the tree plays for itself.

The decision is the most visited of the bot's legal actions at the root.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from sakura.bots.base import Limit, check_view
from sakura.bots.heuristics import Heuristic, heuristic_for
from sakura.engine import Action, Game, State, View, fast_path

# A node's statistics for one player: action -> [visits, total reward, availability, prior].
Stats = dict[Any, list[float]]


class _Node:
    __slots__ = ("children", "stats")

    def __init__(self) -> None:
        self.children: dict[tuple[tuple[int, Any], ...], _Node] = {}
        self.stats: dict[int, Stats] = {}


class MctsBot:
    """See the module docstring. ``limit`` bounds each decision; the options are tuning knobs
    (``c`` exploration, ``bias`` prior weight, ``w`` win weight in the reward, ``scale`` token
    margin scale, ``epsilon`` random moves in rollouts, ``rollout`` "heuristic" or "random").
    """

    def __init__(
        self,
        game: Game[Any],
        seed: int,
        limit: Limit,
        *,
        c: float = 0.5,
        bias: float = 2.0,
        w: float = 0.25,
        scale: float = 4.0,
        epsilon: float = 0.1,
        rollout: str = "heuristic",
        lookahead: int = 0,
        label: str | None = None,
    ) -> None:
        self.game = game
        self.fast = fast_path(game)  # samples are stepped with apply_fast where the game has it
        self.rng = random.Random(seed)
        self.limit = limit
        self.c, self.bias, self.w, self.scale, self.epsilon = c, bias, w, scale, epsilon
        # The first ``lookahead`` decisions of each rollout play the heuristic's full judgement
        # (what ``greedy`` plays) instead of the cheap rule: the near future, which matters most,
        # is then played as well as the heuristic can, the far future cheaply.
        self.lookahead = int(lookahead)
        wanted = rollout == "heuristic"
        self.heuristic: Heuristic | None = heuristic_for(game, required=False) if wanted else None
        self.label = label or f"mcts:{limit}"
        self.last_iterations = 0  # how many iterations the last decision ran (for benchmarks)

    @property
    def spec(self) -> str:
        return self.label

    def act(self, view: View) -> Action:
        legal = check_view(view).legal_actions
        if len(legal) == 1:
            only: Action = self.game.parse_action(legal[0])
            return only
        me = view.player
        assert me is not None
        root = _Node()
        budget = self.limit.start()
        sample = self.game.sample_state
        rng = self.rng
        while True:
            state = sample(view, rng.getrandbits(63))
            self._iterate(root, state)
            if not budget.spend():
                break
        self.last_iterations = budget.done
        stats = root.stats.get(me, {})
        best: tuple[float, float, str] | None = None
        choice = legal[0]
        for action, (n, total, _avail, _prior) in stats.items():
            text = str(action)
            if text not in legal:
                continue
            key = (n, total / n if n else 0.0, text)
            if best is None or key > best:
                best, choice = key, text
        picked: Action = self.game.parse_action(choice)
        return picked

    # ------------------------------------------------------------------ one iteration

    def _iterate(self, root: _Node, state: State[Any]) -> None:
        apply = self.fast.stepper(state)
        node = root
        path: list[tuple[_Node, list[tuple[int, Any]]]] = []
        while not state.is_terminal():
            joint = [(p, self._select(node, state, p)) for p in state.current_players()]
            for p, a in joint:
                apply(p, a)
            path.append((node, joint))
            key = tuple(joint)
            child = node.children.get(key)
            if child is None:
                node.children[key] = _Node()
                break
            node = child
        self._rollout(state, apply)
        rewards = self._rewards(state)
        for node, joint in path:
            for p, a in joint:
                s = node.stats[p][a]
                s[0] += 1.0
                s[1] += rewards[p]

    def _select(self, node: _Node, state: State[Any], player: int) -> Any:
        actions = state.legal_actions(player)
        if len(actions) == 1:
            stats = node.stats.setdefault(player, {})
            entry = stats.get(actions[0])
            if entry is None:
                stats[actions[0]] = [0.0, 0.0, 1.0, 1.0]
            else:
                entry[2] += 1.0
            return actions[0]
        stats = node.stats.setdefault(player, {})
        missing = [a for a in actions if a not in stats]
        if missing:
            priors = self._priors(state, player, missing)
            for a, prior in zip(missing, priors, strict=True):
                stats[a] = [0.0, 0.0, 0.0, prior]
        entries = [stats[a] for a in actions]
        low = min(e[3] for e in entries)
        spread = max(e[3] for e in entries) - low
        visits = sum(e[0] for e in entries)
        total = sum(e[1] for e in entries)
        fpu = total / visits if visits else 0.5
        c, bias = self.c, self.bias
        best_score = -math.inf
        best: list[int] = []
        for i, e in enumerate(entries):
            e[2] += 1.0
            n = e[0]
            mean = e[1] / n if n else fpu
            score = mean + c * math.sqrt(math.log(e[2] + 1.0) / (n + 1.0))
            if spread > 0:
                score += bias * (e[3] - low) / spread / (n + 1.0)
            if score > best_score + 1e-12:
                best_score, best = score, [i]
            elif score > best_score - 1e-12:
                best.append(i)
        pick = best[0] if len(best) == 1 else best[self.rng.randrange(len(best))]
        return actions[pick]

    def _priors(self, state: State[Any], player: int, actions: Sequence[Any]) -> list[float]:
        if self.heuristic is None or self.bias == 0:
            return [0.0] * len(actions)
        return self.heuristic.prior(state, player, actions)

    def _rollout(self, state: State[Any], apply: Callable[[int, Any], Any]) -> None:
        rng = self.rng
        heuristic = self.heuristic
        epsilon = self.epsilon
        smart = self.lookahead if heuristic is not None else 0
        while smart > 0 and not state.is_terminal():
            for p in state.current_players():
                smart -= 1
                actions = state.legal_actions(p)
                if len(actions) == 1:
                    apply(p, actions[0])
                    continue
                assert heuristic is not None
                scores = heuristic.prior(state, p, actions)
                top = max(scores)
                best = [a for a, v in zip(actions, scores, strict=True) if v >= top - 1e-9]
                apply(p, best[0] if len(best) == 1 else best[rng.randrange(len(best))])
        while not state.is_terminal():
            for p in state.current_players():
                if heuristic is None or rng.random() < epsilon:
                    actions = state.legal_actions(p)
                    apply(p, actions[rng.randrange(len(actions))])
                else:
                    apply(p, heuristic.rollout_action(state, p, rng))

    def _rewards(self, state: State[Any]) -> list[float]:
        outcome = state.outcome()
        assert outcome is not None
        shares = outcome.returns()
        scores = outcome.scores
        players = len(shares)
        out = []
        for p in range(players):
            best_other = max((scores[o] for o in range(players) if o != p), default=scores[p])
            margin = math.tanh((scores[p] - best_other) / self.scale)
            out.append(self.w * shares[p] + (1.0 - self.w) * (0.5 + 0.5 * margin))
        return out
