"""Sakura's heuristic: the judgements greedy plays by and MCTS leans on."""

from __future__ import annotations

import random

import pytest
from tests.bots.test_bots import play

from sakura.bots import make_bot
from sakura.bots.sakura_heuristic import SakuraHeuristic
from sakura.engine.games.sakura import BACK, Position, SakuraGame, state_from_position


def test_a_choice_that_would_bump_is_answered_back() -> None:
    """ "If a painter moves to the space with (or past) the Emperor, they fall from grace":
    card 16 (E+1 P±3) of a painter two spaces behind the Emperor must go back."""
    game = SakuraGame(3)
    position = Position.from_text(
        "3 e10 s0 p8,3,1 t5,5,5 q39 r2 h1.2.4.5/6.7.9.12/13.14.15.18 k16@0.30@1.40@2:p"
    )
    state = state_from_position(game, position, seed=1)
    assert state.pending_choice() == (0, 16, "painter")
    for spec in ("greedy", "mcts:40"):
        assert make_bot(spec, game, seed=1).act(state.view(0)) == BACK


def test_the_rollout_policy_and_the_view_agree_on_legal_actions() -> None:
    game = SakuraGame(2, "tactical")
    heuristic = SakuraHeuristic(game)
    rng = random.Random(1)
    for seed in range(10):
        state = game.new_initial_state(seed, events=False)
        while not state.is_terminal():
            for p in state.current_players():
                action = heuristic.rollout_action(state, p, rng)
                assert action in state.legal_actions(p)
                assert len(heuristic.prior(state, p, state.legal_actions(p))) == len(state.legal_actions(p))
                state.apply_fast(p, action)


@pytest.mark.parametrize("players", [3, 4])
def test_greedy_wins_more_than_its_share_against_random(players: int) -> None:
    """A small, seeded sample; the measured figures (thousands of games) are in docs/bots.md."""
    game = SakuraGame(players)
    wins = 0.0
    for seed in range(24):
        seat = seed % players
        specs = ["random"] * players
        specs[seat] = "greedy"
        state, _ = play(game, specs, seed=seed)
        outcome = state.outcome()
        assert outcome is not None
        wins += outcome.returns()[seat]
    assert wins / 24 > 1.5 / players
