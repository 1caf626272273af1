"""Game-specific knowledge for the generic bots, found by the game's name.

The random and MCTS bots work for any game of the protocol. What only a given game knows, a
one-ply judgement of its actions, lives in a :class:`Heuristic` registered under the game's
name: ``greedy`` plays its best-scored action; ``mcts`` uses it for cheap rollouts and as a
prior at simultaneous nodes. A game without one still gets ``random`` and ``mcts`` (uniform
rollouts), and ``greedy`` says clearly that it is missing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from sakura.bots.base import BotError
from sakura.engine import Action, Game, State, View


class Heuristic(Protocol):
    """One game's one-ply judgement of actions, from a view or (in search) a sampled state.

    ``rollout_action`` and ``prior`` get a full (sampled) state for speed but must decide only
    from what ``player`` could see in it: its own hand and the public board.
    """

    def view_scores(self, view: View) -> list[float]:
        """A score for each of ``view.legal_actions`` (higher is better)."""
        ...

    def prior(self, state: State[Any], player: int, actions: Sequence[Action]) -> list[float]:
        """A score for each of ``actions`` of ``player`` in a sampled state."""
        ...

    def rollout_action(self, state: State[Any], player: int, rng: random.Random) -> Action:
        """A quick, good-enough action for ``player`` in a sampled state."""
        ...


@runtime_checkable
class Playout(Protocol):
    """A heuristic that also plays whole rollouts itself (a game's compiled loop, where the
    generic one would make a Python call a step). ``playout(state, rng, epsilon)`` must play a
    fast state to its end exactly as the search's loop would: for each acting player, with
    probability ``epsilon`` (``rng.random() < epsilon``) a uniformly random legal action
    (``rng.randrange``), else ``rollout_action``."""

    def playout(self, state: State[Any], rng: random.Random, epsilon: float) -> None: ...


HeuristicFactory = Callable[[Game[Any]], Heuristic]
_HEURISTICS: dict[str, HeuristicFactory] = {}


def look_ahead(
    state: State[Any],
    apply: Callable[[int, Any], Any],
    heuristic: Heuristic,
    decisions: int,
    rng: random.Random,
) -> None:
    """Play ``state``'s next ``decisions`` decisions by the heuristic's best action (ties drawn
    by ``rng``): the greedy look-ahead the searches' rollouts begin with (``mcts``'s and
    ``br``'s ``lookahead=N``), so that the players they imagine play as well as ``greedy``."""
    while decisions > 0 and not state.is_terminal():
        for p in state.current_players():
            decisions -= 1
            apply(p, best_action(heuristic, state, p, rng))


def best_action(heuristic: Heuristic, state: State[Any], player: int, rng: random.Random) -> Any:
    """``player``'s best action in ``state`` by the heuristic, ties drawn by ``rng``: what
    ``greedy`` plays, decided (as the heuristic's contract says) from that seat's own view."""
    choices = state.legal_actions(player)
    if len(choices) == 1:
        return choices[0]
    scores = heuristic.prior(state, player, choices)
    top = max(scores)
    best = [a for a, v in zip(choices, scores, strict=True) if v >= top - 1e-9]
    return best[0] if len(best) == 1 else best[rng.randrange(len(best))]


def register_heuristic(game_name: str, factory: HeuristicFactory) -> None:
    """Make ``heuristic_for(game)`` build ``factory(game)`` for games named ``game_name``."""
    _HEURISTICS[game_name] = factory


def heuristic_for(game: Game[Any], *, required: bool = True) -> Heuristic | None:
    """The heuristic of ``game``; raises :class:`BotError` if there is none and it is required."""
    _load_builtin()
    factory = _HEURISTICS.get(game.name)
    if factory is None:
        if required:
            raise BotError(
                f"no heuristic for the game {game.name!r}: 'greedy' needs one "
                "(register_heuristic); 'random' and 'mcts' work without"
            )
        return None
    return factory(game)


def _load_builtin() -> None:
    if "sakura" not in _HEURISTICS:
        from sakura.bots.sakura_heuristic import SakuraHeuristic

        register_heuristic("sakura", SakuraHeuristic.for_game)
    if "sakura-cards" not in _HEURISTICS:
        from sakura.bots.cards_heuristic import CardsHeuristic

        register_heuristic("sakura-cards", CardsHeuristic.for_game)


class Evaluator(Protocol):
    """One game's estimate of how a position ends, for searches that stop rollouts early.

    ``value`` returns, for each player, its expected share of the win and its expected token
    margin over the best rival squashed into 0..1, or ``None`` where the estimate does not
    judge such a state (the search then plays on). It must read only public facts of the state,
    so that every determinization of one information set is judged alike.
    """

    def value(self, state: State[Any]) -> tuple[list[float], list[float]] | None: ...


def evaluator_for(game: Game[Any]) -> Evaluator | None:
    """The learned value estimate of ``game`` where one is shipped for its table, else ``None``."""
    if game.name == "sakura":
        from sakura.bots.sakura_value import SakuraValue

        return SakuraValue.for_game(game)
    return None


class HandReader(Protocol):
    """One game's reading of the hidden hands from what their players chose (for searches that
    sample their determinizations by it). ``sampler(history, view, temperature)`` returns a
    function of a seed that draws a state for ``view`` whose hidden hands follow what the
    player's own earlier views (``history``, oldest first) show of the others' choices, or
    ``None`` where there is nothing to read."""

    def remembers(self, view: View) -> bool:
        """Whether a search keeps ``view`` in the ``history`` it passes to :meth:`sampler`."""
        ...

    def sampler(
        self, history: Sequence[View], view: View, temperature: float
    ) -> Callable[[int], State[Any]] | None: ...


def hand_reader_for(game: Game[Any]) -> HandReader | None:
    """The hand reader of ``game`` where it has one (Sakura without a court painter)."""
    if game.name == "sakura":
        from sakura.bots.sakura_reading import SakuraHandReader

        return SakuraHandReader.for_game(game)
    return None
