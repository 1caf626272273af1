"""Win share of a policy against a bot, on fixed deals: the points of the learning curves.

The policy (numpy, its most likely legal action, as the ``policy`` bot plays) takes one seat of
each game, the bot ``spec`` every other seat; the batched env plays the deals ``seed``,
``seed + 1``... (``tables`` at once, autoreset), the seat of the policy turning with each
game. Deals are independent, so the interval is the normal one over games (95%).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from sakura.rl.policy import PolicyNet
from sakura.rl.selfplay.seating import BOT, BotTables, Seating

EVAL_SEED = 10**15  # far above every training deal (a run's tables count up from (seed + 1) * 10**9)


@dataclass(frozen=True)
class Share:
    """The policy's mean win share over ``games`` games; ``ratio`` is it over the fair share."""

    share: float
    low: float
    high: float
    games: int
    players: int

    @property
    def ratio(self) -> float:
        return self.share * self.players

    def __str__(self) -> str:
        p = self.players
        return (
            f"{self.ratio:.2f}× fair share ({self.low * p:.2f}–{self.high * p:.2f}), "
            f"win share {self.share:.3f}, {self.games} games"
        )


def win_share(net: PolicyNet, make_env: Any, spec: str, games: int, *, seed: int = EVAL_SEED) -> Share:
    """``net`` in one seat against ``spec`` in the others over ``games`` deals."""
    tables = max(1, min(games, 64))
    env = make_env(tables)
    players, wait = env.players, env.wait
    bots = BotTables(env)
    obs, mask = env.reset(seed=seed)
    played = np.zeros(tables, dtype=np.int64)  # games each table has begun
    quota = np.array([len(range(i, games, tables)) for i in range(tables)])
    seatings: list[Seating] = []
    for i in range(tables):
        seatings.append(_seat(bots, players, spec, i, 0, seed=seed))
        bots.begin(seatings[i], i)
    done = np.zeros(tables, dtype=bool)
    ended = np.zeros(tables, dtype=bool)
    shares: list[float] = []
    while len(shares) < games:
        legal = mask[:, :, :wait] != 0
        actions = mask.argmax(axis=2)
        seat = np.array([int(np.flatnonzero(s.learner)[0]) for s in seatings])
        rows = np.arange(tables)
        chooses = (legal[rows, seat].sum(axis=1) >= 2) & ~ended & ~done
        if chooses.any():
            t = rows[chooses]
            actions[t, seat[t]] = net.best(obs[t, seat[t]], legal[t, seat[t]])
        for i in range(tables):
            if not ended[i] and not done[i]:
                bots.act(seatings[i], actions, mask, i)
                bots.follow(seatings[i], actions, i)
        was_ended = ended
        obs, mask, _, terminated = env.step(actions)
        for i in np.flatnonzero(was_ended & ~done).tolist():
            bots.begin(seatings[i], int(i))
        for i in np.flatnonzero(terminated & ~done).tolist():
            shares.append(float(env.games.returns[i, seat[i]]))
            played[i] += 1
            if played[i] >= quota[i]:
                done[i] = True
            else:
                seatings[i] = _seat(bots, players, spec, int(i), int(played[i]), seed=seed)
        ended = terminated.copy()
    x = np.array(shares[:games])
    half = 1.96 * float(x.std(ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else 0.0
    mean = float(x.mean())
    return Share(mean, max(0.0, mean - half), min(1.0, mean + half), len(x), players)


def _seat(bots: BotTables, players: int, spec: str, table: int, game: int, *, seed: int) -> Seating:
    learner = np.zeros(players, dtype=bool)
    learner[(table + game) % players] = True
    seating = Seating(BOT, learner, spec)
    bots.sit(seating, spec, table, seed + 7919 * table + game)
    return seating
