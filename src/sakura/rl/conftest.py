"""The doctests of ``sakura.rl`` need the ``rl`` extra; without it they are not collected
(their imports would fail), and the test run's summary says so."""

from __future__ import annotations

import importlib.util
from typing import Any

MISSING = [m for m in ("numpy", "gymnasium", "pettingzoo", "pyspiel") if importlib.util.find_spec(m) is None]
collect_ignore_glob = ["*.py"] if MISSING else []
NO_JAX = importlib.util.find_spec("jax") is None
if NO_JAX:  # the batched engine's JAX path (the jax extra)
    collect_ignore_glob += ["batch/jax_*.py"]
NO_TORCH = importlib.util.find_spec("torch") is None
if NO_TORCH:  # the self-play trainer (the train extra): its modules import torch
    collect_ignore_glob += ["selfplay/*.py"]


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if MISSING:
        terminalreporter.write_line(
            f"sakura.rl doctests not run: {', '.join(MISSING)} missing (pip install -e '.[rl]')"
        )
    elif NO_JAX:
        terminalreporter.write_line(
            "sakura.rl.batch's JAX doctests not run: jax missing (pip install -e '.[jax]')"
        )
