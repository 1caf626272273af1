"""Game records: what was played, kept as data, and replayed to check it.

A record stores the header (date, players, game config, seed, engine version), the initial
deal, every action in order with the events it caused, and the outcome. Positions come from
replaying the actions (as in python-chess's PGN), and a replay that produces other events
than the record says fails loudly at the first difference.
"""

from sakura.records.playout import random_action, random_playout
from sakura.records.record import FORMAT, GameRecord, InvalidRecordError, Move, Recorder
from sakura.records.replay import ReplayDivergenceError, game_events, replay
from sakura.records.tutorial import Attempt, Highlight, Script, Step, Tutorial, load_script, tutorial_json

__all__ = [
    "FORMAT",
    "Attempt",
    "GameRecord",
    "Highlight",
    "InvalidRecordError",
    "Move",
    "Recorder",
    "ReplayDivergenceError",
    "Script",
    "Step",
    "Tutorial",
    "game_events",
    "load_script",
    "random_action",
    "random_playout",
    "replay",
    "tutorial_json",
]
