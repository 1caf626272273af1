"""The RL tests need the ``rl`` extra; without it they skip with the command that installs it."""

from __future__ import annotations

import pytest

for _module in ("numpy", "gymnasium", "pettingzoo", "pyspiel"):
    pytest.importorskip(_module, reason=f"{_module} is missing: install the rl extra: pip install -e '.[rl]'")
