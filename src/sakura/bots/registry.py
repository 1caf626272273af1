"""Bots by spec, so that a tournament, the web app or a config file can name them in text.

A spec is ``name[:limit][,option=value...]``: ``random``, ``greedy``, ``mcts:200`` (200
iterations a decision), ``mcts:0.25s`` (a quarter of a second), ``mcts:300,c=0.7``,
``softmax:0.3`` (the heuristic's moves drawn by a softmax at temperature 0.3), or the name of a
level of the ladder (``beginner``, ``casual``, ``club``, ``expert``, ``master``; see
:mod:`sakura.bots.levels`), which stands for its own spec.

>>> from sakura.engine import make_game
>>> game = make_game("sakura", {"players": 4})
>>> make_bot("mcts:200", game, seed=1).spec
'mcts:200'
>>> available_bots()
['random', 'greedy', 'mcts', 'softmax', 'rm', 'br']
>>> make_bot("club", game, seed=1).spec
'club'

Bots that live in an outer layer are **plug-ins** (``PLUGINS``): the registry names the module
and factory as text and imports it only when the spec is asked for, so this layer never
imports them. ``policy`` (the trained policy of ``sakura.rl.policy``, needs numpy) is one.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from sakura.bots.base import Bot, BotError, Limit
from sakura.bots.greedy import GreedyBot
from sakura.bots.levels import LEVEL_NAMES, LEVELS
from sakura.bots.mcts import MctsBot
from sakura.bots.random_bot import RandomBot
from sakura.bots.rollouts import RolloutBot
from sakura.bots.round_solver import LEAVES, PLAYS, RoundSolverBot
from sakura.bots.softmax import SoftmaxBot
from sakura.engine import Game

DEFAULT_MCTS_LIMIT = Limit(iterations=200)
DEFAULT_RM_LIMIT = Limit(iterations=16)  # deals a round solver solves at once
DEFAULT_BR_LIMIT = Limit(iterations=600)  # playouts of a rollout best response
_MCTS_FLOATS = {"c", "bias", "w", "scale", "epsilon", "model", "infer"}


# name -> "module:factory", imported on first use; factory(game, seed, limit, options) -> Bot.
PLUGINS: dict[str, str] = {"policy": "sakura.rl.policy:make_policy_bot"}
# The search's leaf estimate ``mcts:N,value=policy`` (a self-played policy's value head, numpy):
# factory(game, name) -> Evaluator, imported on first use like the plug-in bots.
VALUE_PLUGIN = "sakura.rl.policy_value:make_value_evaluator"


def available_bots() -> list[str]:
    return ["random", "greedy", "mcts", "softmax", "rm", "br"]


def level_bots() -> list[str]:
    """The levels of the ladder, weakest first (each a spec of its own)."""
    return list(LEVEL_NAMES)


def plugin_bots() -> list[str]:
    """The specs served by plug-ins (they may need an extra: ``policy`` needs numpy)."""
    return sorted(PLUGINS)


def _plugin_factory(name: str) -> Callable[[Game[Any], int, Limit | None, dict[str, str]], Bot]:
    module_name, _, attribute = PLUGINS[name].partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise BotError(
            f"the {name!r} bot cannot load ({exc}); it needs the rl extra: pip install 'sakura[rl]'"
        ) from None
    factory: Callable[[Game[Any], int, Limit | None, dict[str, str]], Bot] = getattr(module, attribute)
    return factory


def parse_spec(spec: str) -> tuple[str, Limit | None, dict[str, str]]:
    """Split a spec into its name, its limit (if any) and its options.

    >>> parse_spec("mcts:0.25s,c=0.7")
    ('mcts', Limit(iterations=None, seconds=0.25), {'c': '0.7'})

    A level reads as the spec it stands for (Sakura's; ``Level.spec_for`` gives another
    game's); a softmax's temperature is its option ``t``:

    >>> parse_spec("expert"), parse_spec("softmax:0.3")
    (('mcts', Limit(iterations=200, seconds=None), {}), ('softmax', None, {'t': '0.3'}))
    """
    level = LEVELS.get(spec.strip().lower())
    if level is not None:
        return parse_spec(level.spec)
    head, *rest = [part.strip() for part in spec.strip().split(",")]
    name, _, limit_text = head.partition(":")
    name = name.strip().lower()
    if name not in available_bots() and name not in PLUGINS:
        raise BotError(
            f"unknown bot {spec!r}; bots: {', '.join(available_bots() + plugin_bots())}, "
            f"levels: {', '.join(LEVEL_NAMES)} (e.g. random, greedy, mcts:200, mcts:0.25s, "
            "softmax:0.3, club)"
        )
    options: dict[str, str] = {}
    if name == "softmax":
        if limit_text.strip():
            options["t"] = limit_text.strip()
        limit_text = ""
    limit = Limit.parse(limit_text) if limit_text.strip() else None
    for item in rest:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise BotError(f"bad option {item!r} in {spec!r}: expected key=value")
        options[key.strip()] = value.strip()
    return name, limit, options


def make_bot(spec: str, game: Game[Any], seed: int) -> Bot:
    """Build the bot ``spec`` names, for ``game``, its RNG seeded with ``seed``."""
    level = LEVELS.get(spec.strip().lower())
    if level is not None:
        return _make(level.spec_for(game.name), game, seed, label=level.name)
    return _make(spec, game, seed, label=spec.strip())


def _make(spec: str, game: Game[Any], seed: int, *, label: str) -> Bot:
    name, limit, options = parse_spec(spec)
    if name in PLUGINS:
        return _plugin_factory(name)(game, seed, limit, options)
    if name in ("random", "greedy"):
        if limit is not None or options:
            raise BotError(f"{name!r} takes no limit or options: {spec!r}")
        if name == "random":
            return RandomBot(game, seed)
        return GreedyBot(game, seed, label=label)
    builder = _BUILDERS.get(name)
    if builder is not None:
        return builder(spec, game, seed, options, label=label)
    return _mcts(spec, game, seed, options, label=label)


def _mcts(spec: str, game: Game[Any], seed: int, options: dict[str, str], *, label: str) -> Bot:
    """``mcts[:LIMIT][,c=X,...,value=policy|PATH.npz]``."""
    kwargs: dict[str, Any] = {}
    leaf = options.pop("value", None)
    if leaf is not None:
        options.setdefault("cut", "1")  # the estimate judges the leaves: a rollout stops at once
    for key, value in options.items():
        if key in _MCTS_FLOATS:
            kwargs[key] = _number(spec, key, value)
        elif key == "rollout" and value in ("heuristic", "random"):
            kwargs[key] = value
        elif key in ("lookahead", "cut") and value.isdigit():
            kwargs[key] = int(value)
        else:
            raise BotError(
                f"unknown mcts option {key}={value!r}; options: "
                f"{', '.join(sorted(_MCTS_FLOATS))}, rollout=heuristic|random, "
                "lookahead=N, cut=N, value=policy|PATH.npz"
            )
    bot = MctsBot(game, seed, parse_spec(spec)[1] or DEFAULT_MCTS_LIMIT, label=label, **kwargs)
    if leaf is not None:
        bot.evaluator = _value_evaluator(game, leaf)
    return bot


def _value_evaluator(game: Game[Any], name: str) -> Any:
    module_name, _, attribute = VALUE_PLUGIN.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise BotError(
            f"value={name} cannot load ({exc}); it needs the rl extra: pip install 'sakura[rl]'"
        ) from None
    return getattr(module, attribute)(game, name)


def _number(spec: str, key: str, value: str) -> float:
    """Option ``key=value`` of ``spec`` as a number, or the error that says it is not one."""
    try:
        return float(value)
    except ValueError:
        raise BotError(f"option {key} of {spec!r} is a number, not {value!r}") from None


_RM_INTS = {"iters": "iterations", "width": "width", "joint": "joint", "fallback": "fallback"}


def _round_solver(spec: str, game: Game[Any], seed: int, options: dict[str, str], *, label: str) -> Bot:
    """``rm:DEALS[,iters=N,width=N,joint=N,play=avg|br,leaf=value|rollout,w=X,scale=X,epsilon=X,fallback=N]``."""
    kwargs: dict[str, Any] = {}
    for key, value in options.items():
        if key in _RM_INTS and value.isdigit() and int(value) > 0:
            kwargs[_RM_INTS[key]] = int(value)
        elif (key == "play" and value in PLAYS) or (key == "leaf" and value in LEAVES):
            kwargs[key] = value
        elif key in ("w", "scale", "epsilon"):
            kwargs[key] = _number(spec, key, value)
        else:
            raise BotError(
                f"unknown rm option {key}={value!r}; options: iters=N, width=N, joint=N, fallback=N, "
                f"play={'|'.join(PLAYS)}, leaf={'|'.join(LEAVES)}, w, scale, epsilon"
            )
    limit = parse_spec(spec)[1] or DEFAULT_RM_LIMIT
    return RoundSolverBot(game, seed, limit, label=label, **kwargs)


def _rollouts(spec: str, game: Game[Any], seed: int, options: dict[str, str], *, label: str) -> Bot:
    """``br:PLAYOUTS[,lookahead=N,model=T,halve=0|1,w=X,scale=X,epsilon=X]``."""
    kwargs: dict[str, Any] = {}
    for key, value in options.items():
        if key == "lookahead" and value.isdigit():
            kwargs[key] = int(value)
        elif key == "halve" and value in ("0", "1"):
            kwargs[key] = value == "1"
        elif key in ("model", "w", "scale", "epsilon"):
            kwargs[key] = _number(spec, key, value)
        else:
            raise BotError(
                f"unknown br option {key}={value!r}; options: lookahead=N, model=T, halve=0|1, "
                "w, scale, epsilon"
            )
    limit = parse_spec(spec)[1] or DEFAULT_BR_LIMIT
    return RolloutBot(game, seed, limit, label=label, **kwargs)


def _softmax(spec: str, game: Game[Any], seed: int, options: dict[str, str], *, label: str) -> Bot:
    unknown = sorted(set(options) - {"t", "avoid"})
    if unknown or "t" not in options:
        raise BotError(f"a softmax bot is softmax:TEMPERATURE[,avoid=SHARE] (e.g. softmax:0.3), not {spec!r}")
    try:
        temperature = float(options["t"])
    except ValueError:
        raise BotError(f"the temperature of {spec!r} is a number, not {options['t']!r}") from None
    try:
        avoid = float(options.get("avoid", "0"))
    except ValueError:
        raise BotError(f"avoid of {spec!r} is a share from 0 to 1, not {options['avoid']!r}") from None
    return SoftmaxBot(game, seed, temperature, label=label, avoid=avoid)


# The bots whose options are read by a builder of their own: builder(spec, game, seed, options, label=).
_BUILDERS: dict[str, Callable[..., Bot]] = {"softmax": _softmax, "rm": _round_solver, "br": _rollouts}
