"""Playing a batched env's tables for a number of steps, keeping the learner's decisions.

:class:`Tables` owns the env, each table's :class:`~.seating.Seating` and the bots' reference
games; :meth:`Tables.play` steps every table ``steps`` times: the learner's seats act by the
learner's network (sampled from its masked softmax), a past version's seats by that version
(numpy, sampled the same way), the bots' seats by the bots. It returns a :class:`Rollout`:
every learner decision (observation, mask, action, its log-probability and value) and, per step
and seat, the rewards and game ends that :func:`~.ppo.advantages` needs.

A "decision" is a learner seat whose mask allows at least two actions; the rewards of the steps
where it waits (or had no choice) belong to its previous decision.

Everything here pickles (the env's games, the seatings, bots and reference games), so a
checkpoint holds the tables mid-game and a resumed run continues the very same games. A batched
env's buffers are views of one another, which pickling would split; so the env is rebuilt on
loading and given the pickled games (its ``observe`` then writes the observations afresh).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from sakura.rl.selfplay.league import League
from sakura.rl.selfplay.seating import BOT, PAST, SELF, BotTables, Seating


class Learner(Protocol):
    """The network being trained, as the tables need it."""

    def act(
        self, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Sampled actions, their log-probabilities and the values, one a row."""
        ...

    def value(self, obs: np.ndarray) -> np.ndarray:
        """The value of each row's observation."""
        ...


@dataclass
class Rollout:
    """The learner's decisions of ``steps`` steps of every table.

    ``obs``, ``mask``, ``actions``, ``logp``, ``values``: one row a decision (``mask`` without
    ``wait``); ``where``: ``(steps, N, players)`` the decision's row, ``-1`` where none;
    ``rewards``: ``(steps, N, players)``; ``ended``: ``(steps, N)``; ``last_values``: the
    value of every seat's observation after the last step (to bootstrap)."""

    obs: np.ndarray
    mask: np.ndarray
    actions: np.ndarray
    logp: np.ndarray
    values: np.ndarray
    where: np.ndarray
    rewards: np.ndarray
    ended: np.ndarray
    last_values: np.ndarray
    games: int  # games that ended in these steps


def sample_masked(logits: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One action a row from the softmax of ``logits`` over the legal ids (Gumbel-max)."""
    gumbel = -np.log(-np.log(rng.random(logits.shape)))
    chosen: np.ndarray = np.argmax(np.where(mask, logits + gumbel, -np.inf), axis=-1)
    return chosen


class Tables:
    """N tables of a batched env (``make_env(N)``), seated from a league."""

    def __init__(
        self, make_env: Callable[[int], Any], tables: int, league: League, rng: np.random.Generator, seed: int
    ) -> None:
        self.make_env = make_env
        self.env = env = make_env(tables)
        self.league = league
        self.bots = BotTables(env)
        self.players = env.players
        self.wait = env.wait
        self.obs, self.mask = env.reset(seed=seed)
        self.ended = np.zeros(env.num_envs, dtype=bool)
        self.seatings = [self._seat(i, rng) for i in range(env.num_envs)]
        for i, s in enumerate(self.seatings):
            if s.kind == BOT:
                self.bots.begin(s, i)

    def __getstate__(self) -> dict[str, Any]:
        state = {k: v for k, v in self.__dict__.items() if k not in ("env", "bots", "obs", "mask")}
        state["env_state"] = (self.env.num_envs, self.env.games, self.env._ended, self.env.rewards)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        num, games, ended, rewards = state.pop("env_state")
        self.__dict__.update(state)
        self.env = self.make_env(num)
        _restore_games(self.env.games, games)
        self.env._ended[:] = ended
        self.env.rewards[:] = rewards
        self.obs, self.mask = self.env.observe()
        self.bots = BotTables(self.env)

    def _seat(self, table: int, rng: np.random.Generator) -> Seating:
        kind, opponent = self.league.draw(rng)
        learner = np.zeros(self.players, dtype=bool)
        if kind == "self":
            learner[:] = True
            return Seating(SELF, learner)
        learner[int(rng.integers(self.players))] = True
        if kind == "past":
            return Seating(PAST, learner, opponent)
        seating = Seating(BOT, learner, opponent)
        self.bots.sit(seating, str(opponent), table, int(rng.integers(2**31)))
        return seating

    def learner_flags(self) -> np.ndarray:
        return np.stack([s.learner for s in self.seatings])

    def play(self, learner: Learner, steps: int, rng: np.random.Generator) -> Rollout:
        n, p, wait = self.env.num_envs, self.players, self.wait
        rows: dict[str, list[np.ndarray]] = {k: [] for k in ("obs", "mask", "actions", "logp", "values")}
        where = np.full((steps, n, p), -1, dtype=np.int64)
        rewards = np.zeros((steps, n, p), dtype=np.float32)
        ended = np.zeros((steps, n), dtype=bool)
        count, games = 0, 0
        for t in range(steps):
            obs, mask = self.obs, self.mask
            legal = mask[:, :, :wait] != 0
            flags = self.learner_flags()
            decides = flags & (legal.sum(axis=2) >= 2)
            actions = mask.argmax(axis=2)  # the only legal id where there is one (often ``wait``)
            ti, si = np.nonzero(decides)
            if len(ti):
                o, m = obs[ti, si], legal[ti, si]
                a, lp, v = learner.act(o, m, rng)
                actions[ti, si] = a
                for key, value in zip(rows, (o.copy(), m, a, lp, v), strict=True):
                    rows[key].append(value)
                where[t, ti, si] = np.arange(count, count + len(ti))
                count += len(ti)
            self._opponents(actions, obs, mask, legal, rng)
            for i, s in enumerate(self.seatings):
                if s.kind == BOT and not self.ended[i]:
                    self.bots.follow(s, actions, i)
            self.obs, self.mask, r, terminated = self.env.step(actions)
            rewards[t] = r
            ended[t] = terminated
            for i in np.flatnonzero(self.ended).tolist():  # these tables began their next game
                if self.seatings[i].kind == BOT:
                    self.bots.begin(self.seatings[i], int(i))
            for i in np.flatnonzero(terminated).tolist():
                games += 1
                self._finish(int(i), rng)
            self.ended = terminated.copy()
        flat = {k: (np.concatenate(v) if v else np.zeros(0)) for k, v in rows.items()}
        last = learner.value(self.obs.reshape(n * p, -1))
        return Rollout(
            flat["obs"], flat["mask"], flat["actions"], flat["logp"], flat["values"],
            where, rewards, ended, last.reshape(n, p), games,
        )  # fmt: skip

    def _opponents(
        self,
        actions: np.ndarray,
        obs: np.ndarray,
        mask: np.ndarray,
        legal: np.ndarray,
        rng: np.random.Generator,
    ) -> None:
        """The past versions' and the bots' actions, written into ``actions``."""
        by_member: dict[int, tuple[Any, list[int]]] = {}
        for i, s in enumerate(self.seatings):
            if self.ended[i]:
                continue
            if s.kind == PAST:
                by_member.setdefault(id(s.opponent), (s.opponent, []))[1].append(i)
            elif s.kind == BOT:
                self.bots.act(s, actions, mask, i)
        for member, tables in by_member.values():
            t = np.array(tables)
            seats = ~np.stack([self.seatings[i].learner for i in tables])
            choose = seats & (legal[t].sum(axis=2) >= 2)
            ti, si = np.nonzero(choose)
            if len(ti):
                rows_t = t[ti]
                logits = member.net.logits(obs[rows_t, si])
                actions[rows_t, si] = sample_masked(logits, legal[rows_t, si], rng)

    def _finish(self, table: int, rng: np.random.Generator) -> None:
        """Record the ended game's result in the league and seat the table's next game."""
        s = self.seatings[table]
        if s.kind != SELF:
            share = float(self.env.games.returns[table, : self.players][s.learner].mean())
            self.league.record("past" if s.kind == PAST else "bot", s.opponent, share)
        self.seatings[table] = self._seat(table, rng)


def _restore_games(live: Any, saved: Any) -> None:
    """Copy a checkpoint's tables into the env's own arrays, in place: the compiled backend
    holds views of those arrays (and the observations it last wrote), so the env's ``games``
    object must stay the one it was built with."""
    for name, value in vars(saved).items():
        current = getattr(live, name, None)
        if isinstance(value, np.ndarray) and isinstance(current, np.ndarray) and current.shape == value.shape:
            current[...] = value
        else:
            setattr(live, name, value)
