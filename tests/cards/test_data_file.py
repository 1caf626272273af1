"""The card game's data file (``data/cards.txt``): the published file is today's game, and a
designer's file is read, checked and scored by its own numbers."""

from __future__ import annotations

import pytest

from sakura.engine.errors import InvalidDataError
from sakura.engine.games.cards.deck import (
    DECK,
    NAMES,
    CardsDeck,
    deck_explain_area,
    deck_score_area,
    default_cards,
    explain_area,
    parse_cards,
    score_area,
)


def test_the_published_file_is_the_game_as_it_was_coded() -> None:
    """The deck as the code built it before the data file (the golden records pin the rest)."""
    cards = []
    for colour in "rbgy":
        for number in range(1, 6):
            cards.append(f"{colour}{number}{'*' if number in (1, 5) else ''}")
            cards.append(f"{colour}{number}")
    assert DECK == tuple(cards) == default_cards().cards
    assert len(NAMES) == 28
    deck = default_cards()
    assert (deck.hand, deck.rounds, deck.rules) == (10, 3, (10, 15, 5, 3, 1))


def test_the_text_form_round_trips() -> None:
    deck = default_cards()
    assert parse_cards(deck.text()) == deck
    assert "numbers: 1 2 3 4 5" in deck.text()


def test_another_deck_scores_by_its_own_numbers() -> None:
    text = (
        default_cards()
        .text()
        .replace("three colours: 10", "three colours: 20")
        .replace("blossom limit: 1", "blossom limit: 2")
    )
    deck = parse_cards(text, "mine.txt")
    assert deck_score_area(deck, ["b1", "g2", "r3"]) == 25 and score_area(["b1", "g2", "r3"]) == 15
    assert deck_score_area(deck, ["b1*", "g2", "r5*"]) == 26 and score_area(["b1*", "g2", "r5*"]) == 0
    hand = ["y4", "b1*", "g2", "r3", "r1"]
    assert deck_explain_area(default_cards(), hand) == explain_area(hand)


def test_a_deck_with_five_colours_and_three_copies() -> None:
    text = default_cards().text().replace("y yellow", "y yellow, p purple").replace("copies: 2", "copies: 3")
    deck = parse_cards(text)
    assert len(deck.cards) == 75 and deck.cards.count("p1*") == 1 and deck.cards.count("p1") == 2


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ("copies: 2", "copies: 2\ncopies: 3"),
            "mine.txt line 4: 'copies: 3': 'copies' appears twice (first on line 3)",
        ),
        (("colours: r red", "colours: R red"), "mine.txt line 1: "),
        (("blossoms: 1 5", "blossoms: 1 6"), "mine.txt line 4: blossoms:"),
        (("hand: 10", "hand: 30"), "mine.txt line 5: hand: two hands of 30 need more than the 40 cards"),
        (
            ("colours: r red, b blue, g green, y yellow", "colours: r red, b blue"),
            "mine.txt line 1: colours: at least three",
        ),
        (("rounds: 3", "rounds: 0"), "mine.txt line 6: rounds: at least 1, not 0"),
        (("rounds: 3", "rounds: three"), "mine.txt line 6: 'rounds: three'"),
        (("in a row: 5", "in a line: 5"), "mine.txt line 9: 'in a line: 5': expected one of"),
        (("hand: 10", ""), "mine.txt: no 'hand' line"),
        (("one colour: 15", "one colour: -1"), "a count or a score is 0 or more"),
    ],
)
def test_a_bad_file_says_which_file_and_line(change: tuple[str, str], message: str) -> None:
    text = default_cards().text().replace(*change)
    with pytest.raises(InvalidDataError) as caught:
        parse_cards(text, "mine.txt")
    assert message in str(caught.value)


def test_a_deck_value_checks_itself() -> None:
    with pytest.raises(InvalidDataError, match="at least three"):
        CardsDeck((("r", "red"), ("b", "blue")), (1, 2, 3), 2, (), 3, 3, 10, 15, 5, 3, 1)
