"""Every value the protocol carries prints to JSON and parses back equal, for every game
(python-chess's ``Board(fen).fen() == fen``): views, progress, actions, events and saved
states, over seeded games that hypothesis picks (see :func:`tests.conformance.check_round_trips`)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.conformance import check_round_trips

from sakura.engine import (
    InvalidEventError,
    InvalidViewError,
    Progress,
    available_games,
    make_game,
)

# Every registered game, at every table it has (Sakura's player counts and variants).
CONFIGS: dict[str, list[dict[str, object]]] = {
    "sakura": [
        {"players": 2, "variant": "court"},
        {"players": 2, "variant": "tactical"},
        {"players": 3},
        {"players": 4},
        {"players": 6},
    ],
    "sakura-cards": [{}],
}
TABLES = [(name, config) for name in available_games() for config in CONFIGS.get(name, [{}])]


def test_every_registered_game_has_tables_here() -> None:
    assert set(CONFIGS) == set(available_games()), "a new game needs its tables in CONFIGS"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=st.sampled_from(TABLES), seed=st.integers(min_value=0, max_value=2**32))
def test_views_events_actions_and_states_round_trip(table: tuple[str, dict[str, object]], seed: int) -> None:
    name, config = table
    assert check_round_trips(make_game(name, config), seed) > 0


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_malformed_json_raises_the_named_errors(name: str) -> None:
    game = make_game(name, CONFIGS[name][0])
    view = game.new_initial_state(1).view(0).to_json()
    del view["legal_actions"]
    with pytest.raises(InvalidViewError):
        game.view_from_json(view)
    for bad in ({"type": "no such event"}, {"type": "game_ended", "winners": [0], "colour": "red"}, []):
        with pytest.raises(InvalidEventError):
            game.event_from_json(bad)  # type: ignore[arg-type]


def test_progress_says_round_decision_and_whose() -> None:
    state = make_game("sakura", {"players": 3}).new_initial_state(4)
    assert state.progress() == Progress(1, "selection", (0, 1, 2))
    cards = make_game("sakura-cards").new_initial_state(4)
    assert cards.progress() == Progress(1, "place", cards.current_players())
