""" "Your move": the games in progress of some seats (a table and its token) and of an account,
as each seat sees them, from the tables this process holds; and what happened at one of them
since its player last looked (:func:`since`, built where the table is played).

One process answers :func:`games_here` over all of its tables. In cluster mode
(:class:`~sakura.server.cluster.ClusterLobby`) each table lives in its owner's memory: the
process asked lists its own tables here and asks every other owner, through the cluster's
messaging, for the entries of its tables (:class:`~sakura.server.cluster.messages.Moves`),
which that owner answers with this same function. A token is checked where its table lives
and only the seat's view leaves it, as with one process.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from sakura.server import protocol
from sakura.server.errors import TableError

if TYPE_CHECKING:
    from sakura.server.table import Table

MAX_SINCE = 80  # moves a "since you last looked" replays at most (the older ones: in the log)
Claim = tuple[str, str | None]  # (table id, a seat's token; None: the account's seat there, if any)


def game_entry(table: Table, seat: int) -> dict[str, Any]:
    """One game in progress as ``seat`` sees it (its view's facts, and the past as it saw it)."""
    info = table.info()
    bots = set(table.seating.bot_seats())
    due = [s for s in table.state.current_players() if s not in bots]
    past = table.history_for(seat)
    return {
        "id": table.id,
        "game": info["game"],
        "seat": seat,
        "seats": info["seats"],
        "round": info["round"],
        "pace": info.get("pace"),
        "timer": info["timer"],
        "to_move": due,
        "your_move": seat in due and not table.seats[seat].handed,
        "deadline": table.deadline,
        "seq": table.seq,
        "last_round": last_round(past),
    }


def last_round(past: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The steps of the last round played to its end (from one ``round_started`` event to the
    next), or of the round under way when none has ended yet.

    >>> start = {"events": [{"type": "round_started"}]}
    >>> steps = [start, {"events": []}, start]
    >>> len(last_round(steps)), last_round(steps[:2]) == steps[:2]
    (2, True)
    """
    starts = [
        i for i, step in enumerate(past) if any(e.get("type") == "round_started" for e in step["events"])
    ]
    if len(starts) >= 2:
        return past[starts[-2] : starts[-1]]
    return past[-12:]


def games_here(
    tables: Mapping[str, Table], claims: Iterable[Claim], account: str | None, *, every_table: bool
) -> dict[str, dict[str, Any]]:
    """The entries, by table, of the games in progress among ``tables`` that a claim's token
    opens (a token that opens nothing is left out) or, with ``account``, where it has a seat:
    at the claimed tables, and at every table here if ``every_table``."""
    found: dict[str, tuple[Table, int]] = {}
    claimed = list(claims)
    for table_id, token in claimed:
        table = tables.get(table_id)
        if table is None or table.status != "playing" or token is None:
            continue
        try:
            seat = table.seating.seat_of(token)
        except TableError:  # a token that opens nothing here: left out
            continue
        if seat is not None:
            found[table.id] = (table, seat)
    if account is not None:
        scanned = tables.values() if every_table else [tables[t] for t, _ in claimed if t in tables]
        for table in list(scanned):
            seat = table.seating.seat_of_account(account)
            if seat is not None and table.status == "playing" and table.id not in found:
                found[table.id] = (table, seat)
    return {table_id: game_entry(table, seat) for table_id, (table, seat) in found.items()}


def in_order(games: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The answer of ``POST /api/moves``: the games waiting for you first, the soonest due
    first; ``your_move``: how many wait for you."""
    listed = sorted(games, key=lambda g: (not g["your_move"], g["deadline"] or float("inf")))
    return {"games": listed, "your_move": sum(g["your_move"] for g in listed)}


def since(table: Table, token: str | None, account: str | None, seq: int) -> dict[str, Any]:
    """What happened at ``table`` since its seat's player (``token``'s seat, else
    ``account``'s) last looked at move ``seq``: the view they saw then and one ``update`` a
    move since (at most :data:`MAX_SINCE`), each filtered for the seat as the live ones are."""
    seat = table.seating.seat_of(token)
    if seat is None and account is not None:
        seat = table.seating.seat_of_account(account)
    if seat is None:
        raise TableError("take a seat to see what happened since you last looked", "not_seated")
    commits = table.commits
    actions = commits.actions[: table.seq]
    start = min(max(seq, len(actions) - MAX_SINCE), len(actions))
    state = table.game.new_initial_state(commits.seed)
    for acting, text in actions[:start]:
        state.apply_action(acting, table.game.parse_action(text))
    view = state.view(seat).to_json()
    updates = []
    for i, (acting, text) in enumerate(actions[start:], start):
        events = state.apply_action(acting, table.game.parse_action(text))
        updates.append(
            protocol.update(
                i + 1,
                acting,
                action=text if acting == seat else None,  # as live: one's own card only
                by=_by(table, i, acting),
                events=[e.seen_by(seat).to_dict() for e in events],
                view=state.view(seat).to_json(),
                deadline=None,
            )
        )
    if updates:
        updates[-1]["deadline"] = table.deadline
    return {"seq": start, "view": view, "updates": updates}


def _by(table: Table, index: int, seat: int) -> str:
    """Who made action ``index``: a bot for a late player (``timer``), the seat's bot, or its player."""
    if index in table.commits.timed:
        return "timer"
    return "bot" if table.seats[seat].kind == "bot" else "player"
