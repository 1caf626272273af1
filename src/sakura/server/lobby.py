"""The lobby: all live tables of a server, their creation, and their return after a restart.

Tables are created with a seed from :mod:`secrets` (server side only) and stored at once; on
start-up every unfinished table is rebuilt from its stored actions and carries on.
"""

from __future__ import annotations

import secrets
from dataclasses import asdict
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from sakura.engine import GameError, available_games, make_game
from sakura.server import protocol
from sakura.server.db import GroupCommit, Store, StoredTable, now
from sakura.server.table import Seat, Table, TableError

# The strengths a lobby offers: quick enough to play live on a small machine.
BOT_LEVELS: dict[str, str] = {"easy": "random", "medium": "greedy", "hard": "mcts:100"}


class SeatRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: str = Field(pattern="^(human|bot)$")
    level: str | None = Field(default=None, pattern="^(easy|medium|hard)$")
    name: str | None = Field(default=None, max_length=24)


class NewTable(BaseModel):
    """What the lobby form sends to create a table: any game of the engine's registry
    (``sakura`` by default, ``sakura-cards``), with its own player counts and variants."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(default="sakura", max_length=32)
    players: int = Field(ge=2, le=6)
    variant: str | None = Field(default=None, max_length=16)
    seats: list[SeatRequest] | None = None
    timer: float | None = Field(default=None, ge=1, le=3600)
    name: str | None = Field(default=None, max_length=24)

    @model_validator(mode="after")
    def _seats_match(self) -> NewTable:
        if self.seats is not None and len(self.seats) != self.players:
            raise ValueError(f"{self.players} seats expected, {len(self.seats)} given")
        return self


class Lobby:
    """Every live table of one server, by id."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.writer = GroupCommit(store)  # every table's actions, committed in groups
        self.tables: dict[str, Table] = {}

    def restore(self) -> list[Table]:
        """Rebuild every unfinished table from the database (after a restart)."""
        restored = []
        for stored in self.store.load_unfinished():
            table = Table(stored, self.store, self.writer)
            self.tables[table.id] = table
            restored.append(table)
        return restored

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            stored = self.store.load(table_id)
            if stored is None:
                raise KeyError(table_id)
            table = Table(stored, self.store, self.writer)  # a finished table, for its record and replay
            self.tables[table.id] = table
        return table

    def create(self, request: NewTable, *, claim: bool = True) -> tuple[Table, int | None, str | None]:
        """Create and store a table; the creator takes the first human seat (if any)."""
        if request.game not in available_games():
            known = ", ".join(available_games())
            raise TableError(f"unknown game {request.game!r}; games: {known}", "bad_table")
        config: dict[str, Any] = {"players": request.players}
        if request.variant is not None:
            config["variant"] = request.variant
        try:
            game = make_game(request.game, config)
        except (ValueError, GameError) as exc:
            raise TableError(str(exc), "bad_table") from None
        seat_requests = request.seats or [SeatRequest(kind="human")] + [
            SeatRequest(kind="bot", level="medium") for _ in range(request.players - 1)]
        seats = []
        for r in seat_requests:
            if r.kind == "bot":
                level = r.level or "medium"
                seats.append(Seat("bot", r.name or "", bot=BOT_LEVELS[level], level=level))
            else:
                seats.append(Seat("human", r.name or ""))
        stored = StoredTable(id=secrets.token_urlsafe(6), game=game.name, config=game.config_json(),
                             seed=secrets.randbits(62), seats=[asdict(s) for s in seats],
                             timer=request.timer, status="playing", rematch=None, created=now(), actions=[])
        self.store.create_table(stored)
        table = Table(stored, self.store, self.writer)
        self.tables[table.id] = table
        seat, token = None, None
        if claim and any(s.kind == "human" for s in seats):
            seat, token = table.claim(None, request.name)
        table.start()
        return table, seat, token

    def open_tables(self) -> list[dict[str, Any]]:
        """Tables being played (open seats first): to join or to watch."""
        live = [t.info() for t in self.tables.values() if t.status != "finished"]
        live.sort(key=lambda t: not any(s["kind"] == "human" and not s["claimed"] for s in t["seats"]))
        return live[:100]

    async def rematch(self, table: Table, requester: int | None) -> None:
        """After a finished game: one new table with the same seats; every seated player still
        connected gets, privately, a token for the same seat there."""
        if requester is None:
            raise TableError("only a seated player may ask for a rematch", "not_seated")
        if table.status != "finished":
            raise TableError("the game is not over yet", "not_finished")
        async with table.lock:
            if table.rematch_id is not None:
                new = self.get(table.rematch_id)
            else:
                request = NewTable(game=table.game.name, players=table.game.num_players,
                                   variant=table.game.config_json().get("variant"), timer=table.timer,
                                   seats=[SeatRequest(kind=s.kind, level=s.level, name=s.name or None)
                                          for s in table.seats])
                new, _, _ = self.create(request, claim=False)
                self.store.update_table(table.id, rematch=new.id)  # stored first, then remembered
                table.rematch_id = new.id
            tokens: dict[int, str] = {}
            for conn in table.connections:
                seat = conn.seat
                if seat is None or table.seats[seat].kind != "human":
                    continue
                if seat not in tokens and new.seats[seat].token_hash is None:
                    tokens[seat] = new.claim(seat, table.seats[seat].name or None)[1]
                conn.push(protocol.rematch(new.id, tokens.get(seat)))
            table.broadcast_table()
