"""The card actions that move painters: C-2, F+2, P+n, P±n, JUMP and COUNT."""

from __future__ import annotations

from tests.engine.scenarios import Bumped, PainterMoved, PainterStayed, choose, find, play, setup

from sakura.engine.games.sakura import BACK, FORWARD

# ---------------------------------------------------------------- garden actions on painters


def test_c_minus_2_moves_the_painter_closest_to_the_emperor_two_spaces_back() -> None:
    """Rulebook: "Move the painter closest to the Emperor two spaces backward." (C-2)
    Ruling 7: "Closest = highest space in the garden." """
    # Red (seat 1) plays 8 (C-2 P+1); blue on 12 is closest and goes back over 11 and 10.
    state = setup("3 e14 s1 p12,10,11", hands=(50, 8, 57))
    events = play(state, 50, 8, 57)
    assert find(events, PainterMoved, card=8) == [
        PainterMoved(0, 12, 8, "closest", 8),
        PainterMoved(1, 10, 12, "painter", 8),
    ]


def test_c_minus_2_can_move_its_own_player() -> None:
    """Rulebook: "Move the painter closest to the Emperor two spaces backward."
    Ruling 24: "C-2 and F+2 move whichever painter is closest or furthest, the card's own
    painter included." """
    state = setup("3 e14 s1 p12,10,11", hands=(8, 50, 57))
    events = play(state, 8, 50, 57)
    assert find(events, PainterMoved, card=8) == [
        PainterMoved(0, 12, 8, "closest", 8),
        PainterMoved(0, 8, 9, "painter", 8),
    ]


def test_c_minus_2_moves_nobody_when_all_painters_are_on_the_gate() -> None:
    """Rulebook: "Painters together at the gate are neither ahead nor behind each other, which
    affects some actions (e.g., if everyone is at the gate, no one is closest or furthest from
    the Emperor)."
    Ruling 7: "If all are on the gate nobody is closest." """
    state = setup("3 e8 s0 p0,0,0", hands=(8, 50, 57))
    events = play(state, 8, 50, 57)
    assert find(events, PainterStayed, card=8) == [PainterStayed(None, 8, "nobody")]
    assert find(events, PainterMoved, card=8) == [PainterMoved(0, 0, 1, "painter", 8)]


def test_c_minus_2_with_one_painter_in_the_garden_moves_that_one() -> None:
    """Rulebook: "Move the painter closest to the Emperor two spaces backward."
    Ruling 7: "Closest = highest space in the garden; painters together on the gate are
    tied." """
    state = setup("3 e8 s0 p0,3,0", hands=(8, 50, 57))
    events = play(state, 8, 50, 57)
    assert find(events, PainterMoved, cause="closest") == [PainterMoved(1, 3, 1, "closest", 8)]


def test_f_plus_2_moves_the_painter_furthest_from_the_emperor_two_spaces_forward() -> None:
    """Rulebook: "Move the painter furthest from the Emperor two spaces forward." (F+2)
    Ruling 1: "Painters move by counting only spaces not occupied by other painters." """
    # Green (seat 2) plays 1 (F+2 P+2): red on 5 is furthest and goes over green on 6 to 8.
    state = setup("3 e14 s1 p12,5,6", hands=(50, 57, 1))
    events = play(state, 50, 57, 1)
    assert find(events, PainterMoved, card=1) == [
        PainterMoved(1, 5, 8, "furthest", 1),
        PainterMoved(2, 6, 9, "painter", 1),
    ]


def test_f_plus_2_moves_nobody_when_two_painters_share_the_gate() -> None:
    """Rulebook (Spanish): "Del mismo modo, si dos o más personas están en la puerta, nadie está
    más lejos del Emperador." (Likewise, if two or more are on the gate, nobody is furthest
    from the Emperor.)
    Ruling 7: "If two or more are on the gate nobody is furthest." """
    state = setup("3 e14 s1 p3,0,0", hands=(1, 50, 57))
    events = play(state, 1, 50, 57)
    assert find(events, PainterStayed, card=1) == [PainterStayed(None, 1, "nobody")]


def test_f_plus_2_moves_a_lone_painter_on_the_gate() -> None:
    """Rulebook: "Move the painter furthest from the Emperor two spaces forward."
    Ruling 7: "A single painter on the gate is behind everyone." """
    state = setup("3 e14 s1 p3,5,0", hands=(1, 50, 57))
    events = play(state, 1, 50, 57)
    assert find(events, PainterMoved, cause="furthest") == [PainterMoved(2, 0, 2, "furthest", 1)]


def test_f_plus_2_can_bump_the_furthest_painter_into_the_emperor() -> None:
    """Rulebook: "If a painter moves to the space with (or past) the Emperor, they "fall from
    grace," ..."
    Ruling 2: "Reaching the Emperor's space (moving onto or past him) is a bump." """
    # Blue (seat 0) on 10 is furthest: 11, then over 12 and 13 onto the Emperor on 14. Back
    # from 14 over 13 and 12: 11, 10 (its own former space) and 9.
    state = setup("3 e14 s1 p10,12,13", hands=(1, 50, 57))
    events = play(state, 1, 50, 57)
    assert find(events, Bumped, card=1) == [Bumped(0, 10, 14, 9, True, "painter", 1)]


# ---------------------------------------------------------------- painter actions


def test_p_plus_n_moves_your_painter_n_spaces_forward() -> None:
    """Rulebook: "Move your painter 1, 2, or 3 spaces forward." (P+1, P+2, P+3)"""
    # Cards 6 (E+1 P+1), 28 (E+1 P+2) and 37 (E+1 P+3).
    state = setup("3 e14 s1 p0,0,0", hands=(6, 28, 37))
    events = play(state, 6, 28, 37)
    assert find(events, PainterMoved) == [
        PainterMoved(0, 0, 1, "painter", 6),
        PainterMoved(1, 0, 3, "painter", 28),
        PainterMoved(2, 0, 5, "painter", 37),
    ]


def test_p_choice_moves_your_painter_the_way_you_choose() -> None:
    """Rulebook: "Choose whether your painter moves 1, 2, or 3 spaces forward or backward."
    (P±1, P±2, P±3)"""
    # Cards 10 (E+1 P±2), 16 (E+1 P±3) and 46 (E+1 P±1).
    state = setup("3 e14 s1 p5,8,0", hands=(10, 16, 46))
    play(state, 10, 16, 46)
    events = choose(state, FORWARD, BACK, FORWARD)
    assert find(events, PainterMoved) == [
        PainterMoved(0, 5, 7, "painter", 10),
        PainterMoved(1, 8, 4, "painter", 16),
        PainterMoved(2, 0, 1, "painter", 46),
    ]
    assert state.emperor == 17


def test_jump_goes_to_the_first_empty_space_in_front_of_the_next_painter_ahead() -> None:
    """Rulebook: "Place your painter on the first empty space in front of the next painter
    ahead of you." (JUMP)"""
    # Card 30 (E+1 JUMP): the next painter ahead of blue is on 9, space 10 is taken, so 11.
    state = setup("3 e16 s1 p5,9,10", hands=(30, 50, 57))
    events = play(state, 30, 50, 57)
    assert find(events, PainterMoved, card=30) == [PainterMoved(0, 5, 11, "jump", 30)]


def test_jump_may_bump_into_the_emperor() -> None:
    """Rulebook: "This action may cause you to bump into the Emperor."
    Ruling 2: "Reaching the Emperor's space (moving onto or past him) is a bump ... goes back
    three empty spaces counted from the Emperor's space." """
    # Card 5 (E±1 JUMP), Emperor chosen back to 15: the spaces in front of 13 and 14 end at
    # the Emperor. Back from 15 over 14 and 13: 12, 11, 10.
    state = setup("3 e16 s1 p5,13,14", hands=(5, 50, 57))
    play(state, 5, 50, 57)
    events = choose(state, BACK)
    assert find(events, Bumped, card=5) == [Bumped(0, 5, 15, 10, True, "painter", 5)]


def test_jump_of_the_closest_painter_does_not_move() -> None:
    """Rulebook: "If your painter is closest to the Emperor, they do not move." (JUMP)"""
    state = setup("3 e16 s1 p12,5,0", hands=(30, 50, 57))
    events = play(state, 30, 50, 57)
    assert find(events, PainterStayed, card=30) == [PainterStayed(0, 30, "closest")]


def test_jump_from_the_gate_looks_at_the_painters_in_the_garden() -> None:
    """Rulebook: "Painters together at the gate are neither ahead nor behind each other, which
    affects some actions."
    Ruling 7: "JUMP and COUNT from the gate look at the painters in the garden." """
    state = setup("3 e16 s1 p0,5,0", hands=(30, 50, 57))
    events = play(state, 30, 50, 57)
    assert find(events, PainterMoved, card=30) == [PainterMoved(0, 0, 6, "jump", 30)]


def test_jump_with_everyone_else_on_the_gate_does_not_move() -> None:
    """Ruling 14: "JUMP and COUNT with no painter ahead of you (you are closest, or everyone
    else is on the gate with you) do not move you." """
    state = setup("3 e16 s1 p0,0,0", hands=(30, 50, 57))
    events = play(state, 30, 50, 57)
    assert find(events, PainterStayed, card=30) == [PainterStayed(0, 30, "no_one_ahead")]


def test_count_moves_one_space_per_painter_between_you_and_the_emperor() -> None:
    """Rulebook: "Count the number of painters between you and the Emperor and then move one
    space for each." (COUNT)"""
    # Card 15 (E+1 COUNT): two painters ahead of blue, two empty spaces (5, 6; 4 is taken).
    state = setup("3 e16 s1 p3,4,10", hands=(15, 50, 57))
    events = play(state, 15, 50, 57)
    assert find(events, PainterMoved, card=15) == [PainterMoved(0, 3, 6, "count", 15)]


def test_count_of_the_closest_painter_does_not_move() -> None:
    """Rulebook: "If your painter is closest to the Emperor, they do not move." (COUNT)"""
    state = setup("3 e16 s1 p12,4,10", hands=(15, 50, 57))
    events = play(state, 15, 50, 57)
    assert find(events, PainterStayed, card=15) == [PainterStayed(0, 15, "closest")]


def test_count_from_the_gate_counts_only_the_painters_in_the_garden() -> None:
    """Rulebook: "Painters together at the gate are neither ahead nor behind each other, which
    affects some actions."
    Ruling 7: "JUMP and COUNT from the gate look at the painters in the garden." """
    state = setup("4 e16 s1 p0,0,6,9", hands=(15, 50, 57, 58))
    events = play(state, 15, 50, 57, 58)
    assert find(events, PainterMoved, card=15) == [PainterMoved(0, 0, 2, "count", 15)]


def test_count_with_everyone_else_on_the_gate_does_not_move() -> None:
    """Ruling 14: "JUMP and COUNT with no painter ahead of you (you are closest, or everyone
    else is on the gate with you) do not move you." """
    state = setup("3 e16 s1 p0,0,0", hands=(15, 50, 57))
    events = play(state, 15, 50, 57)
    assert find(events, PainterStayed, card=15) == [PainterStayed(0, 15, "no_one_ahead")]


def test_count_may_bump_into_the_emperor() -> None:
    """Rulebook: "Count the number of painters between you and the Emperor and then move one
    space for each."
    Ruling 2: "Reaching the Emperor's space (moving onto or past him) is a bump." """
    # Card 15 (E+1 COUNT): two painters ahead; over them to 16, then onto the Emperor on 17.
    state = setup("3 e16 s1 p13,14,15", hands=(15, 50, 57))
    events = play(state, 15, 50, 57)
    assert find(events, Bumped, card=15) == [Bumped(0, 13, 17, 12, True, "painter", 15)]
