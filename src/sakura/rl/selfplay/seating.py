"""Who plays each seat of a batched env's tables, and the bots' seats through the engine.

A batched env (``SakuraBatchEnv``, ``CardsBatchEnv``) steps every seat of N tables at once
from arrays. The learner and its past versions are networks, so they act on those arrays
directly. A bot of ``sakura.bots`` decides from a player's :class:`~sakura.engine.View`, which
the arrays do not hold: a table with bots also keeps the **reference engine's game of the same
seed** (``env.seeds[i]``), applies every action of the table to it, and asks each bot for its
seat's action from that game's view. The batched engine is held identical to the reference by
its differential test, so both games are the same game; bots cost their usual time a decision,
which is why only a share of the tables seat them.

A table's seating changes only between its games (when the env reports it ended), so a game is
played from start to end by the same players.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sakura.bots import make_bot

SELF = 0  # every seat is the learner (pure self-play)
PAST = 1  # one learner seat, the others a past version of the learner (from the league)
BOT = 2  # one learner seat, the others a bot of ``sakura.bots``
KIND_NAMES = ("self", "past", "bot")


@dataclass
class Seating:
    """One table's players for its current game: ``learner[p]`` whether seat ``p`` is the
    learner; ``opponent`` the league index (``PAST``) or the bot spec (``BOT``)."""

    kind: int
    learner: np.ndarray
    opponent: int | str | None = None
    bots: dict[int, Any] = field(default_factory=dict)  # seat -> bot (``BOT`` tables)
    state: Any = None  # the reference engine's game (``BOT`` tables)


class BotTables:
    """The reference games and bots of the tables that seat bots, kept in step with the env."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self.game = env.game
        self.encoder = env.encoder

    def sit(self, seating: Seating, spec: str, table: int, seed: int) -> None:
        """Seat ``spec`` bots at the non-learner seats (each with its own seed); the game itself
        begins with :meth:`begin` once the env has dealt it."""
        seating.bots = {
            p: make_bot(spec, self.game, seed * 8 + p)
            for p in range(len(seating.learner))
            if not seating.learner[p]
        }
        seating.state = None

    def begin(self, seating: Seating, table: int) -> None:
        """The reference game of the deal the env's ``table`` plays now."""
        seating.state = self.game.new_initial_state(self.env.seeds[table], events=False)

    def act(self, seating: Seating, actions: np.ndarray, mask: np.ndarray, row: int) -> None:
        """Write the bots' actions of table ``row`` into ``actions`` (seats that must act)."""
        state = seating.state
        wait = self.env.wait
        for p in state.current_players():
            bot = seating.bots.get(p)
            if bot is None or not mask[row, p, :wait].any():
                continue
            actions[row, p] = self.encoder.action_id(str(bot.act(state.view(p))))

    def follow(self, seating: Seating, actions: np.ndarray, row: int) -> None:
        """Apply the table's step to its reference game (before the env's arrays move on)."""
        state = seating.state
        for p in state.current_players():
            state.apply_action(p, self.encoder.actions[int(actions[row, p])])
