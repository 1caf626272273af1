"""The balance figures against direct computations on hand-made results."""

from __future__ import annotations

import pytest
from tests.tournament.synthetic import GAME, result

from sakura.tournament.balance import balance


def test_the_dealt_effect_by_hand() -> None:
    # Card 1 dealt to the winner twice, to the loser once; never dealt in deal 3.
    results = [
        result(0, 9, 0, [[1], [2]]),
        result(1, 9, 0, [[2], [1]]),
        result(2, 9, 0, [[1], [3]]),
        result(3, 9, 1, [[4], [5]]),
    ]
    card = balance(results, GAME).cards[1]
    assert card.dealt_rate.value == pytest.approx(2 / 3)
    not_dealt_wins, not_dealt = 2, 5  # the other hands: lost, won, lost, lost, won
    assert card.dealt.value == pytest.approx(2 / 3 - not_dealt_wins / not_dealt)
    assert card.dealt.clusters == 4


def test_per_bot_win_rates_over_their_seat_games() -> None:
    results = [
        result(d, 9, d % 2, [[1], [2]], seats=("greedy", "random") if d < 2 else ("random", "greedy"))
        for d in range(4)
    ]
    # greedy sits in seat 0, 0, 1, 1 and the winners are seats 0, 1, 0, 1: greedy wins deals 0 and 3.
    data = balance(results, GAME)
    assert data.bot_wins["greedy"].value == 0.5 and data.bot_wins["random"].value == 0.5
    assert data.bot_wins["greedy"].n == 4 and data.bot_wins["greedy"].clusters == 4


def test_a_sakura_where_everyone_is_tied_says_nothing_about_standings() -> None:
    """The issue's artefact: at the first sakura everyone holds 5 tokens, so "from 1st" was ~97%."""
    tied = {"index": 0, "order": [1, 0, 2], "standing_before": [1, 1, 1], "leader_before": 0}
    led = {"index": 1, "order": [1, 0, 2], "standing_before": [1, 2, 2], "leader_before": 0}
    data = balance(
        [result(0, 9, 0, [[1], [2]], sakuras=[tied, led]), result(1, 9, 0, [[1], [2]], sakuras=[tied])], GAME
    )
    assert data.first_tied[0] == 2 and data.first_from[0] == [[0, 0], [0, 0], [0, 0]]
    # sakura 2: the leader (painter 0) did not take first place; of the two second, one did.
    assert data.first_tied[1] == 0 and data.first_from[1] == [[1, 0], [2, 1], [0, 0]]
