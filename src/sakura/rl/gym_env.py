"""Gymnasium: one seat against bots (``SakuraSolo-v0``), for single-agent RL.

The learner plays ``seat`` (or a seat drawn at each reset); every other seat is a bot from
``sakura.bots.make_bot`` (``"random"``, ``"greedy"``, ``"mcts:50"``...), acting from its own
view. A step is one decision of the learner: a card to play or a choice to answer; the bots
act in between (in card selection they choose too, but cannot see the learner's card, nor it
theirs). The action mask is in ``info["action_mask"]`` and from :meth:`action_masks` (the
name ``sb3_contrib``'s ``MaskablePPO`` looks for). Rewards are the ParallelEnv's for the
learner's seat, summed over the bots' moves in between (see ``docs/rl.md``). An action
outside the mask raises ``ValueError`` and changes nothing (``illegal="raise"``, the default;
``"replace"`` and ``"penalize"`` play the lowest legal id instead). Once the game is over the
mask allows every id, so that vector envs' next-step autoreset works with masked sampling.

>>> import gymnasium
>>> import sakura.rl
>>> env = gymnasium.make("SakuraSolo-v0", config={"players": 3}, opponents="random")
>>> obs, info = env.reset(seed=1)
>>> obs.shape, info["action_mask"].shape, int(info["action_mask"].sum())
((527,), (62,), 5)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from sakura.bots import Bot, make_bot
from sakura.engine import Game
from sakura.rl.core import (
    ILLEGAL_PENALTY,
    applier,
    check_illegal_mode,
    check_render_mode,
    env_metadata,
    legal_or_replace,
    new_state,
    resolve_game,
)
from sakura.rl.encoding import MASK_DTYPE, OBS_DTYPE, encoder_for, relative_rewards

ENV_ID = "SakuraSolo-v0"


class SakuraSoloEnv(gymnasium.Env[np.ndarray, np.int64]):
    """``opponents``: one bot spec for every other seat, or a list of specs, one per other
    seat in seat order. ``seat``: the learner's seat, or ``None`` to draw it at each reset."""

    metadata: dict[str, Any] = env_metadata()

    def __init__(
        self,
        game: str | Game[Any] = "sakura",
        config: Mapping[str, Any] | None = None,
        *,
        opponents: str | Sequence[str] = "random",
        seat: int | None = None,
        render_mode: str | None = None,
        score_weight: float = 1.0,
        illegal: str = "raise",
    ) -> None:
        self.game = resolve_game(game, config)
        self.encoder = encoder_for(self.game)
        n = self.game.num_players
        specs = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != n - 1:
            raise ValueError(f"{n - 1} opponents needed for {n} players, got {len(specs)}: {specs}")
        for spec in specs:  # fail now on a bad spec, not at the first reset
            make_bot(spec, self.game, seed=0)
        self.opponents = specs
        if seat is not None and not 0 <= seat < n:
            raise ValueError(f"seat {seat} does not exist in a {n}-player game")
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.render_mode = check_render_mode(render_mode)
        self.score_weight = float(score_weight)
        self.illegal = check_illegal_mode(illegal)
        self.observation_space = spaces.Box(0.0, 1.0, (self.encoder.size,), dtype=OBS_DTYPE)
        self.action_space = spaces.Discrete(self.encoder.num_actions)
        self._state: Any = None
        self._bots: dict[int, Bot] = {}
        self._legal: list[int] = []
        self._mask = np.zeros(self.encoder.num_actions, dtype=MASK_DTYPE)
        self._scores: tuple[float, ...] = ()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game: its deal, the learner's seat (if not fixed) and the bots' seeds are
        drawn from the env's generator (``reset(seed=s)`` reseeds it)."""
        super().reset(seed=seed)
        rng = self.np_random
        self.game_seed = int(rng.integers(2**62))
        n = self.game.num_players
        self.seat = self.fixed_seat if self.fixed_seat is not None else int(rng.integers(n))
        others = [p for p in range(n) if p != self.seat]
        self._bots = {
            p: make_bot(spec, self.game, seed=int(rng.integers(2**31)))
            for p, spec in zip(others, self.opponents, strict=True)
        }
        self._state = new_state(self.game, self.game_seed)
        self._apply = applier(self.game, self._state)
        view = self._state.view(self.seat)
        self._scores = tuple(self.encoder.scores(view))
        view = self._play_bots()
        obs, info = self._observe(view)
        return obs, info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._state is None or self._state.is_terminal():
            raise RuntimeError("the game is over: call reset() to start another")
        who = f"seat {self.seat}"
        chosen, replaced = legal_or_replace(self.encoder, self._legal, action, who, self.illegal)
        self._apply(self.seat, self.encoder.actions[chosen])
        view = self._play_bots()
        obs, info = self._observe(view)
        scores = tuple(self.encoder.scores(view))
        rewards = relative_rewards(
            self._scores, scores, view.outcome, self.encoder.score_scale, self.score_weight
        )
        self._scores = scores
        reward = float(rewards[self.seat])
        if replaced:
            info["illegal_action"] = int(action)
            if self.illegal == "penalize":
                reward -= ILLEGAL_PENALTY
        terminated = view.outcome is not None
        if terminated:
            info["winners"] = view.outcome.winners
            info["won"] = self.seat in view.outcome.winners
        return obs, reward, terminated, False, info

    def _play_bots(self) -> Any:
        """Let the bots act until the learner must decide or the game ends; returns the
        learner's view then."""
        state, seat = self._state, self.seat
        while True:
            current = state.current_players()
            bots = [p for p in current if p != seat]
            if not bots:
                return state.view(seat)
            for p in bots:
                self._apply(p, self._bots[p].act(state.view(p)))

    def _observe(self, view: Any) -> tuple[np.ndarray, dict[str, Any]]:
        """The observation and ``info``. Once the game is over the mask allows **every** id:
        no action is legal any more, but a vector env's next-step autoreset feeds the next
        action to a reset that ignores it, and the usual loop samples it from this mask (an
        all-zero mask would crash it: ``docs/rl.md``, *Vector envs and autoreset*)."""
        self._legal = self.encoder.legal_ids(view)
        if view.outcome is not None:
            mask = np.ones(self.encoder.num_actions, dtype=MASK_DTYPE)
        else:
            mask = np.zeros(self.encoder.num_actions, dtype=MASK_DTYPE)
            mask[self._legal] = 1
        self._mask = mask
        return self.encoder.encode(view), {"action_mask": mask, "seat": self.seat}

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans (``sb3_contrib.MaskablePPO`` calls this)."""
        return self._mask.astype(bool)

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self._state is None:
            return None
        return self.encoder.describe(self._state.view(None))

    def close(self) -> None:
        self._state = None


def register() -> None:
    """Make ``gymnasium.make("SakuraSolo-v0", ...)`` build a :class:`SakuraSoloEnv`."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="sakura.rl.gym_env:SakuraSoloEnv")


register()
