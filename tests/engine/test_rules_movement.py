"""Movement in the garden: counting empty spaces, the gate, and bumping into the Emperor."""

from __future__ import annotations

import pytest
from tests.engine.scenarios import Bumped, PainterMoved, choose, find, play, setup

from sakura.engine.games.sakura import BACK


def test_a_painter_counts_only_empty_spaces_forward() -> None:
    """Rulebook (Spanish): "Cuando mueva a su pintor hacia adelante o hacia atrás, solo cuente
    los espacios vacíos para su movimiento, no cuente los espacios ocupados por otros
    pintores." (When you move your painter forward or backward, count only the empty spaces,
    not the spaces other painters occupy.)
    Ruling 1: "Painters move by counting only spaces not occupied by other painters." """
    # Card 37 is E+1 P+3: from 5, over the painters on 6 and 8, to 10.
    state = setup("3 e14 s1 p5,6,8", hands=(37, 57, 58))
    events = play(state, 37, 57, 58)
    assert find(events, PainterMoved, card=37) == [PainterMoved(0, 5, 10, "painter", 37)]


def test_a_painter_counts_only_empty_spaces_backward() -> None:
    """Rulebook (Spanish): "Cuando mueva a su pintor hacia adelante o hacia atrás, solo cuente
    los espacios vacíos para su movimiento, no cuente los espacios ocupados por otros
    pintores." (... forward or backward, count only the empty spaces.)
    Ruling 1: "Painters move by counting only spaces not occupied by other painters." """
    # Card 11 is E-1 P±3: back from 10, over the painters on 9 and 7, to 5.
    state = setup("3 e14 s1 p10,9,7", hands=(11, 50, 57))
    play(state, 11, 50, 57)
    events = choose(state, BACK)
    assert find(events, PainterMoved, card=11) == [PainterMoved(0, 10, 5, "painter", 11)]


@pytest.mark.parametrize(
    ("text", "start", "end"), [("4 e19 s1 p14,0,0,0", 14, 17), ("5 e23 s1 p16,0,0,0,0", 16, 19)]
)
def test_a_painter_counts_a_bridge_as_one_space_or_three(text: str, start: int, end: int) -> None:
    """Rulebook: "The bridges (C) count as a single space in two, three, or four-player games.
    In five or six-player games, each bridge counts as three spaces." """
    # Card 37 (E+1 P+3): with four players over the bridge (15) to 17; with five, the three
    # steps end on the last space of the bridge (17, 18, 19).
    cards = (37, 50, 57, 58, 59)[: int(text[0])]
    state = setup(text, hands=cards)
    events = play(state, *cards)
    assert find(events, PainterMoved, card=37) == [PainterMoved(0, start, end, "painter", 37)]


def test_backward_moves_stop_at_the_gate_where_painters_share_the_space() -> None:
    """Rulebook: "If a painter moves backward beyond the gate, they are placed on the gate."
    Rulebook: "The entrance gate (D) is the only space where multiple painters can share the
    same space."
    Ruling 3: "Backward moves stop at the gate." """
    # Card 11 (E-1 P±3) from space 2: two steps back reach the gate, the third is lost.
    state = setup("3 e14 s1 p2,0,0", hands=(11, 59, 60))
    play(state, 11, 59, 60)
    events = choose(state, BACK)
    assert find(events, PainterMoved, card=11) == [PainterMoved(0, 2, 0, "painter", 11)]
    assert state.pos[0] == 0


def test_moving_onto_the_emperor_is_a_bump() -> None:
    """Rulebook: "If a painter moves to the space with (or past) the Emperor, they "fall from
    grace," immediately stop their movement, lose one of their ichas (if possible), and move
    back three empty spaces."
    Ruling 2: "Reaching the Emperor's space (moving onto or past him) is a bump: the painter
    stops, loses one token to the supply if it has one, and goes back three empty spaces
    counted from the Emperor's space." """
    # Card 37 (E+1 P+3): the Emperor goes to 15; blue steps to 11, over 12 and 13 to 14, and
    # its third step reaches the Emperor. Back from 15: 14, (13, 12 occupied) 11, 10.
    state = setup("3 e14 s1 p10,12,13", hands=(37, 57, 58))
    events = play(state, 37, 57, 58)
    assert find(events, Bumped) == [Bumped(0, 10, 15, 10, True, "painter", 37)]
    assert not find(events, PainterMoved, seat=0)
    assert (state.tokens, state.supply) == ([4, 5, 5], 40)


def test_a_painter_without_tokens_loses_none() -> None:
    """Rulebook: "... lose one of their ichas (if possible), and move back three empty
    spaces."
    Ruling 2: "... loses one token to the supply if it has one ..." """
    state = setup("3 e14 s1 p10,12,13 t0,5,5 q44", hands=(37, 57, 58))
    events = play(state, 37, 57, 58)
    assert find(events, Bumped) == [Bumped(0, 10, 15, 10, False, "painter", 37)]
    assert (state.tokens, state.supply) == ([0, 5, 5], 44)


def test_a_bump_near_the_gate_ends_on_the_gate() -> None:
    """Rulebook: "If a painter moves backward beyond the gate, they are placed on the gate."
    Ruling 3: "Backward moves stop at the gate." """
    # Card 24 (E-1 P+2): the Emperor backs to 3, blue's first step reaches him; three empty
    # spaces back from 3 would be past the gate.
    state = setup("3 e4 s0 p2,0,0", hands=(24, 50, 57))
    events = play(state, 24, 50, 57)
    assert find(events, Bumped) == [Bumped(0, 2, 3, 0, True, "painter", 24)]


def test_the_bumped_painters_own_space_counts_as_empty() -> None:
    """Ruling 23: "A bumped painter's own former space counts as empty when it goes back." """
    # Card 37 (E+1 P+3): blue on 12 steps to 13, 14 and reaches the Emperor on 15; three
    # empty spaces back from 15 are 14, 13 and blue's own former space 12.
    state = setup("3 e14 s1 p12,0,0", hands=(37, 57, 58))
    events = play(state, 37, 57, 58)
    assert find(events, Bumped) == [Bumped(0, 12, 15, 12, True, "painter", 37)]
