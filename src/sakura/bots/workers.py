"""What the server's worker processes run: hints and analysis steps, one call each.

Kept apart from the server (and light to import: the engine and the bots only) because each
worker process imports the module of the function it is given, and a freshly started worker
should be ready in about a second, not after loading the web framework. Each function takes
its *slot* (a cell of the shared progress array, given to every worker at its start by
:func:`init`) and one plain dict of work.
"""

from __future__ import annotations

from typing import Any

from sakura.bots import analysis
from sakura.bots.advice import advise
from sakura.engine import Game, make_game

Work = dict[str, Any]  # {"game", "config", and what the work needs}

_progress: Any = None  # the shared progress array (set in each worker by init)
_games: dict[str, Game[Any]] = {}


def init(progress: Any) -> None:
    """A worker's initializer: keep the shared progress array (one cell a slot)."""
    global _progress  # noqa: PLW0603 - one array per worker process, given at its start
    _progress = progress


def _game(name: str, config: dict[str, Any]) -> Game[Any]:
    key = f"{name}:{sorted(config.items())}"
    if key not in _games:
        _games[key] = make_game(name, config)
    return _games[key]


def hint_work(slot: int, work: Work) -> dict[str, Any]:
    """``advise`` from ``work["view"]``, its progress written into the slot's cell."""

    def report(done: int, total: int) -> None:
        if total and _progress is not None:
            _progress[slot] = done / total

    game = _game(work["game"], work["config"])
    return advise(game, work["view"], work["spec"], seed=work["seed"], progress=report).to_json()


def jobs_work(_slot: int, work: Work) -> list[dict[str, Any]]:
    """An analysis's jobs, from the game's seed and actions (server side only)."""
    game = _game(work["game"], work["config"])
    return analysis.jobs(game, game.new_initial_state(work["seed"]), work["actions"], work["seat"])


def job_work(_slot: int, work: Work) -> dict[str, Any]:
    """One analysis job's result."""
    return analysis.run_job(_game(work["game"], work["config"]), work["job"], work["spec"])
