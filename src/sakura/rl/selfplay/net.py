"""The masked policy/value network (PyTorch, at train time only) and its numpy export.

Two perceptrons of the same observation, ``tanh`` between layers: the **actor** gives one logit
per action id (illegal ids are masked out before the softmax), the **critic** one value. They
share nothing, so the actor exports to exactly the layers :class:`~sakura.rl.policy.PolicyNet`
plays, and the critic rides along as its value head.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import torch
from torch import nn

from sakura.rl.policy import PolicyNet
from sakura.rl.selfplay.rollout import sample_masked


def perceptron(sizes: list[int], last_gain: float) -> nn.Sequential:
    layers: list[nn.Module] = []
    for i, (a, b) in enumerate(itertools.pairwise(sizes)):
        linear = nn.Linear(a, b)
        last = i == len(sizes) - 2
        nn.init.orthogonal_(linear.weight, gain=last_gain if last else float(np.sqrt(2)))
        nn.init.zeros_(linear.bias)
        layers.append(linear)
        if not last:
            layers.append(nn.Tanh())
    return nn.Sequential(*layers)


class ActorCritic(nn.Module):  # type: ignore[misc, unused-ignore]  # Any where torch is not installed
    def __init__(self, obs_size: int, num_actions: int, hidden: list[int]) -> None:
        super().__init__()
        self.obs_size, self.num_actions, self.hidden = obs_size, num_actions, list(hidden)
        self.actor = perceptron([obs_size, *hidden, num_actions], 0.01)
        self.critic = perceptron([obs_size, *hidden, 1], 1.0)

    def masked_logits(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        logits: torch.Tensor = self.actor(obs).masked_fill(~mask, -1e9)
        return logits

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        value: torch.Tensor = self.critic(obs).squeeze(-1)
        return value


class TorchLearner:
    """The network as the tables use it (:class:`~.rollout.Learner`): numpy in, numpy out, the
    sampling drawn from the caller's generator so a run replays from its seed."""

    def __init__(self, model: ActorCritic) -> None:
        self.model = model

    @torch.no_grad()  # type: ignore[untyped-decorator, unused-ignore]  # typed only where torch is installed
    def act(
        self, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        x = torch.from_numpy(np.ascontiguousarray(obs))
        m = torch.from_numpy(np.ascontiguousarray(mask))
        logits = self.model.masked_logits(x, m)
        logp_all = torch.log_softmax(logits, dim=-1).numpy()
        actions = sample_masked(logits.numpy(), mask, rng)
        logp = logp_all[np.arange(len(actions)), actions]
        return actions, logp.astype(np.float32), self.model.value(x).numpy()

    @torch.no_grad()  # type: ignore[untyped-decorator, unused-ignore]
    def value(self, obs: np.ndarray) -> np.ndarray:
        values: np.ndarray = self.model.value(torch.from_numpy(np.array(obs))).numpy()
        return values


def _layers(seq: nn.Sequential) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    linears = [m for m in seq if isinstance(m, nn.Linear)]
    weights = tuple(lin.weight.detach().numpy().T.astype(np.float32).copy() for lin in linears)
    biases = tuple(lin.bias.detach().numpy().astype(np.float32).copy() for lin in linears)
    return weights, biases


def load_policy(model: ActorCritic, net: PolicyNet) -> None:
    """Set ``model``'s actor and critic to a policy file's layers (its value head for the
    critic): a warm start from an exported policy. Refuses, naming what differs, a file whose
    layout or sizes are not the model's, or one without a value head."""
    if not net.value_weights:
        raise ValueError(
            f"the {net.meta.get('table', '?')} policy has no value head to start the critic from"
        )
    for name, seq, weights, biases in (
        ("actor", model.actor, net.weights, net.biases),
        ("value head", model.critic, net.value_weights, net.value_biases),
    ):
        linears = [m for m in seq if isinstance(m, nn.Linear)]
        want = [tuple(lin.weight.shape[::-1]) for lin in linears]
        have = [tuple(w.shape) for w in weights]
        if want != have or [b.shape for b in biases] != [(lin.out_features,) for lin in linears]:
            raise ValueError(f"the policy's {name} layers are {have}, this network's are {want}")
        with torch.no_grad():
            for lin, w, b in zip(linears, weights, biases, strict=True):
                lin.weight.copy_(torch.from_numpy(np.ascontiguousarray(w.T, dtype=np.float32)))
                lin.bias.copy_(torch.from_numpy(np.asarray(b, dtype=np.float32)))


def to_numpy(model: ActorCritic, meta: dict[str, Any], *, value: bool = True) -> PolicyNet:
    """The network as the numpy ``PolicyNet`` (float32; :meth:`PolicyNet.save` stores float16)."""
    weights, biases = _layers(model.actor)
    if not value:
        return PolicyNet(weights, biases, meta)
    value_weights, value_biases = _layers(model.critic)
    return PolicyNet(weights, biases, meta, value_weights, value_biases)
