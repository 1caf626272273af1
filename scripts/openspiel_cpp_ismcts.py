"""OpenSpiel's C++ ISMCTS cannot play a game written in Python: a minimal reproduction.

Nothing of Sakura here: only pyspiel and OpenSpiel's own ``python_kuhn_poker``. Checked with
open_spiel 2.0.2 (pip), Python 3.11::

    python scripts/openspiel_cpp_ismcts.py step              # dies: SIGSEGV (exit 139 / -11)
    python scripts/openspiel_cpp_ismcts.py step_with_policy  # SpielError: not implemented

Two faults of OpenSpiel's Python bindings, not of any game:

1. ``pyspiel.ISMCTSBot.step`` (and ``MCTSBot.step``) is bound with
   ``py::call_guard<py::gil_scoped_release>()`` (``open_spiel/python/pybind11/bots.cc``): the
   search runs without the GIL, and its first call into the Python game
   (``PyState::InformationStateString`` from ``ISMCTSBot::GetStateKey``, gdb shows) touches
   Python objects without it: a segmentation fault. Workaround: call ``step_with_policy``
   (bound without the release) or play through ``pyspiel.evaluate_bots``: both keep the GIL.
2. With the GIL held the search goes on to ``ISMCTSBot::SampleRootState``, which calls the
   C++ virtual ``State::ResampleFromInfostate``. The trampoline for Python states
   (``PyState``, ``open_spiel/python/pybind11/python_games.h``) does not forward that virtual
   to Python, so a Python game's ``resample_from_infostate`` is never called from C++ and the
   base class raises ``ResampleFromInfostate() not implemented`` for every imperfect-information
   game. ``ISMCTSBot``'s ``SetResampler`` hook, which would route around it, is not bound.
   No Python-side workaround exists: the fix is upstream (forward the virtual in ``PyState``,
   drop the GIL release). Until then use OpenSpiel's Python ISMCTS
   (``open_spiel.python.algorithms.ismcts.ISMCTSBot``), which calls the game's
   ``resample_from_infostate``.
"""

from __future__ import annotations

import sys

import pyspiel
from open_spiel.python.games import kuhn_poker  # noqa: F401  (registers python_kuhn_poker)


def main(how: str = "step_with_policy", game_name: str = "python_kuhn_poker") -> None:
    if game_name.startswith("python_sakura"):  # the tests show Sakura fails the same way
        import sakura.rl.openspiel_game  # noqa: F401

    game = pyspiel.load_game(game_name)
    evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
    final = pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT
    bot = pyspiel.ISMCTSBot(0, evaluator, 2.0, 20, -1, final, False, False)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    if how == "step":
        print(bot.step(state))  # the GIL released: SIGSEGV at the first Python call
    elif how == "step_with_policy":
        print(bot.step_with_policy(state))  # the GIL kept: SpielError, resampling not forwarded
    else:
        raise SystemExit(f"usage: {sys.argv[0]} step|step_with_policy [game]")


if __name__ == "__main__":
    main(*sys.argv[1:3])
