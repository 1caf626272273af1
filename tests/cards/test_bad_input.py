"""Every error a caller can cause has a clear message and changes nothing."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from tests.cards.scenarios import GAME, situation

from sakura.engine import (
    GameError,
    IllegalActionError,
    InvalidStateError,
    NotYourTurnError,
    make_game,
)
from sakura.engine.games.cards import Discard, Give, Place


@pytest.mark.parametrize(
    "text",
    [
        "",
        "place",
        "place r3",
        "place r6 garden",
        "place r3 kitchen",
        "give",
        "give r3 r4",
        "discard",
        "play 3",
        "give x*",
        7,
    ],
)
def test_malformed_action_texts_are_refused(text: Any) -> None:
    with pytest.raises(IllegalActionError):
        GAME.parse_action(text)


def _refused(player: Any, action: Any, error: type[Exception], match: str) -> None:
    state = situation((["r2", "b4"], ["y1"]), ([["g3"], [], []], [[], [], []]))
    before, text = state.to_json(), state.text()
    with pytest.raises(error, match=match):
        state.apply_action(player, action)
    assert state.to_json() == before and state.text() == text


@pytest.mark.parametrize(
    ("player", "action", "error", "match"),
    [
        (1, Place("y1", "garden"), NotYourTurnError, "player 1's turn"),
        (2, Place("r2", "palace"), IllegalActionError, "no player index 2"),
        (-1, Place("r2", "palace"), IllegalActionError, "no player index -1"),
        (True, Place("r2", "palace"), IllegalActionError, "seat number"),
        (0, Place("r3", "palace"), IllegalActionError, "holds no r3"),
        (0, Place("r9", "palace"), IllegalActionError, "not a card"),
        (0, Place("r2", "kitchen"), IllegalActionError, "not an area"),
        (0, Place("r2", ["garden"]), IllegalActionError, "not an area"),  # type: ignore[arg-type]
        (0, Give(3), IllegalActionError, "not a card"),  # type: ignore[arg-type]
        (0, Place("r2", "garden"), IllegalActionError, "higher card"),
        (0, Give("r2"), IllegalActionError, "before giving"),
        (0, Discard("r2"), IllegalActionError, "only when none fits"),
        (0, "place r2 palace", IllegalActionError, "not an action"),
    ],
)
def test_illegal_actions_change_nothing(player: Any, action: Any, error: type[Exception], match: str) -> None:
    _refused(player, action, error, match)


def test_placing_again_instead_of_giving_is_refused() -> None:
    state = situation((["r2", "b4"], ["y1"]))
    state.apply_action(0, Place("r2", "garden"))
    with pytest.raises(IllegalActionError, match="must now give"):
        state.apply_action(0, Place("b4", "garden"))


def test_acting_after_the_end_is_refused() -> None:
    state = situation(([], ["g5"]), turn=1, round=3, scores=([1, 1], [1, 1]))
    state.apply_action(1, Place("g5", "garden"))
    with pytest.raises(IllegalActionError, match="over"):
        state.apply_action(1, Place("g5", "garden"))


def _saved() -> dict[str, Any]:
    return GAME.new_initial_state(seed=4).to_json()


def _broken(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(_saved())
    change(data)
    return data


@pytest.mark.parametrize(
    "data",
    [
        None,
        {"game": "sakura"},
        _broken(lambda d: d.pop("rng")),
        _broken(lambda d: d.update(extra=1)),
        _broken(lambda d: d.update(rng=-1)),
        _broken(lambda d: d.update(round=4)),
        _broken(lambda d: d.update(phase="draw")),
        _broken(lambda d: d.update(turn=2)),
        _broken(lambda d: d["hands"][0].append("r1*")),  # a card twice
        _broken(lambda d: d["aside"].pop()),  # a card missing
        _broken(lambda d: d["hands"][0].__setitem__(0, "q1")),
        _broken(lambda d: d.update(config={"players": 3})),
        _broken(lambda d: d.update(scores=[[5], []])),
        _broken(lambda d: d["given"][0].append("r1")),
        _broken(lambda d: d.update(areas=[[[], []], [[], [], []]])),
    ],
)
def test_bad_saved_states_are_refused(data: Any) -> None:
    with pytest.raises(InvalidStateError):
        GAME.state_from_json(data)


def test_an_area_that_goes_down_is_refused() -> None:
    data = _saved()
    card = data["hands"][0].pop()  # the highest card of the hand
    low = data["hands"][0].pop(0)
    data["areas"][0][0] = [card, low] if int(card[1]) > int(low[1]) else [low]
    if len(data["areas"][0][0]) == 1:
        data["hands"][0].append(card)
    with pytest.raises(InvalidStateError, match="go down"):
        GAME.state_from_json(data)


def test_bad_configs_are_refused() -> None:
    with pytest.raises(GameError, match="unknown game"):
        make_game("sakura-card")
    with pytest.raises(ValueError, match="unknown config keys"):
        make_game("sakura-cards", {"variant": "x"})
    with pytest.raises(ValueError, match="two players"):
        make_game("sakura-cards", {"players": 3})
