"""Sakura passes the platform's conformance suite at every table: 2 players (court and
tactical variants) and 3 to 6 players."""

from __future__ import annotations

import pytest
from tests.conformance import check_game

from sakura.engine import make_game

TABLES = [(2, "court"), (2, "tactical"), (3, "standard"), (4, "standard"), (5, "standard"), (6, "standard")]
GAMES_PER_TABLE = 20


@pytest.mark.parametrize(("players", "variant"), TABLES, ids=[f"{p}-{v}" for p, v in TABLES])
def test_conformance(players: int, variant: str) -> None:
    game = make_game("sakura", {"players": players, "variant": variant})
    stats = check_game(game, seeds=range(1000 * players, 1000 * players + GAMES_PER_TABLE))
    assert stats.games == GAMES_PER_TABLE
    # The suite exercised what it claims to: reloads, clones, out-of-turn tries and, since
    # everyone chooses a card at once, steps with several current players.
    assert stats.reloads >= GAMES_PER_TABLE and stats.clones >= GAMES_PER_TABLE
    assert stats.samples >= GAMES_PER_TABLE * players
    assert stats.fast_replays == GAMES_PER_TABLE  # Sakura declares the fast path
    assert stats.out_of_turn_checks > 0 and stats.simultaneous_steps > 0


def test_conformance_from_a_named_seed() -> None:
    """Seeds may be text (a table's name) as well as numbers."""
    game = make_game("sakura", {"players": 4})
    state = game.new_initial_state("table of the cherry trees")
    assert state.to_json() == game.new_initial_state("table of the cherry trees").to_json()
