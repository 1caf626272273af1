"""Write the golden game records that tests/records/test_golden.py replays.

Run only when a rules change is intended: ``python scripts/make_golden.py``; then review the
diff of tests/records/golden/ and say in the commit why the games changed.
"""

from __future__ import annotations

from pathlib import Path

from sakura.engine import make_game
from sakura.records import random_playout

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "records" / "golden"
TABLES = {
    "2p-court": {"players": 2, "variant": "court"},
    "2p-tactical": {"players": 2, "variant": "tactical"},
    "3p": {"players": 3},
    "4p": {"players": 4},
    "5p": {"players": 5},
    "6p": {"players": 6},
}
SEEDS = (1, 2)


def main() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, config in TABLES.items():
        game = make_game("sakura", config)
        for seed in SEEDS:
            record = random_playout(game, seed, date="2026-11-30T00:00:00+00:00")
            (GOLDEN / f"{name}-seed{seed}.json").write_text(record.dumps(indent=1) + "\n")
    print(f"wrote {len(TABLES) * len(SEEDS)} records to {GOLDEN}")


if __name__ == "__main__":
    main()
