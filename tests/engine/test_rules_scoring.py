"""Scoring a sakura: ranks, awards, the supply, the line-up behind the closest painter."""

from __future__ import annotations

import pytest
from tests.engine.scenarios import PainterMoved, SakuraScored, find, play, setup

# In every scenario the lowest card, 6 (E+1 P+1) or 15 (E+1 COUNT), takes the Emperor onto the
# next sakura; the other cards of the round are discarded unresolved.


def test_the_closest_three_painters_score_three_two_and_one() -> None:
    """Rulebook: "The closest player gains 3 ichas (or 4 for the last sakura space). The second
    closest gains 2 ichas. The third closest gains 1 icha."
    Ruling 8: "Scoring: ranks by closeness; 3 tokens (4 at the last sakura), 2, 1." """
    # Red (seat 1) plays 6 and steps from 3 to 4: blue 9, green 7, yellow 5, red 4.
    state = setup("4 e10 s0 p9,3,7,5", hands=(50, 6, 57, 58))
    events = play(state, 50, 6, 57, 58)
    assert find(events, SakuraScored) == [SakuraScored(0, 11, ((0, 1, 3), (2, 2, 2), (3, 3, 1)), 28)]
    assert (state.tokens, state.supply, state.scored) == ([8, 5, 7, 6], 28, 1)


@pytest.mark.parametrize(("players", "painters", "supply"), [(5, "11,3,9,7,5", 22), (6, "11,3,9,7,5,1", 17)])
def test_with_five_or_six_players_the_fourth_scores_one(players: int, painters: str, supply: int) -> None:
    """Rulebook: "If playing with five or six players, the fourth player also gains 1 icha." """
    cards = (50, 6, 57, 58, 59, 60)[:players]
    state = setup(f"{players} e12 s0 p{painters}", hands=cards)
    events = play(state, *cards)
    assert find(events, SakuraScored) == [
        SakuraScored(0, 13, ((0, 1, 3), (2, 2, 2), (3, 3, 1), (4, 4, 1)), supply)
    ]


def test_the_last_sakura_gives_four_to_the_closest() -> None:
    """Rulebook: "The closest player gains 3 ichas (or 4 for the last sakura space)." """
    state = setup("3 e32 s2 p31,20,25", hands=(50, 6, 57))
    events = play(state, 50, 6, 57)
    assert find(events, SakuraScored) == [SakuraScored(2, 33, ((0, 1, 4), (2, 2, 2), (1, 3, 1)), 32)]
    assert state.tokens == [9, 6, 7]


def test_painters_tied_on_the_gate_score_nothing() -> None:
    """Rulebook: "Painters together at the gate are neither ahead nor behind each other."
    Ruling 8: "Painters tied on the gate score nothing." """
    state = setup("4 e10 s0 p9,0,5,0", hands=(6, 50, 57, 58))
    events = play(state, 6, 50, 57, 58)
    assert find(events, SakuraScored) == [SakuraScored(0, 11, ((0, 1, 3), (2, 2, 2)), 29)]
    assert state.tokens == [8, 5, 7, 5]


def test_a_lone_painter_on_the_gate_ranks_last_and_scores_if_the_awards_reach_it() -> None:
    """Rulebook: "The third closest gains 1 icha."
    Ruling 15: "A lone painter on the gate ranks last and scores if the awards reach that
    rank." """
    state = setup("3 e10 s0 p9,5,0", hands=(6, 50, 57))
    events = play(state, 6, 50, 57)
    assert find(events, SakuraScored) == [SakuraScored(0, 11, ((0, 1, 3), (1, 2, 2), (2, 3, 1)), 33)]


def test_a_lone_painter_on_the_gate_beyond_the_awards_scores_nothing() -> None:
    """Rulebook: "The third closest gains 1 icha."
    Ruling 15: "A lone painter on the gate ranks last and scores if the awards reach that
    rank." """
    state = setup("4 e10 s0 p9,5,7,0", hands=(6, 50, 57, 58))
    events = play(state, 6, 50, 57, 58)
    assert find(events, SakuraScored) == [SakuraScored(0, 11, ((0, 1, 3), (2, 2, 2), (1, 3, 1)), 28)]
    assert state.tokens[3] == 5


def test_tokens_come_from_the_supply_in_rank_order_while_it_lasts() -> None:
    """Rulebook: "Players receive ichas from the supply according to their proximity to the
    Emperor."
    Ruling 8: "Tokens come from the supply, in rank order, while it lasts." """
    state = setup("3 e10 s0 p9,5,7 t20,15,15 q4", hands=(6, 50, 57))
    events = play(state, 6, 50, 57)
    assert find(events, SakuraScored) == [SakuraScored(0, 11, ((0, 1, 3), (2, 2, 1), (1, 3, 0)), 0)]
    assert (state.tokens, state.supply) == ([23, 15, 16], 0)


def test_after_scoring_the_others_line_up_behind_the_closest() -> None:
    """Rulebook: "After scoring, the second player moves their painter to the space directly
    behind the first painter, the third player moves their piece directly behind them, and so
    on."
    Ruling 9: "After scoring, the others line up directly behind the closest painter in their
    order." """
    state = setup("4 e10 s0 p8,3,7,5", hands=(6, 50, 57, 58))
    events = play(state, 6, 50, 57, 58)
    assert find(events, PainterMoved, cause="lineup") == [
        PainterMoved(2, 7, 8, "lineup"),
        PainterMoved(3, 5, 7, "lineup"),
        PainterMoved(1, 3, 6, "lineup"),
    ]
    assert state.pos == [9, 6, 8, 7]


def test_painters_tied_on_the_gate_join_the_line_in_seat_order() -> None:
    """Rulebook: "After scoring, the second player moves their painter to the space directly
    behind the first painter, ... and so on."
    Ruling 9: "... painters tied on the gate join the line in seat order." """
    state = setup("4 e10 s0 p8,0,6,0", hands=(6, 50, 57, 58))
    play(state, 6, 50, 57, 58)
    assert state.pos == [9, 7, 8, 6]


def test_the_line_up_stops_at_the_gate() -> None:
    """Rulebook: "If a painter moves backward beyond the gate, they are placed on the gate."
    Ruling 16: "The line-up after scoring stops at the gate (painters who do not fit share the
    gate)." """
    state = setup("4 e10 s0 p1,0,0,0", hands=(6, 50, 57, 58))
    events = play(state, 6, 50, 57, 58)
    assert find(events, SakuraScored) == [SakuraScored(0, 11, ((0, 1, 3),), 31)]
    assert state.pos == [2, 1, 0, 0]


def test_with_everyone_on_the_gate_nobody_scores_and_nobody_moves() -> None:
    """Rulebook: "Painters together at the gate are neither ahead nor behind each other, which
    affects some actions (e.g., if everyone is at the gate, no one is closest or furthest from
    the Emperor)."
    Ruling 17: "If all painters are on the gate at a scoring, nobody scores and nobody
    moves." """
    # Card 15 (E+1 COUNT): blue has nobody ahead and stays on the gate.
    state = setup("3 e10 s0 p0,0,0", hands=(15, 50, 57))
    events = play(state, 15, 50, 57)
    assert find(events, SakuraScored) == [SakuraScored(0, 11, (), 39)]
    assert not find(events, PainterMoved)
    assert (state.pos, state.tokens, state.scored) == ([0, 0, 0], [5, 5, 5], 1)


def test_after_scoring_hands_refill_to_five_and_play_goes_on() -> None:
    """Rulebook: "Finally, each player completes their hand to 5 cards and the game continues
    normally."
    Ruling 9: "Then all hands refill to five and play goes on." """
    state = setup("3 e10 s0 p9,5,0", hands=(6, 50, 57))
    play(state, 6, 50, 57)
    assert not state.is_terminal() and state.scored == 1
    assert [len(h) for h in state.hands] == [5, 5, 5]
    assert state.round == 2 and state.current_players() == (0, 1, 2)
    assert state.pos == [10, 9, 8]
