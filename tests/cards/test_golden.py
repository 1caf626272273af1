"""Golden playthroughs: two seeded games whose every action and event is pinned by a digest, so
that any silent change of the rules, the deal or the events shows up here."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from sakura.engine import make_game

GOLDEN = {
    1: ("51643505c87b3d701bf82d8d59781f4f260b9bfcabd6bf60f5535769523c6c00", (33, 29)),
    2: ("e2eb5047cf0f5a1c649bb4d2d241e43ee1aec6608b1b28121c0516fa6299671a", (22, 23)),
}


@pytest.mark.parametrize("seed", sorted(GOLDEN))
def test_golden_playthrough(seed: int) -> None:
    game = make_game("sakura-cards")
    state = game.new_initial_state(seed)
    chooser = random.Random(seed)
    steps = []
    while not state.is_terminal():
        (player,) = state.current_players()
        action = chooser.choice(state.legal_actions(player))
        steps.append([str(action), [e.to_dict() for e in state.apply_action(player, action)]])
    digest, scores = GOLDEN[seed]
    outcome = state.outcome()
    assert outcome is not None and outcome.scores == scores
    assert hashlib.sha256(json.dumps(steps).encode()).hexdigest() == digest
