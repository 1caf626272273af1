"""Game records work for the card game unchanged: a recorded game replays event for event."""

from __future__ import annotations

from sakura.engine import make_game
from sakura.records import GameRecord, random_playout, replay


def test_a_random_game_records_and_replays() -> None:
    game = make_game("sakura-cards")
    record = random_playout(game, seed=8, date="2026-11-30T00:00:00+00:00")
    assert record.to_json()["header"]["game"] == "sakura-cards"
    final = replay(GameRecord.loads(record.dumps()))
    outcome = final.outcome()
    assert final.is_terminal() and outcome is not None and outcome.to_dict() == record.outcome
