"""A table's past, as one viewer may see it: the events of every stored action, replayed
through the engine and filtered by ``event.seen_by(viewer)`` (hidden cards stay hidden).

The table's ``welcome`` carries it, so that the log survives a reload, a reconnect and a
spectator's arrival mid-game. It holds no rules: it replays the record the table keeps.

>>> from sakura.engine import make_game
>>> game = make_game("sakura", {"players": 2})
>>> state = game.new_initial_state(7)
>>> first = state.legal_actions(0)[0]
>>> steps = past(game, 7, [(0, str(first))], viewer=1)
>>> steps[0]["seat"], steps[0]["events"][0]["cards"] is None
(0, True)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from sakura.engine import Game


def past(
    game: Game[Any],
    seed: int | str,
    actions: Iterable[tuple[int, str]],
    viewer: int | None,
    timed: Collection[int] = (),
) -> list[dict[str, Any]]:
    """One entry an action, oldest first: ``{"seat": ..., "events": [...]}`` as ``viewer`` sees
    them, with ``"by": "timer"`` on the actions (their indexes in ``timed``) that a bot made
    for a player whose time ran out, as the live update said."""
    state = game.new_initial_state(seed)
    steps: list[dict[str, Any]] = []
    for i, (seat, text) in enumerate(actions):
        events = state.apply_action(seat, game.parse_action(text))
        step: dict[str, Any] = {"seat": seat, "events": [e.seen_by(viewer).to_dict() for e in events]}
        if i in timed:
            step["by"] = "timer"
        steps.append(step)
    return steps
