"""The card game passes the platform's conformance suite, unchanged."""

from __future__ import annotations

from tests.conformance import check_game

from sakura.engine import make_game

GAMES = 12


def test_conformance() -> None:
    game = make_game("sakura-cards")
    stats = check_game(game, seeds=range(GAMES))
    assert stats.games == GAMES
    assert stats.reloads >= GAMES and stats.clones >= GAMES and stats.samples >= 2 * GAMES
    assert stats.out_of_turn_checks > 0 and stats.simultaneous_steps == 0  # strictly turn-based


def test_named_seeds_deal_the_same_game() -> None:
    game = make_game("sakura-cards")
    assert game.new_initial_state("table 7").to_json() == game.new_initial_state("table 7").to_json()
