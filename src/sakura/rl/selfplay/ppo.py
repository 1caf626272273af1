"""Advantages over each seat's own decisions, and the clipped PPO update.

A seat's trajectory is its decisions only: the steps where it waits (another seat answers a
choice) or has a single legal action add their rewards to its previous decision, and the
discount ``gamma`` applies per decision. A game's end cuts the trajectory (nothing flows back
across it); the rollout's last observation bootstraps the unfinished games (GAE, ``lam``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from sakura.rl.selfplay.net import ActorCritic
from sakura.rl.selfplay.rollout import Rollout


@dataclass(frozen=True)
class PPOSettings:
    gamma: float = 0.995
    lam: float = 0.95
    clip: float = 0.2
    epochs: int = 3
    minibatch: int = 2048
    lr: float = 3e-4
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5


def advantages(r: Rollout, gamma: float, lam: float) -> tuple[np.ndarray, np.ndarray]:
    """GAE advantages and value targets of every decision row of ``r``."""
    steps = r.rewards.shape[0]
    adv = np.zeros(len(r.values), dtype=np.float32)
    next_value = r.last_values.astype(np.float64)
    next_adv = np.zeros_like(next_value)
    pending = np.zeros_like(next_value)
    values = r.values.astype(np.float64)
    for t in range(steps - 1, -1, -1):
        cut = r.ended[t][:, None]
        next_value = np.where(cut, 0.0, next_value)
        next_adv = np.where(cut, 0.0, next_adv)
        pending = np.where(cut, 0.0, pending) + r.rewards[t]
        ti, si = np.nonzero(r.where[t] >= 0)
        if len(ti):
            rows = r.where[t, ti, si]
            v = values[rows]
            delta = pending[ti, si] + gamma * next_value[ti, si] - v
            a = delta + gamma * lam * next_adv[ti, si]
            adv[rows] = a
            next_value[ti, si] = v
            next_adv[ti, si] = a
            pending[ti, si] = 0.0
    return adv, (adv + r.values).astype(np.float32)


def update(
    model: ActorCritic,
    optimizer: torch.optim.Optimizer,
    r: Rollout,
    settings: PPOSettings,
    rng: np.random.Generator,
) -> dict[str, float]:
    """Epochs of minibatch PPO on ``r``; the mean losses, KL and clip fraction."""
    adv, target = advantages(r, settings.gamma, settings.lam)
    obs = torch.from_numpy(r.obs)
    mask = torch.from_numpy(r.mask)
    actions = torch.from_numpy(r.actions.astype(np.int64))
    old_logp = torch.from_numpy(r.logp)
    # Advantages normalised over the whole rollout, not per minibatch: a last minibatch of one
    # row has no standard deviation (NaN), which once turned a whole network into NaN.
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    adv_t, target_t = torch.from_numpy(adv), torch.from_numpy(target)
    sums = {"policy": 0.0, "value": 0.0, "entropy": 0.0, "kl": 0.0, "clipped": 0.0}
    batches = 0
    for _ in range(settings.epochs):
        order = torch.from_numpy(rng.permutation(len(adv)))
        for start in range(0, len(order), settings.minibatch):
            b = order[start : start + settings.minibatch]
            logits = model.masked_logits(obs[b], mask[b])
            logp_all = torch.log_softmax(logits, dim=-1)
            logp = logp_all.gather(1, actions[b, None]).squeeze(1)
            probs = logp_all.exp()
            entropy = -(probs * logp_all.masked_fill(~mask[b], 0.0)).sum(-1).mean()
            a = adv_t[b]
            ratio = (logp - old_logp[b]).exp()
            policy_loss = -torch.min(ratio * a, ratio.clamp(1 - settings.clip, 1 + settings.clip) * a).mean()
            value_loss = 0.5 * (model.value(obs[b]) - target_t[b]).pow(2).mean()
            loss = policy_loss + settings.vf_coef * value_loss - settings.ent_coef * entropy
            optimizer.zero_grad()
            torch.autograd.backward(loss)
            torch.nn.utils.clip_grad_norm_(model.parameters(), settings.max_grad_norm)
            optimizer.step()
            with torch.no_grad():
                sums["policy"] += policy_loss.item()
                sums["value"] += value_loss.item()
                sums["entropy"] += entropy.item()
                sums["kl"] += (old_logp[b] - logp).mean().item()
                sums["clipped"] += ((ratio - 1).abs() > settings.clip).float().mean().item()
            batches += 1
    return {k: v / max(batches, 1) for k, v in sums.items()}
