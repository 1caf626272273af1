"""The game's data: the deck of 60 cards and 54 tokens, the garden for 2-4 and for 5-6 players,
their parsers (with clear errors) and text forms that round-trip."""

from __future__ import annotations

from collections import Counter

import pytest

from sakura.engine import InvalidDataError
from sakura.engine.games.sakura import (
    Card,
    Deck,
    GardenAction,
    PainterAction,
    SakuraGame,
    default_deck,
    default_layout,
    parse_deck,
    parse_layout,
)

# ------------------------------------------------------------------------------ the deck


def test_the_deck_has_60_cards_numbered_1_to_60_and_54_tokens() -> None:
    deck = default_deck()
    assert len(deck.cards) == 60
    assert deck.numbers == tuple(range(1, 61))
    assert deck.total_tokens == 54 and deck.start_tokens == 5


@pytest.mark.parametrize(
    ("number", "garden", "painter"),
    [
        (1, "F+2", "P+2"),
        (3, "E+2", "P±3"),
        (4, "C-2", "P±1"),
        (5, "E±1", "JUMP"),
        (9, "E±1", "COUNT"),
        (11, "E-1", "P±3"),
        (17, "E+2", "JUMP"),
        (21, "E-1", "COUNT"),
        (30, "E+1", "JUMP"),
        (42, "F+2", "COUNT"),
        (51, "E±1", "P±3"),
        (55, "C-2", "P±2"),
        (60, "E±1", "P+3"),
    ],
)
def test_cards_of_the_deck(number: int, garden: str, painter: str) -> None:
    card = default_deck().card(number)
    assert (str(card.garden), str(card.painter)) == (garden, painter)
    assert str(card) == f"{number} {garden} {painter}"


def test_how_many_cards_of_each_action() -> None:
    deck = default_deck()
    gardens = Counter(str(c.garden) for c in deck.cards)
    painters = Counter(str(c.painter) for c in deck.cards)
    assert gardens == {"E+1": 18, "E+2": 12, "E-1": 6, "E±1": 8, "C-2": 8, "F+2": 8}
    assert painters == {
        "P+1": 8,
        "P+2": 10,
        "P+3": 8,
        "P±1": 6,
        "P±2": 6,
        "P±3": 6,
        "JUMP": 8,
        "COUNT": 8,
    }


def test_the_action_values() -> None:
    card = default_deck().card(17)
    assert card == Card(17, GardenAction("E", 2), PainterAction("JUMP", 0))
    assert default_deck().card(5).garden == GardenAction("E?", 1) and default_deck().card(5).garden.is_choice
    assert default_deck().card(1).garden == GardenAction("F", 2)
    assert default_deck().card(4).garden == GardenAction("C", -2)
    assert default_deck().card(11).garden == GardenAction("E", -1)
    assert default_deck().card(3).painter == PainterAction("P?", 3)
    assert default_deck().card(3).painter.is_choice
    assert not default_deck().card(1).painter.is_choice
    with pytest.raises(KeyError):
        default_deck().card(61)


def test_the_deck_text_round_trips() -> None:
    deck = default_deck()
    assert parse_deck(deck.text()) == deck
    assert parse_deck(deck.text()).text() == deck.text()
    small = parse_deck("tokens: 30\nstart tokens: 4\n 7 E+1 P+1  # a comment\n\n2 C-2 P±2\n")
    assert small.numbers == (2, 7) and (small.total_tokens, small.start_tokens) == (30, 4)
    assert parse_deck(small.text()) == small


def test_the_ascii_spelling_of_plus_or_minus() -> None:
    assert parse_deck("1 E+-1 P+-3") == parse_deck("1 E±1 P±3")
    assert str(GardenAction.parse("E+-1")) == "E±1" and str(PainterAction.parse("P+-2")) == "P±2"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "the deck has no cards"),
        ("# only a comment\n", "no cards"),
        ("1 E+1", "deck line 1: '1 E+1': expected: order number, garden action, painter action"),
        ("1 E+1 P+1 extra", "deck line 1"),
        ("1 E+1 P+1\nx E+1 P+1", "deck line 2: 'x E+1 P+1'"),
        ("1 X+1 P+1", "not a garden action: 'X+1'"),
        ("1 E*1 P+1", "not a garden action"),
        ("1 E+0 P+1", "moves at least one space"),
        ("1 C±2 P+1", "only the Emperor's move may offer a choice"),
        ("1 E+1 Q+1", "not a painter action: 'Q+1'"),
        ("1 E+1 P+0", "a painter action moves at least one space"),
        ("1 E+1 jump", "not a painter action"),
        ("1 E+1 P+1\n1 E+2 P+2", "two cards share an order number"),
        ("0 E+1 P+1", "order numbers are positive"),
        ("-2 E+1 P+1", "order numbers are positive"),
        ("tokens: many\n1 E+1 P+1", "deck line 1: 'tokens: many'"),
        ("start tokens: 5.5\n1 E+1 P+1", "deck line 1"),
    ],
)
def test_malformed_deck_text(text: str, words: str) -> None:
    with pytest.raises(InvalidDataError) as info:
        parse_deck(text)
    assert words in str(info.value)


def test_a_deck_value_checks_itself() -> None:
    card = Card(1, GardenAction("E", 1), PainterAction("P", 1))
    with pytest.raises(InvalidDataError, match="share an order number"):
        Deck((card, card))


# ------------------------------------------------------------------------------ the garden


def test_the_garden_for_two_to_four_players() -> None:
    for players in (2, 3, 4):
        garden = default_layout().for_players(players)
        assert garden.torii == 4 and garden.sakuras == (11, 21, 33) and garden.last_space == 33
        assert garden.spaces[0] == "G" and garden.spaces.count("G") == 1
        assert garden.bridge_length == 1 and garden.bridges() == ((3,), (15,), (24,), (28,))
        assert garden.awards == (3, 2, 1) and garden.last_awards == (4, 2, 1)


def test_the_garden_for_five_and_six_players() -> None:
    for players in (5, 6):
        garden = default_layout().for_players(players)
        assert garden.torii == 6 and garden.sakuras == (13, 25, 41) and garden.last_space == 41
        assert garden.bridge_length == 3  # each bridge counts as three spaces
        assert garden.bridges() == ((3, 4, 5), (17, 18, 19), (28, 29, 30), (34, 35, 36))
        assert garden.awards == (3, 2, 1, 1) and garden.last_awards == (4, 2, 1, 1)


def test_games_use_their_garden() -> None:
    assert SakuraGame(4).torii == 4 and SakuraGame(4).sakuras == (11, 21, 33)
    assert SakuraGame(6).torii == 6 and SakuraGame(6).sakuras == (13, 25, 41)
    # The court painter does not count as a player: two players use the small garden.
    assert SakuraGame(2, "tactical").sakuras == (11, 21, 33)
    for players in range(2, 7):
        assert SakuraGame(players).new_initial_state(1).emperor == SakuraGame(players).torii


def test_the_garden_text_round_trips() -> None:
    layout = default_layout()
    assert parse_layout(layout.text()) == layout
    assert parse_layout(layout.text()).text() == layout.text()
    small = parse_layout("path: G . T . S . S\nbridge 2-6: 1\nawards 2-6: 2 1\n")
    assert small.last_first_award == 2  # defaults to the usual first award
    assert small.for_players(3).sakuras == (4, 6) and parse_layout(small.text()) == small


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("path G . T S\nbridge 2-6: 1\nawards 2-6: 3 2 1", "garden line 1: expected 'key: value'"),
        ("path: G . T S\nbridge 2-6: 1\nawards 2-6: 3 2 1\ncolour: red", "unknown key 'colour'"),
        ("path: G . T S\nbridge 2-6: x\nawards 2-6: 3 2 1", "garden line 2"),
        ("path: G . T S\nbridge two: 1\nawards 2-6: 3 2 1", "garden line 2"),
        ("path: G . T S\nbridge 2-6: 1\nawards 2-6: 3 two 1", "garden line 3"),
        ("path: G . T S\nbridge 2-6: 1\nawards 2-6: 3 2 1\nlast sakura first award: x", "garden line 4"),
        ("bridge 2-6: 1\nawards 2-6: 3 2 1", "the path is made of the symbols"),
        ("path: G . T X S\nbridge 2-6: 1\nawards 2-6: 3 2 1", "the path is made of the symbols G . B T S"),
        ("path: . G T S\nbridge 2-6: 1\nawards 2-6: 3 2 1", "starts with the gate, and has only one"),
        ("path: G G T S\nbridge 2-6: 1\nawards 2-6: 3 2 1", "starts with the gate"),
        ("path: G . . S\nbridge 2-6: 1\nawards 2-6: 3 2 1", "exactly one torii"),
        ("path: G T T S\nbridge 2-6: 1\nawards 2-6: 3 2 1", "exactly one torii"),
        ("path: G . T .\nbridge 2-6: 1\nawards 2-6: 3 2 1", "the path ends at the last sakura"),
        ("path: G S T S\nbridge 2-6: 1\nawards 2-6: 3 2 1", "every sakura lies beyond the torii"),
        ("path: G . T S\nawards 2-6: 3 2 1", "needs bridge and awards lines"),
        ("path: G . T S\nbridge 2-6: 1", "needs bridge and awards lines"),
    ],
)
def test_malformed_garden_text(text: str, words: str) -> None:
    with pytest.raises(InvalidDataError) as info:
        parse_layout(text)
    assert words in str(info.value)


def test_a_garden_without_a_line_for_the_player_count() -> None:
    layout = parse_layout("path: G . T S\nbridge 2-4: 1\nawards 2-4: 3 2 1\n")
    with pytest.raises(InvalidDataError, match="no bridge line for 5 players"):
        layout.for_players(5)
    with pytest.raises(InvalidDataError, match="no bridge line for 5 players"):
        SakuraGame(5, layout=layout)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("path: G . T S\nbridge 2-6: 1\nawards 2-6:", "award"),
        ("path: G . B T S\nbridge 2-6: 0\nawards 2-6: 3 2 1", "bridge"),
        ("path: G . T S\nbridge 2-6: 1\nawards 2-6: 3 -2 1", "award"),
    ],
)
def test_garden_lines_that_cannot_be(text: str, words: str) -> None:
    with pytest.raises(InvalidDataError, match=words):
        parse_layout(text)
