"""The Emperor's moves: forward, back, the player's choice, bridges, sakuras and bumps."""

from __future__ import annotations

import pytest
from tests.engine.scenarios import (
    Bumped,
    CardResolving,
    CardsDiscarded,
    EmperorMoved,
    PainterMoved,
    SakuraScored,
    choose,
    find,
    of_card,
    play,
    setup,
)

from sakura.engine.games.sakura import BACK, FORWARD


def test_e_plus_1_moves_the_emperor_one_space_forward() -> None:
    """Rulebook: "Move the Emperor 1 or 2 spaces forward." (E+1)"""
    state = setup("3 e5 s0 p0,0,0", hands=(6, 26, 29))
    events = play(state, 6, 26, 29)
    assert find(events, EmperorMoved) == [
        EmperorMoved(6, 5, 6),
        EmperorMoved(26, 6, 7),
        EmperorMoved(29, 7, 8),
    ]
    assert state.emperor == 8


def test_e_plus_2_moves_the_emperor_two_spaces_forward() -> None:
    """Rulebook: "Move the Emperor 1 or 2 spaces forward." (E+2)"""
    state = setup("3 e12 s1 p0,0,0", hands=(2, 23, 49))
    events = play(state, 2, 23, 49)
    assert find(events, EmperorMoved) == [
        EmperorMoved(2, 12, 14),
        EmperorMoved(23, 14, 16),
        EmperorMoved(49, 16, 18),
    ]


def test_e_minus_1_moves_the_emperor_one_space_back() -> None:
    """Rulebook: "Move the Emperor 1 space backward." (E-1)"""
    state = setup("3 e10 s0 p0,0,0", hands=(24, 38, 52))
    events = play(state, 24, 38, 52)
    assert find(events, EmperorMoved) == [
        EmperorMoved(24, 10, 9),
        EmperorMoved(38, 9, 8),
        EmperorMoved(52, 8, 7),
    ]
    assert (state.emperor, state.pos) == (7, [2, 1, 3])


def test_e_choice_moves_the_emperor_the_way_its_owner_chooses() -> None:
    """Rulebook: "Choose whether the Emperor moves 1 space forward or backward." (E±1)"""
    # Cards 9 (E±1 COUNT), 25 (E±1 P+2) and 35 (E±1 P+1).
    state = setup("3 e8 s0 p0,0,0", hands=(9, 25, 35))
    play(state, 9, 25, 35)
    assert state.pending_choice() == (0, 9, "garden")
    events = choose(state, FORWARD)
    assert state.pending_choice() == (1, 25, "garden")
    events += choose(state, BACK)
    assert state.pending_choice() == (2, 35, "garden")
    events += choose(state, FORWARD)
    assert find(events, EmperorMoved) == [
        EmperorMoved(9, 8, 9),
        EmperorMoved(25, 9, 8),
        EmperorMoved(35, 8, 9),
    ]
    assert (state.emperor, state.pos) == (9, [0, 2, 1])


def test_the_emperor_never_goes_below_space_one() -> None:
    """Rulebook: "If this happens to the Emperor, he remains on the last space in front of the
    gate."
    Ruling 4: "The Emperor never goes below space 1." """
    # Cards 9 (E±1 COUNT, chosen back), 11 (E-1 P±3) and 21 (E-1 COUNT).
    state = setup("3 e2 s0 p0,0,0", hands=(9, 11, 21))
    play(state, 9, 11, 21)
    events = choose(state, BACK, BACK)
    assert find(events, EmperorMoved) == [
        EmperorMoved(9, 2, 1),
        EmperorMoved(11, 1, 1),
        EmperorMoved(21, 1, 1),
    ]
    assert (state.emperor, state.pos) == (1, [0, 0, 0])


def test_the_emperor_backing_onto_a_painter_bumps_it() -> None:
    """Rulebook: "If the Emperor moves backward and reaches a space occupied by a painter, that
    painter is also disgraced, having to move back three empty spaces and lose an icha, if
    possible."
    Ruling 5: "The Emperor moving back onto a painter bumps that painter: it loses a token and
    goes back three empty spaces from its own space." """
    # Card 24 (E-1 P+2) takes the Emperor from 14 back onto blue on 13; blue goes back over
    # red on 11 to 9.
    state = setup("3 e14 s1 p13,11,0", hands=(50, 57, 24))
    events = play(state, 50, 57, 24)
    assert of_card(events, 24)[1:3] == [
        EmperorMoved(24, 14, 13),
        Bumped(0, 13, 13, 9, True, "emperor", 24),
    ]
    assert state.tokens[0] == 4 and state.supply == 40


def test_the_emperor_stops_on_an_unscored_sakura_in_the_middle_of_a_move() -> None:
    """Rulebook: "When the Emperor moves to a specific sakura space for the first time in the
    game, he stops immediately."
    Ruling 6: "The Emperor stops on an unscored sakura the first time he reaches it, even in the
    middle of a two-space move." """
    # Card 49 is E+2 P+2: from 10 the second space (12) is never reached.
    state = setup("3 e10 s0 p8,5,0", hands=(49, 50, 57))
    events = play(state, 49, 50, 57)
    assert find(events, EmperorMoved) == [EmperorMoved(49, 10, 11)]
    assert state.emperor == 11 and state.scored == 1


def test_the_sakura_cards_painter_action_happens_then_the_rest_is_discarded() -> None:
    """Rulebook: "The painter action of the current card is performed, and then all other cards
    played in this round (resolved or not) are discarded."
    Ruling 6: "The current card's painter action still happens; every other unresolved card of
    the round is discarded unresolved; then scoring." """
    # Card 26 (E+1 P+1) resolves first; card 49 (E+2 P+2) reaches the sakura on 11; card 57
    # never resolves.
    state = setup("3 e9 s0 p7,5,0", hands=(49, 26, 57))
    events = play(state, 49, 26, 57)
    assert [e.card for e in find(events, CardResolving)] == [26, 49]
    assert of_card(events, 49)[1:5] == [
        EmperorMoved(49, 10, 11),
        PainterMoved(0, 7, 9, "painter", 49),
        CardsDiscarded((57,)),
        SakuraScored(0, 11, ((0, 1, 3), (1, 2, 2), (2, 3, 1)), 33),
    ]
    assert state.discard[-3:] == [26, 49, 57]


def test_a_scored_sakura_is_passed_normally() -> None:
    """Rulebook: "Each sakura space will only score once per game, even if the Emperor lands on
    it multiple times. After it has been scored, the Emperor can pass through the space
    normally." """
    # The first sakura (11) is scored; the Emperor lands on it (card 6), then passes it.
    state = setup("3 e10 s1 p0,0,0", hands=(6, 49, 50))
    events = play(state, 6, 49, 50)
    assert find(events, EmperorMoved) == [
        EmperorMoved(6, 10, 11),
        EmperorMoved(49, 11, 13),
        EmperorMoved(50, 13, 14),
    ]
    assert not find(events, SakuraScored)
    assert (state.scored, state.pos) == (1, [1, 3, 5])


@pytest.mark.parametrize("head", ["2c", "3", "4"])
def test_a_bridge_is_one_space_with_two_to_four_players(head: str) -> None:
    """Rulebook: "The bridges (C) count as a single space in two, three, or four-player
    games." """
    players = int(head[0])
    painters = ",".join(["0"] * (players + (head == "2c")))
    deck = " d60" if head == "2c" else ""  # the court painter's card comes off the deck
    state = setup(f"{head} e14 s1 p{painters}{deck}", hands=(2, 50, 57, 58)[:players])
    events = play(state, *(2, 50, 57, 58)[:players])
    assert state.game.garden.bridges()[1] == (15,)
    assert find(events, EmperorMoved, card=2) == [EmperorMoved(2, 14, 16)]


@pytest.mark.parametrize("players", [5, 6])
def test_a_bridge_is_three_spaces_with_five_or_six_players(players: int) -> None:
    """Rulebook: "In five or six-player games, each bridge counts as three spaces." """
    painters = ",".join(["0"] * players)
    cards = (2, 49, 50, 57, 58, 60)[:players]
    state = setup(f"{players} e16 s1 p{painters}", hands=cards)
    events = play(state, *cards)
    assert state.game.garden.bridges()[1] == (17, 18, 19)
    assert find(events, EmperorMoved)[:2] == [EmperorMoved(2, 16, 18), EmperorMoved(49, 18, 20)]


def test_a_choice_on_the_sakura_card_is_still_asked_before_the_scoring() -> None:
    """Rulebook: "The painter action of the current card is performed, and then all other cards
    played in this round (resolved or not) are discarded."
    Ruling 6: "The current card's painter action still happens; every other unresolved card of
    the round is discarded unresolved; then scoring." """
    # Card 10 (E+1 P±2) takes the Emperor onto the sakura; blue then chooses to go back.
    state = setup("3 e10 s0 p8,5,0", hands=(10, 50, 57))
    play(state, 10, 50, 57)
    assert state.emperor == 11 and state.pending_choice() == (0, 10, "painter")
    assert state.scored == 0  # the scoring waits for the card's painter action
    events = choose(state, BACK)
    assert find(events, PainterMoved, card=10) == [PainterMoved(0, 8, 6, "painter", 10)]
    assert find(events, CardsDiscarded) == [CardsDiscarded((50, 57))]
    assert find(events, SakuraScored) == [SakuraScored(0, 11, ((0, 1, 3), (1, 2, 2), (2, 3, 1)), 33)]
    assert state.pos == [6, 5, 4]
