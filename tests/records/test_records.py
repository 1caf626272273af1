"""Game records: format round-trips, replay detects divergence, bad files are rejected."""

from __future__ import annotations

import copy
import json

import pytest

from sakura.engine import make_game
from sakura.records import (
    FORMAT,
    GameRecord,
    InvalidRecordError,
    ReplayDivergenceError,
    random_playout,
    replay,
)


@pytest.fixture(scope="module")
def record() -> GameRecord:
    return random_playout(make_game("sakura", {"players": 4}), 11, date="2026-01-01T00:00:00+00:00")


def test_record_has_header_deal_moves_events_and_outcome(record: GameRecord) -> None:
    data = record.to_json()
    assert data["format"] == FORMAT
    header = data["header"]
    assert header["game"] == "sakura"
    assert header["config"] == {"players": 4, "variant": "standard"}
    assert header["seed"] == 11
    assert header["players"] == ["Player 1", "Player 2", "Player 3", "Player 4"]
    assert header["engine_version"]
    assert header["date"] == "2026-01-01T00:00:00+00:00"
    assert len(data["initial"]["position"]["hands"]) == 4
    assert data["moves"][0]["action"].startswith("play ")
    kinds = {e["type"] for m in data["moves"] for e in m["events"]}
    assert {
        "card_chosen",
        "cards_revealed",
        "card_resolving",
        "emperor_moved",
        "sakura_scored",
        "hands_refilled",
        "game_ended",
    } <= kinds
    assert data["outcome"]["winners"]


def test_record_round_trips_through_json(record: GameRecord) -> None:
    assert GameRecord.loads(record.dumps()) == record
    assert GameRecord.loads(record.dumps(indent=2)).dumps() == record.dumps()


def test_replay_reproduces_the_final_state(record: GameRecord) -> None:
    final = replay(record)
    assert final.is_terminal()
    outcome = final.outcome()
    assert outcome is not None and outcome.to_dict() == record.outcome


def test_replay_calls_the_step_hook_after_each_card_and_choice(record: GameRecord) -> None:
    """One position after every resolved card, and one after every choice of the Emperor's
    direction (a painter's choice finishes its card: that is one position)."""
    texts: list[str] = []
    replay(record, on_step=lambda s: texts.append(s.text()))
    resolved = sum(1 for m in record.moves for e in m.events if e["type"] == "card_resolving")
    garden_choices = sum(
        1 for m in record.moves for e in m.events if e["type"] == "choice_made" and e["part"] == "garden"
    )
    assert garden_choices > 0
    assert len(texts) == resolved + garden_choices


def _tampered(record: GameRecord, change: object) -> GameRecord:
    data = copy.deepcopy(record.to_json())
    assert callable(change)
    change(data)
    return GameRecord.from_json(data)


def test_replay_fails_loudly_on_a_changed_event(record: GameRecord) -> None:
    def change(data: dict) -> None:  # type: ignore[type-arg]
        for move in data["moves"]:
            for event in move["events"]:
                if event["type"] == "emperor_moved":
                    event["end"] += 1
                    return

    with pytest.raises(ReplayDivergenceError, match=r"move \d+: event \d+"):
        replay(_tampered(record, change))


def test_replay_fails_loudly_on_an_illegal_move(record: GameRecord) -> None:
    def change(data: dict) -> None:  # type: ignore[type-arg]
        data["moves"][0]["action"] = "play 999"

    with pytest.raises(ReplayDivergenceError, match=r"move 1: .*not in player"):
        replay(_tampered(record, change))


def test_replay_fails_on_a_different_deal(record: GameRecord) -> None:
    def change(data: dict) -> None:  # type: ignore[type-arg]
        data["header"]["seed"] = 12

    with pytest.raises(ReplayDivergenceError, match="initial deal"):
        replay(_tampered(record, change))


def test_replay_without_seed_starts_from_the_recorded_deal(record: GameRecord) -> None:
    def change(data: dict) -> None:  # type: ignore[type-arg]
        data["header"]["seed"] = None

    assert replay(_tampered(record, change)).is_terminal()


def test_replay_fails_on_a_truncated_record(record: GameRecord) -> None:
    def change(data: dict) -> None:  # type: ignore[type-arg]
        data["moves"] = data["moves"][:-1]

    with pytest.raises(ReplayDivergenceError, match="outcome differs"):
        replay(_tampered(record, change))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "a record is JSON"),
        ("[]", "a record is a JSON object"),
        ('{"format": "chess-pgn"}', "not a Sakura record"),
        (json.dumps({"format": FORMAT}), "lacks 'header'"),
        (json.dumps({"format": FORMAT, "header": {"players": []}, "moves": {}}), "'moves' should be a list"),
        (
            json.dumps(
                {
                    "format": FORMAT,
                    "header": {"players": [], "game": "sakura", "config": {}},
                    "moves": [{"player": "x", "action": "play 1"}],
                    "initial": {},
                }
            ),
            "'player'",
        ),
        (
            json.dumps(
                {
                    "format": FORMAT,
                    "header": {"players": [], "game": "sakura", "config": {}},
                    "moves": [{"player": 0, "action": 5}],
                    "initial": {},
                }
            ),
            "'action'",
        ),
        (
            json.dumps(
                {
                    "format": FORMAT,
                    "header": {"players": [], "game": "sakura", "config": {}, "seed": 1.5},
                    "moves": [],
                    "initial": {},
                }
            ),
            "seed",
        ),
    ],
)
def test_malformed_records_are_rejected_clearly(text: str, message: str) -> None:
    with pytest.raises(InvalidRecordError, match=message):
        GameRecord.loads(text)


def test_a_record_of_an_unknown_game_does_not_replay(record: GameRecord) -> None:
    def change(data: dict) -> None:  # type: ignore[type-arg]
        data["header"]["game"] = "go"

    with pytest.raises(ReplayDivergenceError, match="unknown game"):
        replay(_tampered(record, change))
