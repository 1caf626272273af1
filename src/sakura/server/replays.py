"""A finished game rebuilt from its stored actions: its record (``sakura replay`` reads it) and
its replay (every step as a spectator saw it).

Event sourcing, as everywhere in the server: nothing of a game is stored but its seed and its
actions, and both are replayed through the engine. A damaged table (its stored actions stop
replaying somewhere) gives the game as far as they replay.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sakura.engine import Event
from sakura.records import GameRecord, Recorder

if TYPE_CHECKING:
    from sakura.server.db import StoredTable
    from sakura.server.table import Table


async def _stored(table: Table) -> StoredTable:
    stored = await table.db.call(table.store.load, table.id, what=f"loading table {table.id}")
    assert stored is not None
    if table.damaged is not None:  # as far as it replays
        stored = replace(stored, actions=stored.actions[: table.seq])
    return stored


async def record(table: Table) -> GameRecord:
    """Rebuild the finished game's record by replaying its actions. The seed is left out
    (``seed: null``; the record's ``initial`` deal replays it)."""
    stored = await _stored(table)
    names = [
        s.name or (f"Bot ({s.level})" if s.kind == "bot" else f"Player {i + 1}")
        for i, s in enumerate(table.seats)
    ]
    recorder = Recorder(table.game, stored.seed, names, date=stored.created.isoformat(timespec="seconds"))
    for seat, text in stored.actions:
        recorder.apply(seat, table.game.parse_action(text))
    return replace(recorder.finish(), seed=None)


async def events(table: Table) -> list[Event]:
    """Every event of the finished game, unfiltered, first to last (a score sheet reads them;
    a finished game hides nothing it would read: no hand, no deck order)."""
    stored = await _stored(table)
    state = table.game.new_initial_state(stored.seed)
    out: list[Event] = []
    for seat, text in stored.actions:
        out += state.apply_action(seat, table.game.parse_action(text))
        await asyncio.sleep(0)  # a long game: let the other tables in between steps
    return out


async def steps(table: Table) -> list[dict[str, Any]]:
    """Every step of a finished game as a spectator sees it, with the action each seat took
    and the hand it held then (the record says both: after the end no choice is secret, so the
    move list can name every card and an analysis mark can show the hand); computed once per
    table (a finished game does not change) and kept while the table is in memory."""
    if table.replay_cache is not None:
        return table.replay_cache
    stored = await _stored(table)
    state = table.game.new_initial_state(stored.seed)
    out: list[dict[str, Any]] = [{"seat": None, "events": [], "view": state.view(None).to_json()}]
    for seat, text in stored.actions:
        held = state.view(seat).to_json().get("hand")  # the seat's hand as it chose: public now
        events = state.apply_action(seat, table.game.parse_action(text))
        out.append(
            {
                "seat": seat,
                "action": text,  # what the seat did: public once the game is over (as its record)
                "hand": held,
                "events": [e.seen_by(None).to_dict() for e in events],
                "view": state.view(None).to_json(),
            }
        )
        await asyncio.sleep(0)  # a long game: let the other tables in between steps
    table.replay_cache = out
    return out
