"""A game with another card data file plays by that file: its cards, scores, blossom rule,
hand size and rounds; its config, saved states and records carry it; the published file's
config stays ``{}`` (so the golden records are unchanged)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.cards.scenarios import GAME, do, situation
from tests.conformance import check_game

from sakura.bots.cards_heuristic import place_value
from sakura.engine import make_game
from sakura.engine.errors import IllegalActionError, InvalidStateError
from sakura.engine.games.cards import CardsGame
from sakura.engine.games.cards.deck import CardsDeck, default_cards, parse_cards
from sakura.records import GameRecord, Recorder, replay
from sakura.records.playout import random_action


def edition(*changes: tuple[str, str]) -> CardsGame:
    """The published data file with some lines changed, as a designer would edit it."""
    text = default_cards().text()
    for old, new in changes:
        assert old in text
        text = text.replace(old, new)
    return CardsGame(parse_cards(text, "mine.txt"))


def round_scored(events: list[dict[str, Any]]) -> dict[str, Any]:
    return next(e for e in events if e["type"] == "round_scored")


def last_card(game: CardsGame, area: list[str], card: str) -> dict[str, Any]:
    """Player 0 places its last card after ``area`` in the garden: the round ends."""
    state = situation(([card], []), ([area, [], []], [[], [], []]), game=game)
    return round_scored(do(state, 0, f"place {card} garden"))


def test_a_changed_score_changes_what_a_round_scores() -> None:
    """Rulebook: "Three cards of different colours: 10 points ... numbers in a row: +5"; the
    designer's file makes three colours 20."""
    richer = edition(("three colours: 10", "three colours: 20"))
    assert last_card(GAME, ["b1", "g2"], "r3")["areas"][0] == [15, 0, 0]
    assert last_card(richer, ["b1", "g2"], "r3")["areas"][0] == [25, 0, 0]


def test_a_higher_blossom_limit_keeps_a_second_blossom() -> None:
    """Published: "an area with more than one cherry blossom scores nothing"."""
    two = edition(("blossom limit: 1", "blossom limit: 2"))
    assert last_card(GAME, ["b1*", "g2"], "r5*")["areas"][0] == [0, 0, 0]
    assert last_card(two, ["b1*", "g2"], "r5*")["areas"][0] == [10 + 2 * 3, 0, 0]
    # The heuristic judges by the table's deck: no penalty where the second blossom scores.
    assert place_value(["b1*", "g2"], "r5*", two) > 0 > place_value(["b1*", "g2"], "r5*")


def test_an_extra_blossom_number_is_a_card_of_that_game_only() -> None:
    three = edition(("blossoms: 1 5", "blossoms: 1 3 5"))
    assert three.cards.count("r3*") == 1 and len(three.cards) == 40
    state = situation((["r3*"], []), game=three)
    assert "place r3* garden" in [str(a) for a in state.legal_actions(0)]
    assert round_scored(do(state, 0, "place r3* garden"))["areas"][0] == [3, 0, 0]  # its blossom's 3
    with pytest.raises(IllegalActionError, match="not a card: 'r3\\*'"):
        GAME.parse_action("place r3* garden")


def test_a_bigger_box_deals_bigger_hands_for_fewer_rounds() -> None:
    """Five colours, numbers 1-6, hands of 12, two rounds: every check of the conformance
    suite (saves, clones, samples, replays) holds for it too."""
    big = edition(
        ("y yellow", "y yellow, p purple"),
        ("numbers: 1 2 3 4 5", "numbers: 1 2 3 4 5 6"),
        ("hand: 10", "hand: 12"),
        ("rounds: 3", "rounds: 2"),
    )
    assert len(big.cards) == 60 and "p6" in big.names
    state = big.new_initial_state(seed=4)
    assert [len(h) for h in state.hands] == [12, 12] and len(state.aside) == 36
    check_game(big, seeds=range(4))
    rng = random.Random(1)
    while not state.is_terminal():
        player = state.current_players()[0]
        state.apply_action(player, random_action(state, player, rng))
    assert [len(s) for s in state.scores] == [2, 2]


def test_the_config_carries_the_deck_as_text() -> None:
    richer = edition(("one colour: 15", "one colour: 30"))
    config = richer.config_json()
    assert set(config) == {"deck"} and "one colour: 30" in config["deck"]
    assert make_game("sakura-cards", config) == richer != GAME
    assert GAME.config_json() == {} and CardsGame(default_cards()).config_json() == {}
    assert CardsGame.from_config({"deck": default_cards().text()}) == GAME
    assert eval(repr(richer), {"CardsGame": CardsGame, "CardsDeck": CardsDeck}) == richer
    with pytest.raises(ValueError, match="the config's deck line 3: 'copies: two'"):
        CardsGame.from_config({"deck": config["deck"].replace("copies: 2", "copies: two")})
    with pytest.raises(ValueError, match="not int"):
        CardsGame.from_config({"deck": 7})


def test_saved_states_and_records_carry_the_deck() -> None:
    richer = edition(("in a row: 5", "in a row: 9"))
    state = richer.new_initial_state(seed=8)
    saved = state.to_json()
    assert saved["config"] == richer.config_json()
    assert richer.state_from_json(saved).to_json() == saved
    with pytest.raises(InvalidStateError, match="another game"):
        GAME.state_from_json(saved)
    recorder = Recorder(richer, 8)
    rng = random.Random(8)
    while not recorder.state.is_terminal():
        player = recorder.state.current_players()[0]
        recorder.apply(player, random_action(recorder.state, player, rng))
    record = GameRecord.loads(recorder.finish().dumps())
    assert record.make_game() == richer
    assert replay(record).to_json() == recorder.state.to_json()


def test_a_saved_state_with_a_card_the_deck_lacks_is_refused() -> None:
    saved = GAME.new_initial_state(seed=2).to_json()
    saved["hands"][0][0] = "p3"
    with pytest.raises(InvalidStateError, match="a list of cards"):
        GAME.state_from_json(saved)
