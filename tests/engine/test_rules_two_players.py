"""Two players: the court painter, and the tactical variant where a player chooses its card.

The English rulebook sends two players to the manual; these rules are in the Spanish one.
"""

from __future__ import annotations

import pytest
from tests.engine.scenarios import (
    CardChosen,
    CardsRevealed,
    ChoiceAsked,
    EmperorMoved,
    HandsRefilled,
    PainterMoved,
    RoundStarted,
    SakuraScored,
    find,
    play,
    setup,
)

from sakura.engine.errors import IllegalActionError
from sakura.engine.games.sakura import Play, SakuraGame

COURT = 2  # the court painter's seat


def test_the_court_painter_is_a_third_painter_with_five_tokens() -> None:
    """Rulebook (Spanish): "Para jugar con solo dos jugadores, elija un pintor no utilizado para
    que sea el 'pintor de la cancha' y trátelo como un tercer jugador." (To play with only two
    players, choose an unused painter to be the court painter and treat it as a third player.)
    Ruling 11: "It starts with 5 tokens, is ranked and takes tokens like a player, but cannot
    win." """
    for variant in ("court", "tactical"):
        game = SakuraGame(players=2, variant=variant)
        state = game.new_initial_state(seed=1)
        assert (game.court, game.num_painters) == (COURT, 3)
        assert (state.pos, state.tokens, state.supply) == ([0, 0, 0], [5, 5, 5], 39)
        assert len(state.hands) == 2 and state.current_players() == (0, 1)


def test_the_top_card_of_the_deck_is_the_court_painters_and_resolves_in_order() -> None:
    """Rulebook (Spanish): "Cada ronda, después de que ambos jugadores hayan elegido las cartas,
    se revela la carta superior del mazo. Se considera que el pintor de la corte ha jugado esta
    carta y se resuelve en orden de iniciativa como de costumbre." (Each round, after both
    players have chosen, the top card of the deck is revealed; the court painter is considered
    to have played it, and it resolves in order as usual.)
    Ruling 11: "... after both choose, the top card of the deck is the court painter's; it resolves
    in order like any card."
    Ruling 26: "The court painter's card is drawn when the players' cards are revealed, before
    the end-of-round refills, and is discarded like any played card." """
    state = setup("2c e14 s1 p0,0,0 d26.60.59", hands=(37, 6))
    events = play(state, 37, 6)
    assert find(events, CardsRevealed) == [CardsRevealed(((1, 6), (COURT, 26), (0, 37)), True)]
    assert find(events, PainterMoved, card=26) == [PainterMoved(COURT, 0, 2, "painter", 26)]
    assert (state.emperor, state.pos) == (17, [5, 1, 2])
    assert find(events, HandsRefilled) == [HandsRefilled((1, 1), ((60,), (59,)))]
    assert state.discard[-3:] == [6, 26, 37]


def test_the_court_painter_always_moves_forward() -> None:
    """Rulebook (Spanish): "Cada vez que el pintor de la corte tiene la opción de mover una pieza
    hacia adelante o hacia atrás, siempre mueve esa pieza hacia adelante." (Whenever the court
    painter may move a piece forward or backward, it always moves it forward.)
    Ruling 11: "... it resolves in order like any card and always moves forward." """
    # The court painter's card 51 is E±1 P±3.
    state = setup("2c e14 s1 p0,0,0 d51.60.59", hands=(57, 58))
    events = play(state, 57, 58)
    assert not find(events, ChoiceAsked)
    assert find(events, EmperorMoved, card=51) == [EmperorMoved(51, 14, 15)]
    assert find(events, PainterMoved, card=51) == [PainterMoved(COURT, 0, 3, "painter", 51)]
    assert (state.emperor, state.pos) == (18, [2, 4, 3])


def test_the_court_painter_is_ranked_and_takes_tokens() -> None:
    """Rulebook (Spanish): "... elija un pintor no utilizado para que sea el 'pintor de la
    cancha' y trátelo como un tercer jugador." (... treat it as a third player.)
    Ruling 11: "It starts with 5 tokens, is ranked and takes tokens like a player." """
    state = setup("2c e10 s0 p5,3,9 d60", hands=(6, 50))
    events = play(state, 6, 50)
    assert find(events, SakuraScored) == [SakuraScored(0, 11, ((COURT, 1, 3), (0, 2, 2), (1, 3, 1)), 33)]
    assert state.tokens == [7, 6, 8]
    assert state.pos == [8, 7, 9]  # the players line up behind the court painter


def test_the_court_painter_cannot_win() -> None:
    """Ruling 11: "It starts with 5 tokens, is ranked and takes tokens like a player, but cannot
    win."
    Ruling 25: "The court painter's tokens never decide the game: the winner is the player with
    the most tokens of the two, even if the court painter has more." """
    state = setup("2c e32 s2 p20,25,31 t5,5,15 q29 d60", hands=(6, 50))
    play(state, 6, 50)
    assert state.tokens == [6, 7, 19]
    outcome = state.outcome()
    assert outcome is not None
    assert (outcome.winners, outcome.scores) == ((1,), (6, 7))


def test_tactical_the_player_further_from_the_emperor_plays_two_cards() -> None:
    """Rulebook (Spanish): "En cada ronda, el jugador que esté más lejos del Emperador jugará dos
    cartas de su mano: una frente a ellos para su propio pintor y otra en el centro de la mesa
    para el pintor de la corte." (Each round, the player further from the Emperor plays two
    cards from their hand: one for their own painter, one for the court painter.)
    Ruling 12: "Of the two players, the one further from the Emperor secretly plays two cards,
    one for the court painter." """
    state = setup("2t e14 s1 p3,5,0", hands=((37, 6), 28))
    assert state.double == 0
    actions = state.legal_actions(0)
    assert len(actions) == 5 * 4 and all(isinstance(a, Play) and a.court is not None for a in actions)
    assert state.legal_actions(1) == [Play(c) for c in state.hands[1]]
    with pytest.raises(IllegalActionError):
        state.apply_action(0, Play(37))
    with pytest.raises(IllegalActionError):
        state.apply_action(1, Play(28, state.hands[1][-1]))
    chosen = play(state, (37, 6))
    assert chosen == [CardChosen(0, (37, 6))] and chosen[0].seen_by(1) == CardChosen(0, None)
    events = play(state, None, 28)
    assert find(events, CardsRevealed) == [CardsRevealed(((COURT, 6), (1, 28), (0, 37)), False)]
    assert (state.emperor, state.pos) == (17, [6, 7, 1])


def test_tactical_the_court_painter_moves_its_players_card_forward() -> None:
    """Rulebook (Spanish): "El pintor de la corte siempre mueve las piezas hacia adelante cuando
    es posible." (The court painter always moves pieces forward when it can.)
    Ruling 12: "Of the two players, the one further from the Emperor secretly plays two cards,
    one for the court painter." (That card always moves forward, as in ruling 11.)"""
    # Blue gives the court painter card 51 (E±1 P±3).
    state = setup("2t e14 s1 p3,5,0", hands=((57, 51), 58))
    events = play(state, (57, 51), 58)
    assert not find(events, ChoiceAsked)
    assert find(events, EmperorMoved, card=51) == [EmperorMoved(51, 14, 15)]
    assert find(events, PainterMoved, card=51) == [PainterMoved(COURT, 0, 4, "painter", 51)]


def test_tactical_with_both_players_on_the_gate_the_court_painter_takes_the_top_card() -> None:
    """Rulebook (Spanish): "Si ambos jugadores están en la puerta de entrada, muestre la carta
    superior del mazo para el pintor de la cancha como se muestra arriba." (If both players are
    on the gate, reveal the top card of the deck for the court painter, as above.)
    Ruling 12: "... if both players are on the gate, the court painter takes the top card of the
    deck." """
    state = setup("2t e14 s1 p0,0,5 d26.60.59", hands=(37, 6))
    assert state.double_player is None
    assert state.legal_actions(0) == [Play(c) for c in state.hands[0]]
    events = play(state, 37, 6)
    assert find(events, CardsRevealed) == [CardsRevealed(((1, 6), (COURT, 26), (0, 37)), True)]


def test_tactical_the_player_who_played_two_cards_draws_one_extra() -> None:
    """Rulebook (Spanish): "El jugador que jugó la carta para el pintor de la cancha robará una
    carta adicional al final de la ronda para que su mano vuelva a tener cinco cartas." (The
    player who played the court painter's card draws one extra card at the end of the round,
    back to five.)
    Ruling 12: "... the player who played two cards draws one extra at the end of the round." """
    state = setup("2t e14 s1 p3,5,0 d60.59.58", hands=((37, 6), 28))
    events = play(state, (37, 6), 28)
    assert find(events, HandsRefilled) == [HandsRefilled((2, 1), ((60, 59), (58,)))]
    assert [len(h) for h in state.hands] == [5, 5]


def test_tactical_the_double_player_is_decided_at_the_start_of_each_round() -> None:
    """Rulebook (Spanish): "En cada ronda, el jugador que esté más lejos del Emperador jugará dos
    cartas de su mano ..." (Each round, the player further from the Emperor plays two cards.)
    Ruling 21: "The tactical variant's double player is decided at the start of the round from
    the positions then." """
    # Blue (3) is behind red (5) this round; blue's card 50 takes it past red to 7.
    state = setup("2t e14 s1 p3,5,0", hands=((50, 6), 26))
    assert state.double == 0
    events = play(state, (50, 6), 26)
    assert state.pos == [7, 6, 1]
    assert find(events, RoundStarted) == [RoundStarted(2, 1)]
    assert state.double == 1 and state.legal_actions(0) == [Play(c) for c in state.hands[0]]
