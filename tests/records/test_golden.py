"""Golden game records: any silent change of the rules makes these games replay differently.

The records were written by ``scripts/make_golden.py`` from fixed seeds. If a rules change is
intended, regenerate them and explain the change in the commit.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sakura.engine import make_game
from sakura.records import GameRecord, random_playout, replay

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def test_there_are_golden_records_for_every_table() -> None:
    names = {p.name.rsplit("-seed", 1)[0] for p in GOLDEN}
    assert names == {"2p-court", "2p-tactical", "3p", "4p", "5p", "6p"}


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_record_replays_identically(path: Path) -> None:
    record = GameRecord.loads(path.read_text(encoding="utf-8"))
    final = replay(record)
    assert final.is_terminal()
    assert record.outcome is not None


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_the_same_seed_plays_the_same_game_byte_for_byte(path: Path) -> None:
    """Randomness is explicit and seeded: the same seed and the same (seeded) choices give
    the same record, byte for byte."""
    record = GameRecord.loads(path.read_text(encoding="utf-8"))
    assert record.seed is not None and not isinstance(record.seed, str)
    again = random_playout(make_game(record.game, record.config), record.seed, date=record.date)
    assert again.dumps(indent=1) + "\n" == path.read_text(encoding="utf-8")
