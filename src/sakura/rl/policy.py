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

from sakura.bots import Bot, BotError, Limit, RolloutBot, check_view
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
    """A multilayer perceptron: ``tanh`` hidden layers, then one logit per action id.

    A policy trained by self-play (``examples/selfplay.py``) also carries its **value head**,
    a second perceptron of the same observation giving one number: the player's expected
    return from here (score changes against the others / 10, plus its share of the win);
    ``value_weights`` is empty where the file has none."""

    weights: tuple[Any, ...]  # (in, out) float32 matrices, the last one gives the logits
    biases: tuple[Any, ...]
    meta: dict[str, Any]
    value_weights: tuple[Any, ...] = ()
    value_biases: tuple[Any, ...] = ()

    @classmethod
    def load(cls, path: Path) -> PolicyNet:
        if np is None:
            raise BotError(NUMPY_MISSING)
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            layers = int(meta["layers"])
            weights = tuple(data[f"w{i}"].astype(np.float32) for i in range(layers))
            biases = tuple(data[f"b{i}"].astype(np.float32) for i in range(layers))
            value_layers = int(meta.get("value_layers", 0))
            value_weights = tuple(data[f"vw{i}"].astype(np.float32) for i in range(value_layers))
            value_biases = tuple(data[f"vb{i}"].astype(np.float32) for i in range(value_layers))
        return cls(weights, biases, meta, value_weights, value_biases)

    def save(self, path: Path) -> None:
        """Write the network as ``.npz`` (float16 weights: the file stays small)."""
        meta = {k: v for k, v in self.meta.items() if k != "value_layers"}  # said afresh below
        meta["layers"] = len(self.weights)
        if self.value_weights:
            meta["value_layers"] = len(self.value_weights)
        arrays: dict[str, Any] = {"meta": np.array(json.dumps(meta))}
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"w{i}"], arrays[f"b{i}"] = w.astype(np.float16), b.astype(np.float16)
        for i, (w, b) in enumerate(zip(self.value_weights, self.value_biases, strict=True)):
            arrays[f"vw{i}"], arrays[f"vb{i}"] = w.astype(np.float16), b.astype(np.float16)
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, **arrays)

    def logits(self, obs: Any) -> Any:
        """One row of logits per row of ``obs`` (or one vector for one observation)."""
        return _perceptron(obs, self.weights, self.biases)

    def value(self, obs: Any) -> Any:
        """The value head's estimate of each row of ``obs`` (a number for one observation)."""
        if not self.value_weights:
            raise BotError(
                f"the {self.meta.get('table', '?')} policy has no value head (retrain it by self-play)"
            )
        return _perceptron(obs, self.value_weights, self.value_biases)[..., 0]

    def best(self, obs: Any, mask: Any) -> Any:
        """The most likely legal action id of each row (the lowest id among equals)."""
        scores = np.where(np.asarray(mask, dtype=bool), self.logits(obs), -np.inf)
        return np.argmax(scores, axis=-1)


def _perceptron(obs: Any, weights: tuple[Any, ...], biases: tuple[Any, ...]) -> Any:
    h = obs
    last = len(weights) - 1
    for i, (w, b) in enumerate(zip(weights, biases, strict=True)):
        h = h @ w + b
        if i < last:
            h = np.tanh(h)
    return h


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

    def __init__(self, game: Game[Any], seed: int, path: Path | None = None) -> None:
        from sakura.rl.encoding import LAYOUT_VERSION, encoder_for

        self.game = game
        self.seed = seed
        self.path = path
        self.net = load_policy(game) if path is None else load_policy_file(game, path)
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
        return "policy" if self.path is None else f"policy,file={self.path}"

    def act(self, view: View) -> Action:
        return most_likely(self.net, self.encoder, check_view(view))


def most_likely(net: PolicyNet, encoder: Any, view: View) -> Action:
    """The most likely legal action of ``net`` for ``view`` (ties to the lowest id; the only
    legal action without asking the network)."""
    legal = encoder.legal_ids(view)
    if len(legal) == 1:
        return encoder.actions[legal[0]]  # type: ignore[no-any-return]
    logits = net.logits(encoder.encode(view))
    best = max(legal, key=lambda i: (logits[i], -i))
    return encoder.actions[best]  # type: ignore[no-any-return]


def load_policy_file(game: Game[Any], path: Path) -> PolicyNet:
    """A policy file not (yet) shipped, e.g. a self-play run's export; it must be ``game``'s."""
    if np is None:
        raise BotError(NUMPY_MISSING)
    if not path.is_file():
        raise BotError(f"no policy file {str(path)!r}")
    net = PolicyNet.load(path)
    if net.meta.get("table") != table_key(game):
        raise BotError(
            f"{str(path)!r} is a policy of the table {net.meta.get('table')!r}, not {table_key(game)!r}"
        )
    return net


class PolicyPlayer:
    """The policy as a model of play inside a search's playouts (``rollouts.Player``): the most
    likely legal action of the network for ``seat``'s own view of a sampled state, as
    :class:`PolicyBot` plays it at the table (so a playout's later decisions see what that
    seat would see, never the hands the sample dealt the others)."""

    def __init__(self, bot: PolicyBot) -> None:
        self.net, self.encoder = bot.net, bot.encoder

    def __call__(self, state: Any, seat: int, rng: Any) -> Action:
        return most_likely(self.net, self.encoder, state.view(seat))


OPPONENT_MODELS = ("greedy", "policy")


def make_policy_bot(game: Game[Any], seed: int, limit: Limit | None, options: dict[str, str]) -> Bot:
    """The bot registry's factory for the spec ``policy`` (the shipped policy of the table) and
    ``policy,file=PATH`` (a policy file of the table, e.g. a training run's, to measure it
    before shipping it): no search, no option but ``file``.

    ``policy:N`` (``N`` playouts, or a time such as ``policy:0.5s``) is the policy improved by
    search: the rollout best response of :mod:`sakura.bots.rollouts`, each legal action played
    out on the same sampled deals to the game's end, the bot's own later decisions by the policy
    and the others' by ``opp``: ``greedy`` (their best card by the heuristic, the default) or
    ``policy`` (the same network in their seats); ``w`` and ``scale`` mix the reward as
    ``br``'s do."""
    path = Path(options["file"]) if "file" in options else None
    if limit is None:
        if set(options) - {"file"}:
            raise BotError("'policy' without a limit takes no option but file=PATH (policy:N searches)")
        return PolicyBot(game, seed, path)
    unknown = sorted(set(options) - {"file", "opp", "w", "scale"})
    if unknown:
        raise BotError(
            f"unknown policy option {unknown[0]!r}; options: file=PATH, opp=greedy|policy, w, scale"
        )
    opp = options.get("opp", "greedy")
    if opp not in OPPONENT_MODELS:
        raise BotError(f"opp= is one of {', '.join(OPPONENT_MODELS)}, not {opp!r}")
    player = PolicyPlayer(PolicyBot(game, seed, path))  # the bot loads the net and checks its layout
    mix: dict[str, Any] = {}  # the reward's mix, ``br``'s defaults where not given
    for key in ("w", "scale"):
        if key in options:
            try:
                mix[key] = float(options[key])
            except ValueError:
                raise BotError(f"{key}= of a policy search is a number, not {options[key]!r}") from None
    label = "policy:" + str(limit) + "".join(f",{k}={v}" for k, v in options.items())
    others = player if opp == "policy" else None
    return RolloutBot(game, seed, limit, me=player, others=others, label=label, **mix)
