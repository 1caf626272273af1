"""The judge of one decision: every legal action played out on the same hidden cards, so that
the difference between two actions is measured with its own margin of error.

A search's win chances are noisy: a card that the search tried forty times is judged on forty
playouts, each won or lost by the luck of the hidden hands far more than by the card. Before a
decision is called a mistake, the loss must stand out of that noise. So the judge uses
**common random numbers**: it draws ``samples`` determinizations of the player's view
(``game.sample_state``), and on each one it plays *every* legal action, the other players'
choices at this moment and the rest of the game played by the search's rollout rule
(``Heuristic.rollout_action``, a few random moves mixed in as the search does) from the
*same* random stream. The hand luck is then the same for every action of a sample, and the
per-sample difference between two actions (a paired sample) varies only by what the actions
change; its mean is the loss, its standard error the margin.

The label a loss gets is decided by the interval's lower bound (:meth:`Judgement.loss`): a
decision is called a blunder only when the data exclude its being a mere mistake. As every
other action is compared with the played one and the best is chosen by the same samples,
the bound is one-sided at 95% with Bonferroni's correction over the comparisons.

>>> from sakura.engine import make_game
>>> game = make_game("sakura", {"players": 3})
>>> view = game.new_initial_state(4).view(0)
>>> j = judge(game, view, 50, seed=1)
>>> j.samples, len(j.actions) == len(view.legal_actions)
(50, True)
>>> j == judge(game, view, 50, seed=1)  # the same seed, the same judgement
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

from sakura.bots.base import check_view
from sakura.bots.heuristics import Heuristic, Playout, heuristic_for
from sakura.engine import Game, State, View, fast_path

EPSILON = 0.1  # random moves in the rollouts (the search's own share, MctsBot's epsilon)
CONFIDENCE = 0.95  # one-sided, over all comparisons of a decision (Bonferroni)

Progress = Callable[[int, int], None]  # (samples done, samples in all)


@dataclass(frozen=True, slots=True)
class Loss:
    """How much worse ``played`` is than ``best`` in win-chance points (0..100): ``value``
    (the mean paired difference), ``margin`` (the one-sided bound's distance from it), so the
    loss is at least ``value - margin`` (:attr:`low`) with 95% confidence."""

    played: str
    best: str
    value: float
    margin: float

    @property
    def low(self) -> float:
        """The loss the samples establish: the lower end of its interval (never below 0)."""
        return max(0.0, self.value - self.margin)

    def text(self) -> str:
        """The loss as a player reads it.

        >>> Loss("play 6", "play 16", 12.04, 3.96).text()
        '−12 ± 4'
        """
        return f"−{self.value:.0f} ± {self.margin:.0f}"


@dataclass(frozen=True, slots=True)
class Judgement:
    """Each legal action's win chance over the same ``samples`` determinizations, with the
    per-sample results kept for paired comparisons (``shares[i][k]``: action ``i``'s win share
    on sample ``k``)."""

    player: int
    actions: tuple[str, ...]
    shares: tuple[tuple[float, ...], ...]

    @property
    def samples(self) -> int:
        return len(self.shares[0]) if self.shares else 0

    def win(self, action: str) -> float:
        """``action``'s mean win share (0..1) over the samples."""
        row = self.shares[self.actions.index(action)]
        return sum(row) / len(row) if row else 0.0

    @property
    def best(self) -> str:
        """The action with the highest mean (the first of the legal order among equals)."""
        return max(self.actions, key=self.win)

    def margin(self, action: str) -> float:
        """The half-width of ``action``'s own 95% interval, in win-chance points (not paired:
        what a hint shows beside one card's chance)."""
        row = self.shares[self.actions.index(action)]
        n = len(row)
        if n < 2:
            return 100.0
        mean = sum(row) / n
        var = sum((x - mean) ** 2 for x in row) / (n - 1)
        return 100.0 * 1.96 * math.sqrt(var / n)

    def difference(self, better: str, worse: str) -> tuple[float, float]:
        """The mean paired difference ``better - worse`` in win-chance points, and its
        standard error."""
        a = self.shares[self.actions.index(better)]
        b = self.shares[self.actions.index(worse)]
        n = len(a)
        diffs = [x - y for x, y in zip(a, b, strict=True)]
        mean = sum(diffs) / n if n else 0.0
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 1.0
        return 100.0 * mean, 100.0 * math.sqrt(var / n) if n > 1 else 100.0

    def loss(self, played: str) -> Loss:
        """The loss of ``played`` against the best action, with its one-sided margin at
        :data:`CONFIDENCE` corrected for the ``len(actions) - 1`` comparisons."""
        best = self.best
        if best == played or self.win(played) >= self.win(best):  # the played one is a best
            return Loss(played, played, 0.0, 0.0)
        value, se = self.difference(best, played)
        comparisons = max(1, len(self.actions) - 1)
        return Loss(
            played, best, value, t_quantile(1.0 - (1.0 - CONFIDENCE) / comparisons, self.samples - 1) * se
        )

    def sure(self) -> bool:
        """Whether the best action is established: better than every other one by more than
        the margin (otherwise two or more actions are equal within the noise)."""
        best = self.best
        return all(self.loss(a).low > 0.0 for a in self.actions if a != best)


def t_quantile(p: float, df: int) -> float:
    """Student's t quantile (Cornish-Fisher's expansion around the normal one: within 1% from
    5 degrees of freedom on, a little generous below), for the margins of few samples.

    >>> round(t_quantile(0.975, 10), 2), round(t_quantile(0.975, 10_000), 2)
    (2.23, 1.96)
    """
    z = NormalDist().inv_cdf(p)
    v = max(1, df)
    return z + (z**3 + z) / (4 * v) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v * v)


def judge(
    game: Game[Any],
    view: View,
    samples: int,
    *,
    seed: int = 0,
    keep: Sequence[str] = (),
    candidates: int = 0,
    progress: Progress | None = None,
) -> Judgement:
    """Judge the legal actions of ``view.player`` on ``samples`` determinizations (see the
    module docstring). Deterministic for the view, ``samples`` and ``seed``.

    ``candidates`` > 0 judges only that many actions where there are more (a card game's hand
    of twenty): those of ``keep`` (the played one) and the rest by the game heuristic's own
    ranking (:meth:`~sakura.bots.heuristics.Heuristic.view_scores`), in their legal order."""
    legal = list(check_view(view).legal_actions)
    me = view.player
    assert me is not None
    heuristic = heuristic_for(game, required=False)
    if 0 < candidates < len(legal):
        legal = _candidates(legal, heuristic, view, keep, candidates)
    fast = fast_path(game)
    actions = [game.parse_action(t) for t in legal]
    rows: list[list[float]] = [[] for _ in legal]
    master = random.Random(seed)
    for k in range(samples):
        base = game.sample_state(view, master.getrandbits(63))
        stream = master.getrandbits(63)
        for i, action in enumerate(actions):
            state = base.clone()
            rng = random.Random(stream)
            apply = fast.stepper(state)
            for p in state.current_players():  # the others choose at the same time, unaware
                if p != me:
                    apply(p, _rollout_action(state, p, rng, heuristic))
            apply(me, action)
            _play_out(state, rng, heuristic, apply, fast.fast)
            outcome = state.outcome()
            assert outcome is not None
            rows[i].append(outcome.returns()[me])
        if progress is not None and (k + 1) % 50 == 0:
            progress(k + 1, samples)
    return Judgement(me, tuple(legal), tuple(tuple(r) for r in rows))


def _candidates(
    legal: list[str], heuristic: Heuristic | None, view: View, keep: Sequence[str], size: int
) -> list[str]:
    chosen = {a for a in keep if a in legal}
    scores = heuristic.view_scores(view) if heuristic is not None else [0.0] * len(legal)
    for _score, i in sorted(((-s, i) for i, s in enumerate(scores))):
        if len(chosen) >= size:
            break
        chosen.add(legal[i])
    return [a for a in legal if a in chosen]


def _rollout_action(state: State[Any], player: int, rng: random.Random, heuristic: Heuristic | None) -> Any:
    actions = state.legal_actions(player)
    if heuristic is None or rng.random() < EPSILON:
        return actions[rng.randrange(len(actions))]
    return heuristic.rollout_action(state, player, rng)


def _play_out(
    state: State[Any],
    rng: random.Random,
    heuristic: Heuristic | None,
    apply: Callable[[int, Any], Any],
    fast: bool,
) -> None:
    """The rest of the game by the search's rollout rule (the heuristic's own compiled loop
    where it has one)."""
    if fast and isinstance(heuristic, Playout):
        heuristic.playout(state, rng, EPSILON)
        return
    while not state.is_terminal():
        for p in state.current_players():
            apply(p, _rollout_action(state, p, rng, heuristic))
