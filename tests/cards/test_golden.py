"""Golden playthroughs: two seeded games whose every action and event is pinned by a digest, so
that any silent change of the rules, the deal or the events shows up here."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from sakura.engine import make_game

GOLDEN = {
    1: ("3588e0b5a40f5cb16ab8543940bc691b7310bb882af14694935da76bbec4dff1", (33, 29)),
    2: ("85c602ae82c2c15e9e351aaad18fdd1a6ce293683106b6cfc811e1d80fb72481", (22, 23)),
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
