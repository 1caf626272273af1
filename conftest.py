"""The whole suite's options: soak loops run only when asked for.

A soak loop (a server killed twenty times, thousands of random key presses) proves that
nothing is lost over minutes of abuse; it is not what a developer waits for after a change.
``python -m pytest`` skips them with the reason; ``python -m pytest --soak`` runs them too
(``.ci/run`` does, after the README's command).
"""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--soak",
        action="store_true",
        default=False,
        help="also run the soak loops (tests marked soak: minutes each)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--soak"):
        return
    skip = pytest.mark.skip(reason="a soak loop (minutes): run with --soak (.ci/run does)")
    for item in items:
        if "soak" in item.keywords:
            item.add_marker(skip)
