"""The end of the game: after the last sakura; the winner and the tie-breaks."""

from __future__ import annotations

from tests.engine.scenarios import CardsDiscarded, GameEnded, HandsRefilled, find, play, setup

# The third sakura (space 33) is the last; red's card 6 (E+1 P+1) takes the Emperor there.


def test_the_game_ends_immediately_after_the_last_sakura_is_scored() -> None:
    """Rulebook: "The game ends immediately after the scoring of the last sakura space."
    Ruling 10: "The game ends when the last sakura is scored." """
    state = setup("3 e32 s2 p31,20,25", hands=(50, 6, 57))
    events = play(state, 50, 6, 57)
    assert find(events, CardsDiscarded) == [CardsDiscarded((50, 57))]
    assert not find(events, HandsRefilled)
    assert isinstance(events[-1], GameEnded)
    assert state.is_terminal() and state.current_players() == ()
    assert all(state.legal_actions(seat) == [] for seat in range(3))
    assert state.scored == 3


def test_the_player_with_most_tokens_wins() -> None:
    """Rulebook: "The player with the most ichas wins."
    Ruling 10: "Most tokens wins." """
    state = setup("3 e32 s2 p31,20,25", hands=(50, 6, 57))
    play(state, 50, 6, 57)
    outcome = state.outcome()
    assert outcome is not None
    assert (outcome.winners, outcome.scores, outcome.reason) == ((0,), (9, 6, 7), "most tokens")


def test_a_tie_goes_to_the_tied_player_closest_to_the_emperor() -> None:
    """Rulebook: "In case of a tie, the tied player closest to the Emperor wins."
    Ruling 10: "... a tie goes to the tied painter closest to the Emperor ..." """
    # Blue 5 + 4 = 9, green (on 25) 8 + 2 = 10, red (on 21) 9 + 1 = 10.
    state = setup("3 e32 s2 p31,20,25 t5,9,8 q32", hands=(50, 6, 57))
    play(state, 50, 6, 57)
    outcome = state.outcome()
    assert outcome is not None
    assert (outcome.winners, outcome.scores) == ((2,), (9, 10, 10))


def test_players_still_tied_on_the_gate_share_the_win() -> None:
    """Rulebook (Spanish): "Los pintores juntos en la puerta no están ni delante ni detrás del
    otro." (Painters together on the gate are neither ahead of nor behind each other.)
    Ruling 10: "... players still tied (together on the gate) share the win." """
    state = setup("3 e32 s2 p31,0,0 t5,12,12 q25", hands=(6, 50, 57))
    play(state, 6, 50, 57)
    outcome = state.outcome()
    assert outcome is not None
    assert (outcome.winners, outcome.scores) == ((1, 2), (9, 12, 12))
    assert outcome.returns() == (0.0, 0.5, 0.5)


def test_the_tie_break_uses_the_positions_at_the_last_scoring() -> None:
    """Rulebook: "The game ends immediately after the scoring of the last sakura space."
    Ruling 22: "The tie-break at the end uses the positions at the last scoring (there is no
    line-up after the last sakura)." """
    # A line-up would put red (seat 1) on 31 ahead of green, and red would win alone.
    state = setup("3 e32 s2 p31,0,0 t5,12,12 q25", hands=(6, 50, 57))
    play(state, 6, 50, 57)
    assert state.pos == [32, 0, 0]
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (1, 2)
