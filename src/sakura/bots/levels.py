"""The ladder: five named strengths, each a bot spec, for players who think in levels.

A person choosing an opponent asks "how strong?", not "how many iterations?". Each level is
one spec of the registry (``make_bot("club", game, seed)`` builds it), chosen so that every
level beats the one below it (measured by ``benchmarks/ladder.py``; the table is in
``docs/bots.md``), for Sakura and for the card game alike: the bots underneath are generic
and use each game's own heuristic.

* ``beginner``: ``softmax:3,avoid=0.95``, the heuristic's moves drawn by a softmax at a high
  temperature: it often misjudges what a card is worth, but it sees a card that walks its
  painter into the Emperor and leaves it out nineteen times in twenty
  (:mod:`sakura.bots.novice`), as a person new to the game does.
* ``casual``: ``softmax:1``, the same draw cooler and without the lookout: it errs mostly
  between moves of similar worth, now and then into the Emperor.

(The card game's heuristic scores in points, whose steps are larger than Sakura's tokens: its
softmax levels run hotter, ``softmax:3`` and ``softmax:1.5``, measured so that each level
finishes ahead of the one below on 300 deals.)
* ``club``: ``greedy``, always the heuristic's best move, nothing looked ahead.
* ``expert``: information-set MCTS with heuristic rollouts, about 0.1 s a decision; also the
  search that scores hints and the post-game analysis.
* ``master``: the strongest search measured against other searches that keeps within one
  second a decision on one core. (``mcts:300,model=0``, which imagines the others as the
  heuristic plays, does as well against ``greedy`` in a fifth of the time but no better than
  ``mcts:300`` against ``mcts:300``; reading their hands, ``infer``, did not pay; nor did
  ``br``, the best response to that model by rollouts on common deals, which is no stronger
  against ``greedy`` and no better against ``expert`` (with a softer model of the others,
  worse): docs/bots.md.)

The search levels are iteration counts, never time limits, so that a level plays the same
game for the same seed on every machine and does not weaken on a loaded one. An iteration of
the card game costs several of Sakura's (its rollouts judge more moves), so the searching
levels have a count per game (:meth:`Level.spec_for`); ``spec`` is Sakura's.

The lobby's older names (``easy``, ``medium``, ``hard``) stand for levels
(:data:`LEGACY`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Level:
    """One rung: its ``name`` (a spec of its own), the ``spec`` it stands for, a line on how
    it plays, and the games for which it stands for another spec (``per_game``)."""

    name: str
    spec: str
    about: str
    per_game: tuple[tuple[str, str], ...] = ()

    def spec_for(self, game_name: str) -> str:
        """The spec this level plays ``game_name`` with.

        >>> LEVELS["master"].spec_for("sakura-cards")
        'mcts:250'
        """
        return dict(self.per_game).get(game_name, self.spec)


CARDS = "sakura-cards"
LADDER: tuple[Level, ...] = (
    Level(
        "beginner",
        "softmax:3,avoid=0.95",
        "a hot softmax over the heuristic that mostly sees a walk into the Emperor: often a weaker card",
        ((CARDS, "softmax:3"),),
    ),
    Level(
        "casual",
        "softmax:1",
        "a cooler softmax: errs mostly between moves of similar worth",
        ((CARDS, "softmax:1.5"),),
    ),
    Level("club", "greedy", "the heuristic's best move every time, nothing looked ahead"),
    Level(
        "expert",
        "mcts:200",
        "information-set MCTS with heuristic rollouts, about 0.1 s a decision",
        ((CARDS, "mcts:50"),),
    ),
    Level(
        "master", "mcts:1500", "information-set MCTS given up to a second a decision", ((CARDS, "mcts:250"),)
    ),
)
LEVELS: dict[str, Level] = {level.name: level for level in LADDER}
LEVEL_NAMES: tuple[str, ...] = tuple(LEVELS)
# Names the lobby and the terminal app used before the ladder, and the level each stands for.
LEGACY: dict[str, str] = {"easy": "beginner", "medium": "club", "hard": "expert"}


def level_spec(name: str, game_name: str = "sakura") -> str:
    """The spec behind a level (or an older name of one) for the game ``game_name``.

    >>> level_spec("club"), level_spec("hard"), level_spec("expert", "sakura-cards")
    ('greedy', 'mcts:200', 'mcts:50')
    """
    key = name.strip().lower()
    level = LEVELS.get(LEGACY.get(key, key))
    if level is None:
        raise KeyError(name)
    return level.spec_for(game_name)


def is_level(name: str) -> bool:
    """Whether ``name`` is a level of the ladder (older names excluded)."""
    return name.strip().lower() in LEVELS
