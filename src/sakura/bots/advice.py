"""Advice: each legal action's estimated chance of winning, read from a search bot's own tree.

A hint (while playing) and a post-game analysis ask the same question of one player's
**view** (never the full state): "if I play this, how likely am I to win?" The answer is the
search itself, not a second opinion: :func:`advise` runs the search bot that ``spec`` names
(an :class:`~sakura.bots.mcts.MctsBot`) from the view, exactly as the bot would to decide,
and reads its root statistics: for each of the player's legal actions, how often the search
tried it (visits), its mean reward, and its **win chance**, the mean of the player's share
of the win over the playouts that began with it (1 for a sole win, 1/k for a k-way shared win).
So the action the advice ranks first (most visited) is the bot's own decision, for the
same seed and budget, on every machine.

How sure a hint is: in Sakura every legal action is then judged again by the post-game
analysis's own engine (:func:`sakura.bots.judge.judge`, every card played out on the same
:data:`HINT_SAMPLES` determinizations), and the hint's chances are the judge's, each with its
95% margin, and ``sure`` says whether the best action stands out of the noise. (The card
game's playouts are too slow for that at a hint's pace: its chances are the search's, the
margin from their own playouts.)

It speaks only the game protocol, so it works for every game of the platform (for Sakura the
actions are the cards in hand, or ``forward`` / ``back`` at a choice).

>>> from sakura.engine import make_game
>>> game = make_game("sakura", {"players": 3})
>>> advice = advise(game, game.new_initial_state(4).view(0), "mcts:30", seed=1)
>>> advice.best == str(make_bot("mcts:30", game, 1).act(game.new_initial_state(4).view(0)))
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sakura.bots.base import BotError, check_view
from sakura.bots.judge import judge
from sakura.bots.levels import is_level, level_spec
from sakura.bots.mcts import MctsBot, _Node
from sakura.bots.registry import make_bot, parse_spec
from sakura.engine import Game, State, View

HINT_SPEC = "expert"  # the ladder's level for hints while playing
ANALYSIS_SPEC = "expert"  # and for scoring every decision after the game

# Pseudo-playouts at the position's own win chance added to each action's estimate before it is
# shown or compared: an action the search tried only a few times is judged by few playouts, and
# a card tried twice must not look best (or a blunder) on two lucky (or unlucky) ones.
PRIOR_VISITS = 4.0
# Determinizations a hint's actions are judged on, per game (none: the search's chances alone).
HINT_SAMPLES = {"sakura": 300}

Progress = Callable[[int, int], None]  # (iterations done, iterations in all)
PROGRESS_EVERY = 25  # iterations between two progress calls


def resolve_spec(spec: str, game_name: str = "sakura") -> str:
    """The spec a level name stands for in ``game_name`` (``expert`` is ``mcts:200`` in
    Sakura; see :mod:`sakura.bots.levels`); any other spec as it is (the registry checks it)."""
    parse_spec(spec)  # an unknown bot is refused here, with the registry's message
    return level_spec(spec, game_name) if is_level(spec) else spec


@dataclass(frozen=True, slots=True)
class ActionAdvice:
    """One legal action: how often the search tried it, its mean reward, its win chance."""

    action: str
    visits: int
    value: float  # the bot's mean reward (win share blended with the score margin)
    win: float  # mean share of the win over the playouts that began with it (0..1)
    judged: float = -1.0  # the judge's win chance (0..1), or -1 where it did not judge
    margin: float = -1.0  # the 95% margin of the chance shown (0..1), or -1 if unknown

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "action": self.action,
            "visits": self.visits,
            "value": round(self.value, 4),
            "win": round(self.win, 4),
        }
        if self.judged >= 0:
            out["judged"] = round(self.judged, 4)
        if self.margin >= 0:
            out["margin"] = round(self.margin, 4)
        return out


@dataclass(frozen=True, slots=True)
class Advice:
    """The search's estimates for each legal action of ``player`` (most visited first)."""

    player: int
    spec: str
    iterations: int
    actions: tuple[ActionAdvice, ...]
    win: float  # the position's win chance: over every playout of the search
    sure: bool | None = None  # whether the best action stands out of the noise (None: unknown)

    @property
    def best(self) -> str:
        """The bot's own decision: the most visited action (as ``MctsBot.act`` picks)."""
        return self.actions[0].action

    def estimate(self, action: ActionAdvice) -> float:
        """``action``'s win chance (0..1): the judge's where it judged, else the search's
        pulled toward the position's by :data:`PRIOR_VISITS`."""
        if action.judged >= 0:
            return action.judged
        return (action.win * action.visits + PRIOR_VISITS * self.win) / (action.visits + PRIOR_VISITS)

    def of(self, action: str) -> ActionAdvice:
        for a in self.actions:
            if a.action == action:
                return a
        raise KeyError(action)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Advice:
        """Read :meth:`to_json` back (a web server's ``hint`` message is that, and more)."""
        actions = tuple(
            ActionAdvice(
                str(a["action"]),
                int(a["visits"]),
                float(a["value"]),
                float(a["win"]),
                float(a.get("judged", -1.0)),
                float(a.get("margin", -1.0)),
            )
            for a in data["actions"]
        )
        sure = data.get("sure")
        return cls(
            int(data["player"]),
            str(data["spec"]),
            int(data["iterations"]),
            actions,
            float(data["win"]),
            None if sure is None else bool(sure),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "spec": self.spec,
            "iterations": self.iterations,
            "best": self.best,
            "win": round(self.win, 4),
            "sure": self.sure,
            "actions": [dict(a.to_json(), estimate=round(self.estimate(a), 4)) for a in self.actions],
        }


def search_bot(game: Game[Any], spec: str, seed: int) -> MctsBot:
    """The search bot ``spec`` names (levels resolved), or a clear error if it is no search."""
    bot = make_bot(spec, game, seed)
    if not isinstance(bot, MctsBot):
        raise BotError(f"advice needs a search bot (e.g. mcts:200 or expert), not {spec!r}")
    return bot


def advise(
    game: Game[Any],
    view: View,
    spec: str = HINT_SPEC,
    *,
    seed: int = 0,
    progress: Progress | None = None,
    judged: int | None = None,
) -> Advice:
    """Each legal action's estimates for ``view.player``, by the search ``spec`` names.

    The search is the bot's: same sampling, same tree, same random draws as
    ``make_bot(spec, game, seed).act(view)``, so the first action here is that decision.
    ``progress(done, total)`` is called every few iterations (``total`` is 0 for a time limit).
    ``judged``: the determinizations the judge plays every action on (``None``: the game's
    :data:`HINT_SAMPLES`; 0: no judge, the search's chances alone).
    """
    legal = check_view(view).legal_actions
    bot = search_bot(game, spec, seed)
    me = view.player
    assert me is not None
    root = _Node()
    wins: dict[Any, float] = {}
    done = _search(bot, root, view, me, wins, progress=progress)
    total_win = sum(wins.values())
    out = []
    for action, (n, total, _avail, _prior) in root.stats.get(me, {}).items():
        text = str(action)
        if text in legal:
            mean = total / n if n else 0.0
            out.append((n, mean, text, wins.get(action, 0.0) / n if n else 0.0))
    seen = {t for _, _, t, _ in out}
    out += [(0.0, 0.0, t, 0.0) for t in legal if t not in seen]  # never tried: no estimate
    out.sort(key=lambda e: (e[0], e[1], e[2]), reverse=True)  # MctsBot.act's order of choice
    samples = HINT_SAMPLES.get(game.name, 0) if judged is None else judged
    if samples <= 0:
        actions = tuple(ActionAdvice(t, int(n), v, w, -1.0, _margin(w, n)) for n, v, t, w in out)
        return Advice(me, bot.spec, done, actions, total_win / done)
    judgement = judge(game, view, samples, seed=seed)
    actions = tuple(
        ActionAdvice(t, int(n), v, w, judgement.win(t), judgement.margin(t) / 100.0) for n, v, t, w in out
    )
    return Advice(me, bot.spec, done, actions, total_win / done, judgement.sure())


def _margin(win: float, visits: float) -> float:
    """A rough 95% margin of a chance measured on ``visits`` playouts (its binomial spread)."""
    n = visits + PRIOR_VISITS
    return 1.96 * math.sqrt(max(win * (1.0 - win), 0.25 / n) / n)


def _search(
    bot: MctsBot, root: _Node, view: View, me: int, wins: dict[Any, float], *, progress: Progress | None
) -> int:
    """``MctsBot.act``'s loop (sample, iterate, spend), noting after each iteration which of
    ``me``'s root actions it began with and ``me``'s share of the win at its end."""
    budget = bot.limit.start()
    total = bot.limit.iterations or 0
    sample = bot.fast.sampler(view)  # the view's unseen cards worked out once, as the bot's own act
    rng = bot.rng
    while True:
        state = sample(rng.getrandbits(63))
        before = {a: s[0] for a, s in root.stats.get(me, {}).items()}
        bot._iterate(root, state)  # the bot's own iteration: its tree, its rollouts
        _note(root, me, before, state, wins)
        if not budget.spend():
            break
        if progress is not None and budget.done % PROGRESS_EVERY == 0:
            progress(budget.done, total)
    bot.last_iterations = budget.done
    if progress is not None:
        progress(budget.done, budget.done)
    return budget.done


def _note(root: _Node, me: int, before: dict[Any, float], state: State[Any], wins: dict[Any, float]) -> None:
    outcome = state.outcome()  # the iteration rolled out to the end of the game
    share = outcome.returns()[me] if outcome is not None else 0.0
    for action, s in root.stats.get(me, {}).items():
        if s[0] != before.get(action, 0.0):
            wins[action] = wins.get(action, 0.0) + share
            return
