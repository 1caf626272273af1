"""Saved states: ``to_json`` and ``state_from_json`` round-trip at any moment of a game, through
JSON text, and the loaded game goes on exactly as the saved one would have (events, views,
generator and all)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from sakura.engine import make_game
from sakura.engine.games.sakura import SakuraGame, SakuraState, default_deck, parse_deck, state_from_json

TABLES = [(2, "court"), (2, "tactical"), (3, "standard"), (4, "standard"), (5, "standard"), (6, "standard")]
TABLE_IDS = [f"{p}-{v}" for p, v in TABLES]


def through_text(data: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(data))  # type: ignore[no-any-return]


def random_game(game: SakuraGame, seed: int) -> list[tuple[int, Any]]:
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    steps = []
    while not state.is_terminal():
        player = rng.choice(state.current_players())
        action = rng.choice(state.legal_actions(player))
        steps.append((player, action))
        state.apply_action(player, action)
    return steps


def views(state: SakuraState) -> list[dict[str, Any]]:
    return [state.view(v).to_json() for v in (None, *range(state.num_players))]


@pytest.mark.parametrize(("players", "variant"), TABLES, ids=TABLE_IDS)
def test_a_saved_state_loads_identically_at_every_step(players: int, variant: str) -> None:
    game = SakuraGame(players, variant)
    for seed in range(8):
        steps = random_game(game, seed)
        state = game.new_initial_state(seed)
        for i in range(len(steps) + 1):
            saved = through_text(state.to_json())
            loaded = game.state_from_json(saved)
            assert loaded.to_json() == saved
            assert loaded.text() == state.text()
            assert loaded.rng.state == state.rng.state
            assert loaded.current_players() == state.current_players()
            assert views(loaded) == views(state)
            if i < len(steps):
                state.apply_action(*steps[i])


@pytest.mark.parametrize(("players", "variant"), TABLES, ids=TABLE_IDS)
def test_a_loaded_state_plays_on_as_the_saved_one_would_have(players: int, variant: str) -> None:
    game = SakuraGame(players, variant)
    for seed in range(8):
        steps = random_game(game, seed)
        original = game.new_initial_state(seed)
        events = [[e.to_dict() for e in original.apply_action(p, a)] for p, a in steps]
        final = original.to_json()
        state = game.new_initial_state(seed)
        for i, step in enumerate(steps):
            if i % 5 == 0:
                loaded = state_from_json(through_text(state.to_json()))
                assert [[e.to_dict() for e in loaded.apply_action(p, a)] for p, a in steps[i:]] == events[i:]
                assert loaded.to_json() == final
            state.apply_action(*step)


def test_the_saved_form() -> None:
    game = SakuraGame(3)
    state = game.new_initial_state(4)
    data = state.to_json()
    assert set(data) == {"game", "config", "position", "rng"}
    assert data["game"] == "sakura" and data["config"] == {"players": 3, "variant": "standard"}
    assert data["rng"] == state.rng.state and 0 <= data["rng"] < 2**64
    # It holds the hidden parts (it is for saving, never for players).
    assert data["position"]["hands"] == [list(h) for h in state.hands]
    assert data["position"]["deck"] == list(reversed(state.deck))
    json.dumps(data)


def test_mid_round_the_saved_form_remembers_the_cards_already_resolved() -> None:
    """So that a view of the loaded state shows the round's revealed cards as the game did."""
    game = SakuraGame(4)
    rng = random.Random(3)
    state = game.new_initial_state(3)
    while not (state.pending_choice() and state.qi > 0):
        player = rng.choice(state.current_players())
        state.apply_action(player, rng.choice(state.legal_actions(player)))
    data = state.to_json()
    assert data["resolved"] == [[c, s] for c, s in state.queue[: state.qi]]
    loaded = state_from_json(data)
    assert (loaded.queue, loaded.qi) == (state.queue, state.qi)
    assert views(loaded) == views(state)


def test_a_loaded_state_without_events_plays_on_silently() -> None:
    game = SakuraGame(5)
    steps = random_game(game, 11)
    state = game.new_initial_state(11)
    for step in steps[:20]:
        state.apply_action(*step)
    quiet = state_from_json(state.to_json(), events=False)
    for p, a in steps[20:]:
        assert quiet.apply_action(p, a) == []
        state.apply_action(p, a)
    assert quiet.to_json() == state.to_json()


def test_a_game_with_its_own_deck_saves_and_loads_its_deck() -> None:
    text = default_deck().text().replace("\n1 F+2 P+2\n", "\n1 E+1 P+3\n")
    deck = parse_deck(text)
    assert deck != default_deck() and str(deck.card(1)) == "1 E+1 P+3"
    game = SakuraGame(4, deck=deck)
    assert game.config_json() == {"players": 4, "variant": "standard", "deck": deck.text()}
    assert make_game("sakura", game.config_json()) == game
    state = game.new_initial_state(9)
    loaded = state_from_json(through_text(state.to_json()))
    assert loaded.game == game and loaded.game.deck.card(1) == deck.card(1)
    assert loaded.to_json() == state.to_json()
    assert make_game("sakura", {"players": 4}).new_initial_state(9).to_json() != state.to_json()


def test_the_same_seed_gives_the_same_saved_state() -> None:
    for players, variant in TABLES:
        game = SakuraGame(players, variant)
        assert game.new_initial_state("x").to_json() == game.new_initial_state("x").to_json()
        assert game.new_initial_state(1).to_json() != game.new_initial_state(2).to_json()


def test_the_game_config_round_trips() -> None:
    for players, variant in TABLES:
        game = SakuraGame(players, variant)
        assert make_game("sakura", game.config_json()) == game
        assert SakuraGame.from_config(through_text(game.config_json())) == game
    assert SakuraGame(2).variant == "court" and SakuraGame(5).variant == "standard"
