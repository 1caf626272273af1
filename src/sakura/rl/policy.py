"""The trained policies that ship: a small numpy-only network per table, played as a bot.

A policy was trained with PyTorch (``examples/train_ppo.py``: masked PPO against greedy
bots) and exported to one ``.npz`` file per table in ``sakura/rl/policies/``: its layers'
weights and a JSON header (the table, the observation layout version, how it was trained).
Playing it needs **numpy only**, never torch: one matrix product a layer, ``tanh`` between,
the most likely legal action (ties go to the lowest id), so a policy bot is deterministic and
its seed changes nothing.

It decides from the observation :mod:`sakura.rl.encoding` builds from the player's own view
(``state.view(seat)``), the same one it was trained on, so it sees exactly what a human
player sees.

``make_bot("policy", game, seed)`` builds one (the bot registry imports this module only when
the spec is asked for); tables without a trained policy get a clear error naming the tables
that have one.

>>> from sakura.engine import make_game
>>> game = make_game("sakura", {"players": 4})
>>> bot = PolicyBot(game, seed=0)
>>> view = game.new_initial_state(seed=5).view(1)
>>> str(bot.act(view)) in view.legal_actions, bot.spec
(True, 'policy')
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sakura.bots import BotError, Limit, check_view
from sakura.engine import Action, Game, View
from sakura.engine.games.sakura import SakuraGame

try:
    import numpy as np
except ImportError:  # pragma: no cover - only without the rl extra
    np = None  # type: ignore[assignment]

POLICY_DIR = Path(__file__).resolve().parent / "policies"
NUMPY_MISSING = (
    "the 'policy' bot needs numpy, which the rl extra installs: "
    "pip install 'sakura[rl]' (PyTorch is not needed to play it)"
)


def table_key(game: Game[Any]) -> str:
    """The file name (without ``.npz``) of ``game``'s policy: ``sakura-4p``,
    ``sakura-2p-court``, ``sakura-cards``."""
    if game.name != "sakura":
        return game.name
    variant = game.variant if isinstance(game, SakuraGame) else ""
    key = f"sakura-{game.num_players}p"
    return f"{key}-{variant}" if variant and variant != "standard" else key


def available_policies() -> list[str]:
    """The tables a trained policy ships for (their :func:`table_key`)."""
    return sorted(p.stem for p in POLICY_DIR.glob("*.npz"))


@dataclass(frozen=True)
class PolicyNet:
    """A multilayer perceptron: ``tanh`` hidden layers, then one logit per action id."""

    weights: tuple[Any, ...]  # (in, out) float32 matrices, the last one gives the logits
    biases: tuple[Any, ...]
    meta: dict[str, Any]

    @classmethod
    def load(cls, path: Path) -> PolicyNet:
        if np is None:
            raise BotError(NUMPY_MISSING)
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            layers = int(meta["layers"])
            weights = tuple(data[f"w{i}"].astype(np.float32) for i in range(layers))
            biases = tuple(data[f"b{i}"].astype(np.float32) for i in range(layers))
        return cls(weights, biases, meta)

    def save(self, path: Path) -> None:
        """Write the network as ``.npz`` (float16 weights: the file stays small)."""
        arrays: dict[str, Any] = {"meta": np.array(json.dumps({**self.meta, "layers": len(self.weights)}))}
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"w{i}"], arrays[f"b{i}"] = w.astype(np.float16), b.astype(np.float16)
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, **arrays)

    def logits(self, obs: Any) -> Any:
        """One row of logits per row of ``obs`` (or one vector for one observation)."""
        h = obs
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            h = h @ w + b
            if i < last:
                h = np.tanh(h)
        return h

    def best(self, obs: Any, mask: Any) -> Any:
        """The most likely legal action id of each row (the lowest id among equals)."""
        scores = np.where(np.asarray(mask, dtype=bool), self.logits(obs), -np.inf)
        return np.argmax(scores, axis=-1)


_CACHE: dict[str, PolicyNet] = {}


def load_policy(game: Game[Any]) -> PolicyNet:
    """The shipped policy of ``game``'s table (loaded once per process)."""
    if np is None:
        raise BotError(NUMPY_MISSING)
    key = table_key(game)
    if key not in _CACHE:
        path = POLICY_DIR / f"{key}.npz"
        if not path.is_file():
            raise BotError(
                f"no trained policy for the table {key!r}; policies ship for: "
                f"{', '.join(available_policies()) or 'none'}"
            )
        _CACHE[key] = PolicyNet.load(path)
    return _CACHE[key]


class PolicyBot:
    """Plays the shipped policy of its table: the most likely legal action of the network
    for the observation of its own view. Deterministic (``seed`` is accepted for the bot
    protocol and changes nothing)."""

    def __init__(self, game: Game[Any], seed: int) -> None:
        from sakura.rl.encoding import LAYOUT_VERSION, encoder_for

        self.game = game
        self.seed = seed
        self.net = load_policy(game)
        self.encoder = encoder_for(game)
        trained_on = self.net.meta.get("layout_version")
        if trained_on != LAYOUT_VERSION or self.net.meta.get("obs_size") != self.encoder.size:
            raise BotError(
                f"the {table_key(game)} policy was trained on observation layout "
                f"{trained_on}, this version encodes layout {LAYOUT_VERSION}: retrain it "
                "(examples/train_ppo.py)"
            )

    @property
    def spec(self) -> str:
        return "policy"

    def act(self, view: View) -> Action:
        view = check_view(view)
        encoder = self.encoder
        legal = encoder.legal_ids(view)
        if len(legal) == 1:
            return encoder.actions[legal[0]]
        logits = self.net.logits(encoder.encode(view))
        best = max(legal, key=lambda i: (logits[i], -i))
        return encoder.actions[best]


def make_policy_bot(game: Game[Any], seed: int, limit: Limit | None, options: dict[str, str]) -> PolicyBot:
    """The bot registry's factory for the spec ``policy`` (it takes no limit or options)."""
    if limit is not None or options:
        raise BotError("'policy' takes no limit or options")
    return PolicyBot(game, seed)
