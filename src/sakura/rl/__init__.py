"""Sakura as a research environment: PettingZoo, Gymnasium and OpenSpiel (``pip install sakura[rl]``).

An outer layer: it speaks only the engine's public protocol and builds every observation from
a player's own view, for every game of the platform (``sakura`` at 2 to 6 players with both
two-player variants, and ``sakura-cards``).

* :class:`~sakura.rl.pettingzoo_env.SakuraParallelEnv` (``parallel_env()``, and ``env()`` for
  the AEC form): all agents at once in card selection, only the deciding agent at a choice.
* :class:`~sakura.rl.gym_env.SakuraSoloEnv`, registered as ``SakuraSolo-v0``: one seat
  against bots, the action mask in ``info``; :class:`~sakura.rl.vector_env.SakuraVectorEnv`
  steps N of them in one call (a Gymnasium ``VectorEnv``, stacked numpy arrays).
* :class:`~sakura.rl.policy.PolicyBot`: the trained policies that ship, numpy only, played
  by the bot spec ``policy``.
* ``sakura.rl.openspiel_game`` registers ``python_sakura`` and ``python_sakura_cards`` with
  OpenSpiel (import it, then ``pyspiel.load_game("python_sakura(players=4)")``).
* :func:`~sakura.rl.encoding.encoder_for`: each game's observation slots and action ids.

See ``docs/rl.md``. Importing this package registers ``SakuraSolo-v0`` with Gymnasium.

>>> from sakura.rl import encoder_for
>>> from sakura.engine import make_game
>>> encoder_for(make_game("sakura-cards")).num_actions
140
"""

from __future__ import annotations

from typing import Any

try:
    from sakura.rl.encoding import LAYOUT_VERSION, Encoder, Layout, Slot, encoder_for, relative_rewards
    from sakura.rl.gym_env import ENV_ID, SakuraSoloEnv
except ImportError as exc:  # pragma: no cover - only without the extra
    raise ImportError(f"sakura.rl needs the rl extra (pip install 'sakura[rl]'): {exc}") from exc

__all__ = [
    "ENV_ID",
    "LAYOUT_VERSION",
    "Encoder",
    "Layout",
    "SakuraParallelEnv",
    "SakuraSoloEnv",
    "SakuraVectorEnv",
    "Slot",
    "encoder_for",
    "env",
    "parallel_env",
    "relative_rewards",
]


def __getattr__(name: str) -> Any:
    """PettingZoo (and the vector env) are imported only when asked for."""
    if name in ("SakuraParallelEnv", "parallel_env", "env"):
        from sakura.rl import pettingzoo_env

        return getattr(pettingzoo_env, name)
    if name == "SakuraVectorEnv":
        from sakura.rl.vector_env import SakuraVectorEnv

        return SakuraVectorEnv
    raise AttributeError(f"module 'sakura.rl' has no attribute {name!r}")
