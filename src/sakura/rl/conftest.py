"""Doctest collection for ``sakura.rl``: modules whose optional library is missing are skipped
(install the ``rl`` extra: ``pip install -e '.[rl]'``), not reported as errors."""

from __future__ import annotations

import importlib.util

_NEEDS = {
    "__init__.py": "gymnasium",
    "gym_env.py": "gymnasium",
    "pettingzoo_env.py": "pettingzoo",
    "openspiel_game.py": "pyspiel",
    "encoding.py": "numpy",
    "sakura_encoding.py": "numpy",
    "cards_encoding.py": "numpy",
    "core.py": "numpy",
}

collect_ignore = [name for name, module in _NEEDS.items() if importlib.util.find_spec(module) is None]
