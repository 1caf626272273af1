"""A native batched Gymnasium ``VectorEnv``: N Sakura games against bots, stepped in one call.

``SakuraVectorEnv(num_envs=N, ...)`` takes :class:`~sakura.rl.gym_env.SakuraSoloEnv`'s
arguments and steps N of them per ``step(actions)``, returning stacked numpy arrays:
observations ``(N, size)`` float32, rewards, terminations and truncations ``(N,)``, and
``infos["action_mask"]`` ``(N, num_actions)`` int8 (also :meth:`action_masks`, booleans).
It agrees step for step with ``gymnasium.vector.SyncVectorEnv`` over N single envs on the
same seeds (``tests/rl/test_vector.py``), only without a wrapper per env, and with both of
Gymnasium 1.x's autoreset modes:

* ``autoreset_mode="next_step"`` (Gymnasium's default): the step that ends a game returns
  its final observation; the **next** step resets that game and ignores its action. The final
  step's mask allows every id, so the usual masked sampling loop never samples from an empty
  mask.
* ``"same_step"``: the step that ends a game resets it at once and returns the new game's
  observation and mask; the final ones are in ``infos["final_obs"]`` and
  ``infos["final_info"]`` (Gymnasium's names).

``reset(seed=s)`` seeds game ``i`` with ``s + i`` (as ``SyncVectorEnv`` does); a list gives
one seed per game. With ``illegal="raise"`` (the default) every game's action is checked
before any game moves, so the error leaves all N games as they were.

>>> env = SakuraVectorEnv(num_envs=3, config={"players": 4}, opponents="random")
>>> obs, infos = env.reset(seed=0)
>>> obs.shape, infos["action_mask"].shape, env.metadata["autoreset_mode"].value
((3, 627), (3, 62), 'NextStep')
>>> rng = np.random.default_rng(0)
>>> actions = [rng.choice(np.flatnonzero(m)) for m in infos["action_mask"]]
>>> obs, rewards, terminations, truncations, infos = env.step(actions)
>>> rewards.shape, terminations.dtype
((3,), dtype('bool'))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from sakura.engine import Game
from sakura.rl.core import env_metadata, legal_or_replace
from sakura.rl.gym_env import SakuraSoloEnv

MODES = {"next_step": AutoresetMode.NEXT_STEP, "same_step": AutoresetMode.SAME_STEP}


class SakuraVectorEnv(VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """``num_envs`` games of ``SakuraSoloEnv(game, config, opponents=..., seat=...,
    score_weight=..., illegal=...)``, batched."""

    def __init__(
        self,
        num_envs: int = 1,
        game: str | Game[Any] = "sakura",
        config: Mapping[str, Any] | None = None,
        *,
        opponents: str | Sequence[str] = "random",
        seat: int | None = None,
        score_weight: float = 1.0,
        illegal: str = "raise",
        autoreset_mode: str | AutoresetMode = "next_step",
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs is a positive whole number, not {num_envs!r}")
        mode = autoreset_mode if isinstance(autoreset_mode, AutoresetMode) else MODES.get(autoreset_mode)
        if mode not in MODES.values():
            raise ValueError(f"autoreset_mode is 'next_step' or 'same_step', not {autoreset_mode!r}")
        self.envs = [
            SakuraSoloEnv(
                game, config, opponents=opponents, seat=seat, score_weight=score_weight, illegal=illegal
            )
            for _ in range(num_envs)
        ]
        first = self.envs[0]
        self.game, self.encoder = first.game, first.encoder
        self.num_envs = num_envs
        self.autoreset_mode = mode
        self.metadata = env_metadata(autoreset_mode=mode)
        self.render_mode = None
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(first.observation_space, num_envs)
        self.action_space = batch_space(first.action_space, num_envs)
        self._obs = np.zeros((num_envs, first.encoder.size), dtype=first.observation_space.dtype)
        self._masks = np.zeros((num_envs, first.encoder.num_actions), dtype=np.int8)
        self._ended = np.zeros(num_envs, dtype=bool)  # next_step: reset at the next step

    def reset(
        self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if seed is None or isinstance(seed, int):
            seeds: list[int | None] = [None if seed is None else seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"{self.num_envs} seeds needed, got {len(seeds)}")
        infos: dict[str, Any] = {}
        for i, (env, s) in enumerate(zip(self.envs, seeds, strict=True)):
            self._obs[i], info = env.reset(seed=s, options=options)
            infos = self._add_info(infos, info, i)
        self._ended[:] = False
        return self._obs.copy(), self._with_masks(infos)

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"one action per game: shape ({self.num_envs},), not {actions.shape}")
        n = self.num_envs
        if self.envs[0].illegal == "raise":  # refuse before any game moves: an error changes nothing
            for i, env in enumerate(self.envs):
                if not self._ended[i]:
                    who = f"game {i} (seat {env.seat})"
                    legal_or_replace(env.encoder, env._legal, actions[i], who, "raise")
        rewards = np.zeros(n, dtype=np.float64)
        terminations = np.zeros(n, dtype=bool)
        truncations = np.zeros(n, dtype=bool)
        infos: dict[str, Any] = {}
        same_step = self.autoreset_mode is AutoresetMode.SAME_STEP
        for i, env in enumerate(self.envs):
            if self._ended[i]:  # next_step: this game ended last step; its action is ignored
                self._obs[i], info = env.reset()
            else:
                obs, rewards[i], terminations[i], truncations[i], info = env.step(actions[i])
                if same_step and (terminations[i] or truncations[i]):
                    infos = self._add_info(infos, {"final_obs": obs, "final_info": info}, i)
                    obs, info = env.reset()
                self._obs[i] = obs
            infos = self._add_info(infos, info, i)
        if not same_step:
            self._ended = terminations | truncations
        return self._obs.copy(), rewards, terminations, truncations, self._with_masks(infos)

    def _with_masks(self, infos: dict[str, Any]) -> dict[str, Any]:
        masks = self._masks
        for i, env in enumerate(self.envs):
            masks[i] = env._mask
        infos["action_mask"] = masks.copy()
        return infos

    def action_masks(self) -> np.ndarray:
        """Every game's legal actions now, as booleans ``(num_envs, num_actions)``."""
        return self._masks.astype(bool)

    def close_extras(self, **kwargs: Any) -> None:
        for env in self.envs:
            env.close()
