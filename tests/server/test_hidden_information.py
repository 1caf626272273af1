"""No client ever receives a card it is not entitled to see at that moment.

Every message each client receives in a whole game is recorded. Afterwards the game is
replayed from the server's seed and stored actions, and for each action we collect the cards
a seat could legitimately know while it resolved (its own hand and secret choice, the revealed
cards of the round, the discard pile), at every step the engine reports. Every card number a
message carries, wherever it sits, must be in that set; nothing may name a seed, the deck or
another seat's token.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import ScriptedPlayer, create_table, join, late_watchers, two_players_and_a_watcher

from sakura.engine.games.sakura import SakuraState
from sakura.server.lobby import Lobby

CARD_LISTS = {"hand", "my_choice", "discard", "cards", "draws", "order"}
CARD_PAIRS = {"plays", "revealed", "last_round"}  # (seat, card) pairs
FORBIDDEN_KEYS = {"seed", "deck", "hands", "picks", "rng", "token_hash"}


def _ints(value: Any) -> list[int]:
    if isinstance(value, bool) or value is None:
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, list):
        return [n for v in value for n in _ints(v)]
    return []


def cards_in(message: Any, key: str | None = None) -> list[int]:
    """Every card number in a message, found by the fields that carry cards."""
    found: list[int] = []
    if isinstance(message, dict):
        for k, v in message.items():
            assert k not in FORBIDDEN_KEYS, f"message carries {k!r}"
            if k in CARD_LISTS or k == "card":
                found += _ints(v)
            elif k in CARD_PAIRS and isinstance(v, list):
                found += [pair[1] for pair in v]
            elif k == "pending" and v is not None:
                found.append(v[1])
            elif k == "action" and isinstance(v, str):
                found += [int(n) for n in re.findall(r"\d+", v)]
            else:
                found += cards_in(v, k)
    elif isinstance(message, list):
        for v in message:
            found += cards_in(v, key)
    return found


def visible(state: SakuraState, seat: int | None) -> set[int]:
    """What ``seat`` may know now, from the full state: own hand and pick, table cards."""
    seen = set(state.discard)
    if state.qi < len(state.queue) or not state.in_selection:
        seen |= {card for card, _ in state.queue}
    seen |= {card for _, card in state.last_round}  # played face up, though maybe shuffled since
    if seat is not None:
        seen |= set(state.hands[seat])
        seen |= set(state.picks[seat] or ())
    return seen


def entitlements(lobby: Lobby, table_id: str, seats: list[int | None]) -> dict[int | None, list[set[int]]]:
    """``result[seat][k]``: the cards ``seat`` may see in a message about action ``k`` (0: the deal)."""
    table = lobby.tables[table_id]
    stored = lobby.store.load(table_id)
    assert stored is not None
    state = table.game.new_initial_state(stored.seed)
    out: dict[int | None, list[set[int]]] = {s: [visible(state, s)] for s in seats}
    steps: list[SakuraState] = []
    state.set_step_hook(lambda s: steps.append(s.clone()))  # type: ignore[arg-type]
    for seat, text in stored.actions:
        before = {s: visible(state, s) for s in seats}
        steps.clear()
        state.apply_action(seat, table.game.parse_action(text))
        for s in seats:
            allowed = before[s] | visible(state, s)
            for step in steps:
                allowed |= visible(step, s)
            out[s].append(allowed)
    return out


@pytest.mark.parametrize(
    ("players", "variant", "seats"),
    [
        (4, None, ["human", "human", "easy", "medium"]),
        (2, "court", ["human", "human"]),
        (2, "tactical", ["human", "human"]),
    ],
)
def test_no_message_carries_a_card_its_client_may_not_see(
    client: TestClient, players: int, variant: str | None, seats: list[str]
) -> None:
    created = create_table(client, players, seats, variant=variant)
    table_id = created["table"]["id"]
    clients, tokens = two_players_and_a_watcher(client, table_id, created["token"], (5, 6))
    lobby: Lobby = client.app.state.lobby  # type: ignore[attr-defined]
    allowed = entitlements(lobby, table_id, [0, 1, None])
    checked = 0
    for c in clients:
        assert c.messages and c.last_view is not None and c.last_view["terminal"]
        for message in c.messages:
            text = str(message)
            assert all(t not in text for t in tokens), "a token was sent over the table's socket"
            if "seq" not in message:
                continue
            cards = cards_in(message)
            extra = set(cards) - allowed[c.seat][message["seq"]]
            assert not extra, f"seat {c.seat} was sent {sorted(extra)} in {message}"
            checked += len(cards)
    assert checked > 100  # the check saw plenty of cards


def test_the_check_catches_a_leak() -> None:
    """The detector itself: another seat's hand in a message is found."""
    assert cards_in(
        {
            "type": "update",
            "view": {"hand": [1, 2]},
            "events": [{"type": "hands_refilled", "counts": [5], "draws": [None, [7]]}],
        }
    ) == [1, 2, 7]
    with pytest.raises(AssertionError):
        cards_in({"seed": 3})


@pytest.mark.parametrize(
    ("players", "variant", "seats"),
    [
        (2, "tactical", ["human", "human"]),
        (3, None, ["human", "human", "easy"]),
        (5, None, ["human", "human", "easy", "medium", "easy"]),
        (6, None, ["human", "human", "easy", "easy", "medium", "easy"]),
    ],
)
def test_spectators_arriving_mid_game_see_no_hidden_card(
    client: TestClient, players: int, variant: str | None, seats: list[str]
) -> None:
    created = create_table(client, players, seats, variant=variant)
    table_id = created["table"]["id"]
    tokens = [created["token"], join(client, table_id)]
    watchers = late_watchers(client, table_id, (3, 11, 25))
    players_ = [
        ScriptedPlayer(client, table_id, t, seed=20 + i, policy=_slow_random(20 + i)).start()
        for i, t in enumerate(tokens)
    ]
    for p in players_:
        p.join()
    for w in watchers:
        w.join()
    lobby: Lobby = client.app.state.lobby  # type: ignore[attr-defined]
    allowed = entitlements(lobby, table_id, [0, 1, None])
    checked = 0
    for c in [*players_, *watchers]:
        assert c.last_view is not None and c.last_view["terminal"]
        for message in c.messages:
            assert all(t not in str(message) for t in tokens), "a token was sent over the table's socket"
            if "seq" not in message:
                continue
            may = allowed[c.seat][message["seq"]]
            if message["type"] == "welcome":  # its history: what this viewer could see back then
                may = set().union(*allowed[c.seat][: message["seq"] + 1])
            extra = set(cards_in(message)) - may
            assert not extra, f"seat {c.seat} was sent {sorted(extra)} in {message}"
            checked += 1
    assert all(w.messages[0]["type"] == "welcome" and w.messages[0]["seq"] > 0 for w in watchers)
    assert checked > 50


def _slow_random(seed: int) -> Any:
    """Random legal actions, a little slowly, so that the late spectators arrive mid-game."""
    rng = random.Random(seed)

    def choose(view: dict[str, Any]) -> str:
        time.sleep(0.005)
        return str(rng.choice(view["legal_actions"]))

    return choose
