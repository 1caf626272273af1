"""The three-area card game (``sakura-cards``) on the same server: tables, whole games through
real WebSockets, hidden cards, restarts, records, rematches and the lobby's checks."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import (
    ScriptedPlayer,
    create_table,
    join,
    late_watchers,
    receive,
    socket,
    two_players_and_a_watcher,
)

from sakura.engine.games.cards import CardsState, Place
from sakura.records import GameRecord, replay
from sakura.server import create_app
from sakura.server.lobby import Lobby

CARD = re.compile(r"\b[rbgy][1-5]\*?(?![\w*])")


def create_cards_table(client: TestClient, seats: list[str]) -> dict[str, Any]:
    return create_table(client, 2, seats, game="sakura-cards")


def test_a_whole_card_game_against_a_bot_with_a_spectator(client: TestClient) -> None:
    created = create_cards_table(client, ["human", "medium"])
    table = created["table"]
    assert table["game"] == "sakura-cards" and table["players"] == 2 and table["variant"] is None
    player = ScriptedPlayer(client, table["id"], created["token"], seed=4)
    watcher = ScriptedPlayer(client, table["id"], None)
    for c in (player, watcher):
        c.start()
    for c in (player, watcher):
        c.join()
    assert not player.errors and not watcher.errors
    final = player.last_view
    assert final is not None and final["terminal"] and final["round"] == 3
    assert watcher.last_view is not None and watcher.last_view["hand"] is None
    assert watcher.last_view["outcome"] == final["outcome"]
    assert [len(r) for r in final["round_scores"]] == [3, 3]
    # Three rounds of twenty cards: forty-odd decisions each for the player and the bot.
    info = client.get(f"/api/tables/{table['id']}").json()
    assert info["status"] == "finished" and info["seq"] >= 3 * 2 * 19
    record = GameRecord.loads(client.get(f"/api/tables/{table['id']}/record").text)
    assert record.game == "sakura-cards" and record.seed is None
    assert replay(record).outcome().to_dict() == final["outcome"]  # type: ignore[union-attr]
    steps = client.get(f"/api/tables/{table['id']}/replay").json()["steps"]
    assert len(steps) == info["seq"] + 1 and steps[-1]["view"]["terminal"]
    assert all(step["view"]["hand"] is None for step in steps)  # the replay is the spectator's


def visible(state: CardsState, seat: int | None) -> set[str]:
    """The cards ``seat`` may know of now, from the full state: every area (public), and its
    own hand, gifts both ways and discards. Never the other hand, discards or the set-aside."""
    seen = {card for areas in state.areas for area in areas for card in area}
    if seat is not None:
        seen |= set(state.hands[seat]) | set(state.given[seat]) | set(state.received[seat])
        seen |= set(state.discards[seat])
    return seen


def cards_in(message: Any) -> list[str]:
    """Every card a message names, wherever it sits (values, lists, action texts)."""
    if isinstance(message, dict):
        assert not {"seed", "rng", "token_hash"} & set(message), f"message carries a secret: {message}"
        if "aside" in message:
            assert isinstance(message["aside"], int), "the set-aside cards are a count, never a list"
        return [card for value in message.values() for card in cards_in(value)]
    if isinstance(message, list):
        return [card for value in message for card in cards_in(value)]
    if isinstance(message, str):
        return CARD.findall(message)
    return []


def test_the_card_detector_finds_cards_anywhere() -> None:
    assert cards_in(
        {"view": {"hand": ["r1*", "b3"]}, "action": "place g5* temple", "events": [{"hands": [None, ["y2"]]}]}
    ) == ["r1*", "b3", "g5*", "y2"]
    with pytest.raises(AssertionError):
        cards_in({"view": {"aside": ["r1"]}})


def test_no_message_carries_a_card_its_client_may_not_see(client: TestClient) -> None:
    created = create_cards_table(client, ["human", "human"])
    table_id = created["table"]["id"]
    late = late_watchers(client, table_id, (5, 20, 40))  # spectators arriving mid-game
    clients, tokens = two_players_and_a_watcher(client, table_id, created["token"], (7, 8))
    for watcher in late:
        watcher.join()
    assert all(w.messages[0]["type"] == "welcome" and w.messages[0]["seq"] > 0 for w in late)
    clients = [*clients, *late]
    lobby: Lobby = client.app.state.lobby  # type: ignore[attr-defined]
    stored = lobby.store.load(table_id)
    assert stored is not None
    game = lobby.tables[table_id].game
    state = game.new_initial_state(stored.seed)
    seats: list[int | None] = [0, 1, None]
    allowed: dict[int | None, list[set[str]]] = {s: [visible(state, s)] for s in seats}
    for seat, text in stored.actions:  # a message about action k may name what was visible around it
        before = {s: visible(state, s) for s in seats}
        action = game.parse_action(text)
        state.apply_action(seat, action)
        # A placed card is public, even the round's last one, whose area is cleared at once.
        placed = {action.card} if isinstance(action, Place) else set()
        for s in seats:
            allowed[s].append(before[s] | visible(state, s) | placed)
    checked = 0
    for c in clients:
        assert c.last_view is not None and c.last_view["terminal"]
        for message in c.messages:
            assert all(t not in str(message) for t in tokens), "a token was sent over the table's socket"
            if "seq" not in message:
                continue
            cards = cards_in(message)
            may = allowed[c.seat][message["seq"]]
            if message["type"] == "welcome":  # its history: what this viewer could see back then
                may = set().union(*allowed[c.seat][: message["seq"] + 1])
            extra = set(cards) - may
            assert not extra, f"seat {c.seat} was sent {sorted(extra)} in {message}"
            checked += len(cards)
    assert checked > 1000


def test_a_card_table_survives_a_restart(database_url: str) -> None:
    with TestClient(create_app(database_url)) as client:
        created = create_cards_table(client, ["human", "easy"])
        table_id, token = created["table"]["id"], created["token"]
        stop = lambda m: m["type"] == "update" and m["seq"] >= 15  # noqa: E731
        ScriptedPlayer(client, table_id, token, seed=2, stop_when=stop).start().join()
        with socket(client, table_id, token) as (ws, welcome):
            before = welcome
            while 0 not in before["view"]["current_players"]:  # until the bot has played
                before = receive(ws, "update")
    with TestClient(create_app(database_url)) as client:
        with socket(client, table_id, token) as (_, after):
            assert after["table"]["game"] == "sakura-cards"
            assert after["view"] == before["view"] and after["seq"] == before["seq"]
        player = ScriptedPlayer(client, table_id, token, seed=3).start()
        player.join()
        assert not player.errors and player.last_view is not None and player.last_view["terminal"]


def test_illegal_moves_get_the_engines_words_and_change_nothing(client: TestClient) -> None:
    created = create_cards_table(client, ["human", "human"])
    table_id = created["table"]["id"]
    tokens = [created["token"], join(client, table_id)]
    with (
        socket(client, table_id, tokens[0]) as (ws0, welcome0),
        socket(client, table_id, tokens[1]) as (ws1, _),
    ):
        turn = welcome0["view"]["turn"]
        mover, waiter = (ws0, ws1) if turn == 0 else (ws1, ws0)
        waiter.send_json({"type": "act", "action": "place r1 garden"})
        error = receive(waiter, "error")
        assert error["code"] == "illegal" and "turn" in error["message"]
        mover.send_json({"type": "act", "action": "give r1"})
        error = receive(mover, "error")
        assert error["code"] == "illegal" and "place" in error["message"]
        mover.send_json({"type": "act", "action": "place x9 garden"})
        assert "not a card" in receive(mover, "error")["message"]
        assert client.get(f"/api/tables/{table_id}").json()["seq"] == 0


def test_a_rematch_is_a_new_card_game_with_the_same_seats(client: TestClient) -> None:
    created = create_cards_table(client, ["human", "easy"])
    table_id, token = created["table"]["id"], created["token"]
    ScriptedPlayer(client, table_id, token, seed=1).start().join()
    with socket(client, table_id, token) as (ws, _):
        ws.send_json({"type": "rematch"})
        rematch = receive(ws, "rematch")
    new = client.get(f"/api/tables/{rematch['table']}").json()
    assert new["game"] == "sakura-cards" and new["status"] == "playing" and rematch["token"]
    assert [s["kind"] for s in new["seats"]] == ["human", "bot"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "sakura-cards", "players": 3}, "two players"),
        ({"game": "sakura-cards", "players": 2, "variant": "court"}, "unknown config"),
        ({"game": "chess", "players": 2}, "unknown game"),
    ],
)
def test_the_lobby_refuses_a_table_the_game_does_not_allow(
    client: TestClient, body: dict[str, Any], words: str
) -> None:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400 and words in response.text
    assert client.get("/api/tables").json()["open"] == []
