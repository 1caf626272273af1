"""Baseline agents for the PettingZoo env: the platform's bots and the shipped policy, each one
callable ``agent(agent_id, observation) -> action id``, so that a researcher's own agent can be
measured against them in the same loop (``benchmarks/rl_baselines.py`` does).

* :class:`BotAgent` plays a bot of ``sakura.bots`` (``random``, ``greedy``, ``mcts:300``...):
  it asks the env for the agent's own view (``env.view(agent)``), what its observation encodes.
* :class:`PolicyAgent` plays the shipped policy from the observation and mask alone.

Both answer the ``wait`` id whenever the mask allows only it (another agent is deciding).

>>> from sakura.rl.pettingzoo_env import SakuraParallelEnv
>>> env = SakuraParallelEnv("sakura", {"players": 4})
>>> observations, _ = env.reset(seed=3)
>>> agents = {a: make_agent(spec, env, seed=i) for i, (a, spec) in
...           enumerate(zip(env.agents, ["random", "greedy", "mcts:20", "policy"], strict=True))}
>>> while env.agents:
...     observations = env.step({a: agents[a](a, o) for a, o in observations.items()})[0]
>>> env._state.is_terminal()
True
"""

from __future__ import annotations

import numpy as np

from sakura.bots import make_bot, parse_spec
from sakura.rl.pettingzoo_env import SakuraParallelEnv
from sakura.rl.policy import load_policy


class BotAgent:
    """A bot of ``sakura.bots`` acting for one PettingZoo agent, from that agent's view."""

    def __init__(self, spec: str, env: SakuraParallelEnv, seed: int) -> None:
        self.env = env
        self.bot = make_bot(spec, env.game, seed)
        self.spec = self.bot.spec

    def __call__(self, agent: str, observation: dict[str, np.ndarray]) -> int:
        mask = observation["action_mask"]
        if mask[self.env.wait]:
            return self.env.wait
        return self.env.encoder.action_id(str(self.bot.act(self.env.view(agent))))


class PolicyAgent:
    """The shipped policy of the env's table, acting from the observation and mask only."""

    spec = "policy"

    def __init__(self, env: SakuraParallelEnv) -> None:
        self.env = env
        self.net = load_policy(env.game)

    def __call__(self, agent: str, observation: dict[str, np.ndarray]) -> int:
        mask = observation["action_mask"]
        if mask[self.env.wait]:
            return self.env.wait
        return int(self.net.best(observation["observation"], mask[: self.env.wait]))


def make_agent(spec: str, env: SakuraParallelEnv, seed: int) -> BotAgent | PolicyAgent:
    """The agent a bot spec names (``policy``: the shipped policy, from observations)."""
    name, limit, options = parse_spec(spec)
    if name == "policy" and limit is None and not options:
        return PolicyAgent(env)
    return BotAgent(spec, env, seed)
