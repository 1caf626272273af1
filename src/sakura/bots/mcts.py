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

from sakura.bots.base import Limit, check_view, weighted_index
from sakura.bots.heuristics import (
    Heuristic,
    Playout,
    evaluator_for,
    hand_reader_for,
    heuristic_for,
    look_ahead,
)
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
        model: float = -1.0,
        cut: int = 0,
        infer: float = 0.0,
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
        # How the tree imagines the *other* players choose. Below zero: by their own search
        # statistics, like the bot's own choices. Zero or more: by the heuristic's judgement of
        # the actions they hold in this determinization, the best one at ``model == 0``, a
        # softmax at temperature ``model`` above it. Statistics pooled over many imagined hands
        # make an opponent play "the card that is best on average whenever held", which no player
        # does; the heuristic chooses from the whole hand, as people and bots at the table do.
        self.model = float(model)
        # ``cut`` > 0: a rollout stops at the first round start after ``cut - 1`` of its
        # decisions (``cut=1``: the first one, often the new leaf itself) and takes the game's
        # learned value estimate (``evaluator_for``) as the result, where the game ships one:
        # the far future played by the cheap rule is mostly noise.
        self.cut = int(cut)
        self.evaluator = evaluator_for(game) if self.cut > 0 else None
        # ``infer`` > 0: the other hands are dealt by what their players chose in the rounds
        # so far (a reading at temperature ``infer`` over the heuristic's scores,
        # ``hand_reader_for``), instead of uniformly. It reads the bot's own earlier selection
        # views of the game, which the bot keeps per player.
        self.infer = float(infer)
        self.reader = hand_reader_for(game) if self.infer > 0 else None
        self.history: dict[int, list[View]] = {}
        self.me = -1  # the player deciding (set by act), whose choices the search explores
        wanted = rollout == "heuristic"
        self.heuristic: Heuristic | None = heuristic_for(game, required=False) if wanted else None
        # The heuristic's own rollout loop, where it has one and nothing stops rollouts early.
        self.playout = (
            self.heuristic.playout
            if isinstance(self.heuristic, Playout) and self.fast.fast and self.evaluator is None
            else None
        )
        self.label = label or f"mcts:{limit}"
        self.last_iterations = 0  # how many iterations the last decision ran (for benchmarks)

    @property
    def spec(self) -> str:
        return self.label

    def act(self, view: View) -> Action:
        legal = check_view(view).legal_actions
        me = view.player
        assert me is not None
        read = self._read(view, me) if self.reader is not None else None
        if len(legal) == 1:
            only: Action = self.game.parse_action(legal[0])
            return only
        self.me = me
        root = _Node()
        budget = self.limit.start()
        rng = self.rng
        sample = self.fast.sampler(view) if read is None else read
        while True:
            state = sample(rng.getrandbits(63))
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

    def _read(self, view: View, me: int) -> Callable[[int], State[Any]] | None:
        """The reader's sampler for ``view``, from ``me``'s earlier views of this game that
        the reader remembers (a round not after the last one remembered starts a new game)."""
        assert self.reader is not None
        history = self.history.setdefault(me, [])
        remembered = self.reader.remembers(view)
        if remembered and history and history[-1].progress.round >= view.progress.round:
            history.clear()
        read = self.reader.sampler(history, view, self.infer)
        if remembered:
            history.append(view)
        return read

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
        estimate = self._rollout(state, apply)
        rewards = self._rewards(state) if estimate is None else estimate
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
        if self.model >= 0.0 and player != self.me:
            return actions[self._modelled(entries)]
        best = _best_entries(entries, self.c, self.bias)
        pick = best[0] if len(best) == 1 else best[self.rng.randrange(len(best))]
        return actions[pick]

    def _modelled(self, entries: Sequence[list[float]]) -> int:
        """The index an opponent plays by the model: the best prior (ties by the RNG), or a
        softmax draw over the priors at temperature ``self.model``."""
        for e in entries:
            e[2] += 1.0
        top = max(e[3] for e in entries)
        if self.model == 0.0:
            best = [i for i, e in enumerate(entries) if e[3] >= top - 1e-9]
            return best[0] if len(best) == 1 else best[self.rng.randrange(len(best))]
        t = self.model
        return weighted_index([math.exp((e[3] - top) / t) for e in entries], self.rng)

    def _priors(self, state: State[Any], player: int, actions: Sequence[Any]) -> list[float]:
        if self.heuristic is None or self.bias == 0:
            return [0.0] * len(actions)
        return self.heuristic.prior(state, player, actions)

    def _rollout(self, state: State[Any], apply: Callable[[int, Any], Any]) -> list[float] | None:
        """Play ``state`` on to the end, or (with ``cut``) until the value estimate judges it:
        then the players' rewards by the estimate, else ``None`` (the end's rewards count)."""
        rng = self.rng
        heuristic = self.heuristic
        epsilon = self.epsilon
        if heuristic is not None and self.lookahead > 0:
            look_ahead(state, apply, heuristic, self.lookahead, rng)
        if self.playout is not None:
            self.playout(state, rng, epsilon)
            return None
        evaluator = self.evaluator
        steps = 0
        while not state.is_terminal():
            if evaluator is not None and steps >= self.cut - 1:
                judged = evaluator.value(state)
                if judged is not None:
                    w = self.w
                    shares, margins = judged
                    return [w * a + (1.0 - w) * b for a, b in zip(shares, margins, strict=True)]
            for p in state.current_players():
                steps += 1
                if heuristic is None or rng.random() < epsilon:
                    actions = state.legal_actions(p)
                    apply(p, actions[rng.randrange(len(actions))])
                else:
                    apply(p, heuristic.rollout_action(state, p, rng))
        return None

    def _rewards(self, state: State[Any]) -> list[float]:
        outcome = state.outcome()
        assert outcome is not None
        shares = outcome.returns()
        scores = outcome.scores
        players = len(shares)
        out = []
        for p in range(players):
            best_other = scores[p] if players == 1 else -math.inf  # the best rival's score
            for o in range(players):  # a plain loop: the compiled build has no generator
                if o != p and scores[o] > best_other:
                    best_other = scores[o]
            margin = math.tanh((scores[p] - best_other) / self.scale)
            out.append(self.w * shares[p] + (1.0 - self.w) * (0.5 + 0.5 * margin))
        return out


def _best_entries(entries: list[list[float]], c: float, bias: float) -> list[int]:
    """The indices of the best-scored entries by decoupled UCT (mean reward, exploration by
    availability, and the prior's bias fading with visits), each entry counted available.
    Plain loops over floats: the compiled build types them (``mcts.pxd``)."""
    low = high = entries[0][3]
    visits = 0.0
    total = 0.0
    for e in entries:
        prior = e[3]
        low = min(low, prior)
        high = max(high, prior)
        visits += e[0]
        total += e[1]
    spread = high - low
    fpu = total / visits if visits else 0.5
    best_score = -math.inf
    best: list[int] = []
    for i in range(len(entries)):
        e = entries[i]
        n, reward, available, prior = e
        available += 1.0
        e[2] = available
        mean = reward / n if n else fpu
        score = mean + c * math.sqrt(math.log(available + 1.0) / (n + 1.0))
        if spread > 0:
            score += bias * (prior - low) / spread / (n + 1.0)
        if score > best_score + 1e-12:
            best_score = score
            best = [i]
        elif score > best_score - 1e-12:
            best.append(i)
    return best
