"""Bots: players that decide from their own view, within a limit, for any game of the protocol.

>>> from sakura.engine import make_game
>>> game = make_game("sakura", {"players": 3})
>>> state = game.new_initial_state(seed=11)
>>> bot = make_bot("greedy", game, seed=1)
>>> action = bot.act(state.view(0))  # a view, never the state
>>> str(action) in state.view(0).legal_actions
True

See ``docs/bots.md`` for the design and measured strength.
"""

from sakura.bots.base import Bot, BotError, Budget, Limit, check_view
from sakura.bots.greedy import GreedyBot
from sakura.bots.heuristics import Heuristic, heuristic_for, register_heuristic
from sakura.bots.levels import LADDER, LEGACY, LEVEL_NAMES, Level, level_spec
from sakura.bots.mcts import MctsBot
from sakura.bots.random_bot import RandomBot
from sakura.bots.registry import available_bots, level_bots, make_bot, parse_spec
from sakura.bots.rollouts import Player, RolloutBot
from sakura.bots.round_solver import RoundSolverBot
from sakura.bots.softmax import SoftmaxBot

__all__ = [
    "LADDER",
    "LEGACY",
    "LEVEL_NAMES",
    "Bot",
    "BotError",
    "Budget",
    "GreedyBot",
    "Heuristic",
    "Level",
    "Limit",
    "MctsBot",
    "Player",
    "RandomBot",
    "RolloutBot",
    "RoundSolverBot",
    "SoftmaxBot",
    "available_bots",
    "check_view",
    "heuristic_for",
    "level_bots",
    "level_spec",
    "make_bot",
    "parse_spec",
    "register_heuristic",
]

# advice and post-game analysis (hints while playing, "Analyse" after the game)
from sakura.bots import analysis
from sakura.bots.advice import ANALYSIS_SPEC, HINT_SPEC, Advice, advise, resolve_spec

__all__ += ["ANALYSIS_SPEC", "HINT_SPEC", "Advice", "advise", "analysis", "resolve_spec"]
