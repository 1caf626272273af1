"""``docs/rl.md`` shows the observation layouts the code builds (so the document stays true)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sakura.engine import make_game
from sakura.rl import encoder_for

DOC = (Path(__file__).resolve().parents[2] / "docs" / "rl.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(("name", "config"), [("sakura", {"players": 4}), ("sakura-cards", {})])
def test_the_layout_tables_are_the_codes(name: str, config: dict[str, object]) -> None:
    enc = encoder_for(make_game(name, config))
    assert enc.layout.markdown() in DOC
    if enc.history.size:
        assert enc.history.markdown() in DOC


def test_the_sizes_table_and_the_tactical_slots_are_the_codes() -> None:
    for players, variant in [
        (2, "court"),
        (2, "tactical"),
        (3, "standard"),
        (4, "standard"),
        (5, "standard"),
        (6, "standard"),
    ]:
        enc = encoder_for(make_game("sakura", {"players": players, "variant": variant}))
        label = f"sakura, 2 players, {variant}" if players == 2 else f"sakura, {players} players"
        assert f"| {label} | {enc.size} | {enc.num_actions} | {enc.size + enc.history.size} |" in DOC
    tactical = encoder_for(make_game("sakura", {"players": 2, "variant": "tactical"}))
    for name in ("my_court_card", "double"):
        slot = tactical.layout[name]
        assert f"| `{name}` | {slot.size} | {slot.meaning} | `{slot.source}` |" in DOC
