"""Rollouts on several workers (Ray actors with ``--ray N``): more tables than one process plays.

A :class:`Worker` owns its own :class:`~.rollout.Tables` (its own env, seats, bots and deals:
worker ``k`` plays the seeds of ``seed + k``). Each update the learner sends every worker its
actor and critic weights and its league; the workers play their tables and return their
rollouts and the results they recorded, which the learner merges (:func:`merge`) into one
rollout (the workers' tables side by side) and into its league.

:class:`ParallelTables` stands where the trainer's ``Tables`` stood and calls the workers
through ``call``: in-process (``local``, used by the tests) or on Ray (``--ray``, the ``cluster``
extra). It pickles by fetching the workers' tables, so a checkpoint still resumes exactly.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import numpy as np

from sakura.rl.selfplay.league import League
from sakura.rl.selfplay.rollout import Rollout, Tables

RAY_MISSING = "--ray needs Ray (the cluster extra: pip install 'sakura[cluster]')"


def require_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise SystemExit(RAY_MISSING) from None
    return ray


class Worker:
    """Tables played for the learner, wherever the worker runs."""

    def __init__(
        self, make_env: Callable[[int], Any], tables: int, league: League, seed: int, hidden: list[int]
    ) -> None:
        self.rng = np.random.default_rng(seed)
        self.tables = Tables(make_env, tables, copy.deepcopy(league), self.rng, seed * 10**9)
        self.hidden = hidden

    def play(self, weights: dict[str, Any], league: League, steps: int) -> tuple[Rollout, list[Any]]:
        from sakura.rl.selfplay.net import ActorCritic, TorchLearner

        obs_size, actions = int(self.tables.obs.shape[-1]), int(self.tables.wait)
        model = ActorCritic(obs_size, actions, self.hidden)
        model.load_state_dict(weights)
        self.tables.league = league
        rollout = self.tables.play(TorchLearner(model), steps, self.rng)
        return rollout, league.take_recent()

    def state(self) -> tuple[Tables, Any, list[int]]:
        return self.tables, self.rng, self.hidden

    def restore(self, tables: Tables, rng: Any, hidden: list[int]) -> None:
        self.tables, self.rng, self.hidden = tables, rng, hidden


def merge(rollouts: list[Rollout]) -> Rollout:
    """The rollouts of several workers as one, their tables side by side."""
    offsets = np.cumsum([0] + [len(r.actions) for r in rollouts[:-1]])
    where = [np.where(r.where >= 0, r.where + off, -1) for r, off in zip(rollouts, offsets, strict=True)]
    return Rollout(
        np.concatenate([r.obs for r in rollouts]),
        np.concatenate([r.mask for r in rollouts]),
        np.concatenate([r.actions for r in rollouts]),
        np.concatenate([r.logp for r in rollouts]),
        np.concatenate([r.values for r in rollouts]),
        np.concatenate(where, axis=1),
        np.concatenate([r.rewards for r in rollouts], axis=1),
        np.concatenate([r.ended for r in rollouts], axis=1),
        np.concatenate([r.last_values for r in rollouts]),
        sum(r.games for r in rollouts),
    )


class ParallelTables:
    """The trainer's tables, played by ``workers`` (handles ``call`` knows how to reach)."""

    def __init__(
        self, workers: list[Any], league: League, call: Callable[..., Any], gather: Callable[[Any], Any]
    ):
        self.workers, self.league, self.call, self.gather = workers, league, call, gather

    def play(self, learner: Any, steps: int, rng: np.random.Generator) -> Rollout:
        weights = {k: v.detach().clone() for k, v in learner.model.state_dict().items()}
        league = copy.copy(self.league)
        league.recent = []
        replies = self.gather([self.call(w, "play", weights, league, steps) for w in self.workers])
        for _, results in replies:
            self.league.apply(results)
        return merge([r for r, _ in replies])

    def __getstate__(self) -> dict[str, Any]:
        return {"states": self.gather([self.call(w, "state") for w in self.workers]), "league": self.league}

    def __setstate__(self, state: dict[str, Any]) -> None:
        # Restored in-process; ``examples/selfplay.py --ray`` moves them onto Ray again.
        self.league = state["league"]
        self.workers = []
        for saved in state["states"]:
            worker = Worker.__new__(Worker)
            worker.restore(*saved)
            self.workers.append(worker)
        self.call, self.gather = local_call, list

    def to_ray(self) -> None:
        """Move in-process workers (a resumed checkpoint's) onto Ray actors, state and all."""
        r = require_ray()
        if not r.is_initialized():
            r.init()
        remote = r.remote(Worker)
        handles = []
        for worker in self.workers:
            tables, rng, hidden = worker.state()
            handle = remote.remote(tables.make_env, 1, self.league, 0, hidden)
            r.get(handle.restore.remote(tables, rng, hidden))
            handles.append(handle)
        self.workers = handles
        self.call, self.gather = _ray_call, r.get


def local_call(worker: Worker, method: str, *args: Any) -> Any:
    return getattr(worker, method)(*args)


def parallel_tables(trainer: Any, workers: int, *, ray: bool) -> ParallelTables:
    """``workers`` workers of ``trainer.config.tables`` tables each, seeded apart, in-process
    or as Ray actors; the trainer's own tables are left out (they are replaced)."""
    c = trainer.config
    args = [
        (c.make_env, c.tables, trainer.league, (c.seed + 1) * 1000 + k, list(c.hidden))
        for k in range(workers)
    ]
    if not ray:
        return ParallelTables([Worker(*a) for a in args], trainer.league, local_call, list)
    r = require_ray()
    if not r.is_initialized():
        r.init()
    remote = r.remote(Worker)
    handles = [remote.remote(*a) for a in args]
    return ParallelTables(handles, trainer.league, _ray_call, r.get)


def _ray_call(worker: Any, method: str, *args: Any) -> Any:
    return getattr(worker, method).remote(*args)
