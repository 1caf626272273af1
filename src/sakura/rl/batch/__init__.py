"""Sakura batched: N games stepped as arrays (numpy), for throughput.

:class:`~sakura.rl.batch.env.SakuraBatchEnv` plays N tables of one Sakura configuration at
once, every seat at every step, with the observations and masks of the existing encoder and
the rewards of the ParallelEnv. It is a second implementation of the rules
(:mod:`.rules`, :mod:`.moves`), held to the reference engine by a differential test
(``tests/rl/test_batch_differential.py``); deals and reshuffles come from each game's seed
exactly as the engine's (:mod:`.rng`), so any game of a batch replays in the engine.

:class:`~sakura.rl.batch.cards_env.CardsBatchEnv` does the same for the card game
(:mod:`.cards_rules`; ``tests/rl/test_cards_batch_differential.py``).
See ``docs/rl.md`` (the batched engine).
"""

from __future__ import annotations

from sakura.rl.batch.cards_env import CardsBatchEnv
from sakura.rl.batch.env import SakuraBatchEnv
from sakura.rl.batch.rules import Games
from sakura.rl.batch.tables import Tables

__all__ = ["CardsBatchEnv", "Games", "SakuraBatchEnv", "Tables"]
