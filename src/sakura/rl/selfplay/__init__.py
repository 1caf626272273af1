"""Self-play at scale: a masked policy/value network trained by PPO on the batched engine
against a league of its own past versions and the platform's bots (``docs/rl.md``, "Self-play").

Training needs PyTorch (the ``train`` extra); what it exports is the numpy policy file the
``policy`` bot plays (:mod:`sakura.rl.policy`), value head included, so nothing here is needed
at play time. The parts, one idea a module:

* :mod:`.seating`: who sits at each table of a batched env (the learner, a past version, a bot),
  and the bots' seats played through the reference engine beside the batched game;
* :mod:`.league`: the past versions and the rule that picks an opponent (PFSP);
* :mod:`.rollout`: playing the tables for a number of steps and keeping the learner's decisions;
* :mod:`.ppo`: advantages over each seat's own decisions, and the clipped PPO update;
* :mod:`.evaluate`: win share against a bot on fixed deals (the learning curves);
* :mod:`.trainer`: the loop, its checkpoints (model, optimizer, league, tables, RNG) and resume.

``examples/selfplay.py`` is the command line; ``tests/rl/test_selfplay.py`` the smoke test.
"""

from __future__ import annotations
