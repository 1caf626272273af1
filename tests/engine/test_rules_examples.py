"""The worked example of the Spanish rulebook ("Ejemplos de juego"): one round of three players.

Blue (seat 0) plays 8 (C-2 P+1), red (seat 1) plays 49 (E+2 P+2) and green (seat 2) plays 18
(F+2 P+3): the only cards of the deck with the actions the example describes, in the order it
gives. The book shows the board in pictures; this is a board that fits every sentence: after
the first sakura, the Emperor on 14 just before the second bridge (15), blue on 12, red on 13,
green on 11.
"""

from __future__ import annotations

from tests.engine.scenarios import (
    Bumped,
    CardResolving,
    EmperorMoved,
    PainterMoved,
    find,
    of_card,
    play,
    setup,
)

from sakura.engine.games.sakura import SakuraState
from sakura.engine.protocol import Event

BLUE, RED, GREEN = 0, 1, 2
BOARD = "3 e14 s1 p12,13,11"


def _round() -> tuple[SakuraState, list[Event]]:
    state = setup(BOARD, hands=(8, 49, 18))
    return state, play(state, 8, 49, 18)


def test_blue_resolves_first_red_goes_back_two_and_blue_forward_one() -> None:
    """Rulebook (Spanish): "El jugador azul tiene el número de orden más bajo, por lo que primero
    resuelve su carta. El jugador rojo es el más cercano al Emperador, por lo que retrocede dos
    espacios, saltándose los Ases A ocupados . A continuación, el jugador azul se mueve hacia
    delante un espacio B ." (Blue has the lowest order number, so resolves first. Red is closest
    to the Emperor, so goes back two spaces, skipping the occupied ones (A). Then blue moves
    forward one space (B).)"""
    _, events = _round()
    assert [e.card for e in find(events, CardResolving)] == [8, 18, 49]
    assert of_card(events, 8)[1:] == [
        PainterMoved(RED, 13, 9, "closest", 8),  # over blue (12) and green (11)
        PainterMoved(BLUE, 12, 13, "painter", 8),
    ]


def test_green_next_red_is_last_and_goes_forward_two_green_bumps_into_the_emperor() -> None:
    """Rulebook (Spanish): "El jugador verde es el siguiente en orden. El jugador rojo ahora es
    el último, así que avanza dos espacios A , luego el verde intenta avanzar tres espacios B ,
    ¡pero chocan con el Emperador! El jugador verde inmediatamente retrocede tres espacios C y
    pierde una ficha." (Green is next. Red is now last, so moves forward two spaces (A); then
    green tries to move forward three (B), but bumps into the Emperor! Green immediately goes
    back three spaces (C) and loses a token.)"""
    state, events = _round()
    assert of_card(events, 18)[1:] == [
        PainterMoved(RED, 9, 12, "furthest", 18),  # 10, over green (11), 12
        Bumped(GREEN, 11, 14, 9, True, "painter", 18),  # over red (12) and blue (13)
    ]
    assert state.tokens == [5, 5, 4] and state.supply == 40


def test_red_moves_the_emperor_two_spaces_over_the_bridge_then_itself_two() -> None:
    """Rulebook (Spanish): "La acción del jardín del jugador rojo hace que el Emperador avance
    dos espacios. Debido a que sólo hay tres jugadores en el juego, el puente sólo cuenta como un
    solo espacio, y el emperador cruza el puente en un solo movimiento Una . [...] El jugador
    rojo luego se mueve hacia delante dos espacios C ." (Red's garden action moves the Emperor
    two spaces. With only three players the bridge counts as one space, and the Emperor crosses
    it in one move (A). Red then moves forward two spaces (C).)"""
    state, events = _round()
    assert state.game.garden.bridges()[1] == (15,)
    assert of_card(events, 49)[1:] == [
        EmperorMoved(49, 14, 16),
        PainterMoved(RED, 12, 15, "painter", 49),  # over blue (13), then 14 and the bridge
    ]
    assert (state.emperor, state.pos, state.tokens) == (16, [13, 15, 9], [5, 5, 4])


def test_with_five_players_the_emperor_would_have_stopped_halfway() -> None:
    """Rulebook (Spanish): "Si hubiera habido cinco o seis jugadores, el emperador en su lugar se
    habría detenido a mitad de camino B ." (Had there been five or six players, the Emperor
    would instead have stopped halfway (B).)"""
    # The same board for five players, the Emperor just before the second bridge (17-19); two
    # more painters stand between, and play cards that resolve after red's.
    state = setup("5 e16 s1 p14,15,13,12,11", hands=(8, 49, 18, 50, 57))
    events = play(state, 8, 49, 18, 50, 57)
    assert state.game.garden.bridges()[1] == (17, 18, 19)
    assert find(events, EmperorMoved, card=49) == [EmperorMoved(49, 16, 18)]
