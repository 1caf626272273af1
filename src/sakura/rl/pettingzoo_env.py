"""PettingZoo: every game of the platform as a ``ParallelEnv`` (and, converted, an AEC env).

One ``step`` is one decision point of the table:

* **card selection** (Sakura): every agent acts at once; the cards are revealed and resolve
  inside the step, up to the next choice or the next round;
* **a mid-resolution choice** (forward or back), or a turn of the card game: only the deciding
  agent acts. The others' actions are **ignored**: their masks allow only the extra ``wait``
  id (the last one), and whatever they send, legal or not, changes nothing.

An agent that must act and sends an id outside its mask gets a ``ValueError`` naming the
action and its legal ones (``illegal="raise"``, the default: nothing is applied), or the
lowest legal id instead (``"replace"``; ``infos[agent]["illegal_action"]`` holds what it
sent), or that and a penalty on its reward (``"penalize"``). Rewards are described in
``docs/rl.md`` (score changes relative to the others, normalised, and the share of the win at
the end).

>>> env = parallel_env(game="sakura", config={"players": 3})
>>> obs, infos = env.reset(seed=7)
>>> env.agents
['player_0', 'player_1', 'player_2']
>>> obs["player_0"]["observation"].shape, int(obs["player_0"]["action_mask"].sum())
((527,), 5)
>>> first = {a: int(o["action_mask"].argmax()) for a, o in obs.items()}
>>> obs, rewards, terminations, truncations, infos = env.step(first)
>>> sorted(rewards) == env.agents and not any(terminations.values())
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv
from pettingzoo.utils import parallel_to_aec
from pettingzoo.utils.env import AECEnv

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
from sakura.rl.encoding import MASK_DTYPE, OBS_DTYPE, encoder_for, mark, relative_rewards

AgentID = str
Obs = dict[str, np.ndarray]


class SakuraParallelEnv(ParallelEnv[AgentID, Obs, int]):  # type: ignore[misc]
    """``game`` is a name (``"sakura"``, ``"sakura-cards"``) with its ``config``, or a game
    object; ``score_weight`` scales the score part of the rewards (0 leaves only the win)."""

    metadata: ClassVar[dict[str, Any]] = env_metadata(name="sakura_v0", is_parallelizable=True)

    def __init__(
        self,
        game: str | Game[Any] = "sakura",
        config: Mapping[str, Any] | None = None,
        *,
        render_mode: str | None = None,
        score_weight: float = 1.0,
        illegal: str = "raise",
    ) -> None:
        self.game = resolve_game(game, config)
        self.encoder = encoder_for(self.game)
        self.render_mode = check_render_mode(render_mode)
        self.score_weight = float(score_weight)
        self.illegal = check_illegal_mode(illegal)
        n = self.game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents: list[AgentID] = []
        self.wait = self.encoder.num_actions  # the id of "wait": legal only when not deciding
        size = self.encoder.num_actions + 1
        self._observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), dtype=OBS_DTYPE),
                    "action_mask": spaces.Box(0, 1, (size,), dtype=MASK_DTYPE),
                }
            )
            for agent in self.possible_agents
        }
        self._action_spaces = {agent: spaces.Discrete(size) for agent in self.possible_agents}
        self._seeds = np.random.default_rng()
        self._state: Any = None
        self._legal: list[list[int]] = [[] for _ in range(n)]
        self._scores: tuple[float, ...] = ()

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: AgentID) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: AgentID) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    # ------------------------------------------------------------------ the loop

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[AgentID, Obs], dict[AgentID, dict[str, Any]]]:
        """A new game. ``reset(seed=s)`` plays the engine's game ``s`` (the deal of
        ``new_initial_state(s)``); without a seed the next game's seed is drawn from a
        generator seeded by the last seed given (or by the operating system)."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            game_seed = int(self._seeds.integers(2**62))
        self.game_seed = game_seed
        self._state = new_state(self.game, game_seed)
        self._apply = applier(self.game, self._state)
        self.agents = self.possible_agents[:]
        observations, scores, _ = self._observe()
        self._scores = scores
        return observations, {agent: {} for agent in self.agents}

    def step(
        self, actions: Mapping[AgentID, Any]
    ) -> tuple[
        dict[AgentID, Obs],
        dict[AgentID, float],
        dict[AgentID, bool],
        dict[AgentID, bool],
        dict[AgentID, dict[str, Any]],
    ]:
        if not self.agents:
            raise RuntimeError("the game is over: call reset() to start another")
        state = self._state
        infos: dict[AgentID, dict[str, Any]] = {agent: {} for agent in self.agents}
        chosen: list[tuple[int, int]] = []
        penalized: list[AgentID] = []
        for seat in state.current_players():  # every action is checked before any is applied
            agent = self.possible_agents[seat]
            if agent not in actions:
                raise ValueError(f"{agent} must act now (it is among the current players)")
            action, replaced = legal_or_replace(
                self.encoder, self._legal[seat], actions[agent], agent, self.illegal
            )
            if replaced:
                infos[agent]["illegal_action"] = int(actions[agent])
                penalized.append(agent)
            chosen.append((seat, action))
        for seat, action in chosen:
            self._apply(seat, self.encoder.actions[action])
        observations, scores, outcome = self._observe()
        values = relative_rewards(self._scores, scores, outcome, self.encoder.score_scale, self.score_weight)
        self._scores = scores
        rewards = dict(zip(self.agents, values, strict=True))
        if self.illegal == "penalize":
            for agent in penalized:
                rewards[agent] -= ILLEGAL_PENALTY
        done = outcome is not None
        terminations = dict.fromkeys(self.agents, done)
        truncations = dict.fromkeys(self.agents, False)
        if done:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _observe(self) -> tuple[dict[AgentID, Obs], tuple[float, ...], Any]:
        """Every agent's observation, each from its own view only; the public scores and
        the outcome, as the views show them."""
        views = self.encoder.views(self._state)
        observations = self._encode(views)
        view = views[-1]
        return observations, tuple(self.encoder.scores(view)), view.outcome

    def _encode(self, views: Any) -> dict[AgentID, Obs]:
        """The observations and action masks of every seat's view (and each seat's legal ids)."""
        encoder, wait = self.encoder, self.wait
        matrix = encoder.encode_all(views)
        legal = [encoder.legal_ids(view) for view in views]
        self._legal = legal
        masks = np.zeros((len(views), wait + 1), dtype=MASK_DTYPE)
        mark(masks.reshape(-1).data, wait + 1, [ids or [wait] for ids in legal])
        return {
            agent: {"observation": o, "action_mask": m}
            for agent, o, m in zip(self.possible_agents, list(matrix), list(masks), strict=True)
        }

    def observe(self, agent: AgentID) -> Obs:
        """``agent``'s observation now (what the last ``reset``/``step`` returned for it)."""
        seat = self.possible_agents.index(agent)
        view = self._state.view(seat)
        mask = np.zeros(self.wait + 1, dtype=MASK_DTYPE)
        mask[self.encoder.legal_ids(view) or self.wait] = 1
        return {"observation": self.encoder.encode(view), "action_mask": mask}

    def view(self, agent: AgentID) -> Any:
        """``agent``'s own view of the game (``state.view(seat)``): what its observation
        encodes, for agents that reason over views, such as the bots of ``sakura.bots``
        (``sakura.rl.agents``). It holds nothing the agent may not see."""
        if self._state is None:
            raise RuntimeError("no game yet: call reset() first")
        return self._state.view(self.possible_agents.index(agent))

    # ------------------------------------------------------------------ the rest of the API

    def render(self) -> str | None:
        """``ansi``: the public board (a spectator's view) as a few lines of text."""
        if self.render_mode != "ansi" or self._state is None:
            return None
        return self.encoder.describe(self._state.view(None))

    def close(self) -> None:
        self._state = None


def parallel_env(**kwargs: Any) -> SakuraParallelEnv:
    """PettingZoo's usual constructor name: ``SakuraParallelEnv(**kwargs)``."""
    return SakuraParallelEnv(**kwargs)


def env(**kwargs: Any) -> AECEnv[AgentID, Obs, int]:
    """The same game as an AEC env (agents act one after another; PettingZoo's own
    ``parallel_to_aec`` conversion)."""
    return parallel_to_aec(SakuraParallelEnv(**kwargs))
