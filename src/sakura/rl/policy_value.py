"""A self-played policy's value head as the search's leaf estimate: ``mcts:N,value=policy``.

MCTS can stop a rollout early (``cut``) and take an :class:`~sakura.bots.heuristics.Evaluator`'s
judgement of the position instead of playing on with its cheap rule. This one asks the value
head of a policy trained by self-play (``examples/selfplay.py``; the file carries it beside the
actor), numpy only: every seat's observation of the (sampled) state, its own view as at the
table, one value each, the player's expected return from here (score changes against the
others / 10, plus its share of the win).

The search wants two numbers a player in [0, 1]: the share of the win, here the softmax of the
values over the seats (the more a seat expects, the likelier it wins), and the margin, here
``0.5 + 0.5 * tanh(value - best rival's value)``. Each seat's view shows its own hand, so the
estimate of the others reads the hands the determinization dealt them, which is what that
sampled world holds.

``value=policy`` names the table's shipped policy, ``value=PATH.npz`` a file of the table.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from sakura.bots import BotError
from sakura.engine import Game, State
from sakura.rl.policy import PolicyNet, load_policy, load_policy_file


class PolicyValue:
    """The :class:`~sakura.bots.heuristics.Evaluator` of a policy file's value head."""

    def __init__(self, game: Game[Any], net: PolicyNet) -> None:
        from sakura.rl.encoding import encoder_for

        if not net.value_weights:
            raise BotError(
                f"the {net.meta.get('table', '?')} policy has no value head (train it by self-play)"
            )
        self.net = net
        self.encoder = encoder_for(game)

    def value(self, state: State[Any]) -> tuple[list[float], list[float]] | None:
        if state.is_terminal():
            return None
        obs = self.encoder.encode_all(self.encoder.views(state))
        v = np.asarray(self.net.value(obs), dtype=np.float64)
        e = np.exp(v - v.max())
        shares = e / e.sum()
        margins = []
        for seat in range(len(v)):
            rival = np.delete(v, seat).max() if len(v) > 1 else 0.0
            margins.append(0.5 + 0.5 * float(np.tanh(v[seat] - rival)))
        return shares.tolist(), margins


def make_value_evaluator(game: Game[Any], name: str) -> PolicyValue:
    """The bot registry's factory for ``value=policy`` / ``value=PATH.npz``."""
    net = load_policy(game) if name == "policy" else load_policy_file(game, Path(name))
    return PolicyValue(game, net)
