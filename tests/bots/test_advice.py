"""Advice (hints, analysis) is the search bot's own statistics: it agrees with the bot's decision
for the same seed and budget, works from a view only, and for every game of the protocol."""

from __future__ import annotations

import random
from typing import Any

import pytest

from sakura.bots import BotError, make_bot
from sakura.bots.advice import advise, resolve_spec
from sakura.engine import make_game


def _positions(game: Any, seed: int, count: int) -> list[Any]:
    """States along a random game where the player to act has a real choice."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    out = []
    while not state.is_terminal() and len(out) < count:
        player = state.current_players()[0]
        legal = state.legal_actions(player)
        if len(legal) > 1 and rng.random() < 0.4:
            out.append((state.clone(), player))
        state.apply_action(player, rng.choice(legal))
    return out


def _choice_position(game: Any) -> tuple[Any, int]:
    """A Sakura state where someone must answer forward / back."""
    for seed in range(200):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            player = state.current_players()[0]
            legal = [str(a) for a in state.legal_actions(player)]
            if set(legal) >= {"forward", "back"}:
                return state, player
            state.apply_action(player, rng.choice(state.legal_actions(player)))
    raise AssertionError("no forward/back choice in 200 games")


@pytest.mark.parametrize("name, config", [("sakura", {"players": 4}), ("sakura-cards", {})])
def test_the_advice_ranks_first_what_the_bot_plays_for_the_same_seed_and_budget(
    name: str, config: dict[str, Any]
) -> None:
    game = make_game(name, config)
    for i, (state, player) in enumerate(_positions(game, 3, 5)):
        view = state.view(player)
        advice = advise(game, view, "mcts:60", seed=i)
        direct = make_bot("mcts:60", game, i)
        assert advice.best == str(direct.act(view))
        assert advice.iterations == direct.last_iterations == 60
        assert {a.action for a in advice.actions} == set(view.legal_actions)
        assert sum(a.visits for a in advice.actions) == 60
        assert all(0.0 <= a.win <= 1.0 for a in advice.actions)
        assert advise(game, view, "mcts:60", seed=i) == advice  # deterministic


def test_a_forward_back_choice_gets_an_estimate_for_each_direction() -> None:
    game = make_game("sakura", {"players": 3})
    state, player = _choice_position(game)
    view = state.view(player)
    advice = advise(game, view, "mcts:60", seed=5)
    assert {"forward", "back"} <= {a.action for a in advice.actions}
    assert advice.best == str(make_bot("mcts:60", game, 5).act(view))


def test_progress_is_reported_up_to_the_budget() -> None:
    game = make_game("sakura", {"players": 4})
    calls: list[tuple[int, int]] = []
    advise(
        game,
        game.new_initial_state(1).view(2),
        "mcts:60",
        seed=1,
        progress=lambda done, total: calls.append((done, total)),
    )
    assert calls[0] == (25, 60) and calls[-1] == (60, 60)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_advice_takes_a_view_and_a_search_bot_only() -> None:
    game = make_game("sakura", {"players": 4})
    state = game.new_initial_state(1)
    with pytest.raises(TypeError, match="View"):
        advise(game, state, "mcts:30")  # type: ignore[arg-type]
    with pytest.raises(BotError, match="search bot"):
        advise(game, state.view(0), "greedy")
    with pytest.raises(BotError, match="spectator"):
        advise(game, state.view(None), "mcts:30")


def test_expert_names_the_ladder_level_of_each_game() -> None:
    assert resolve_spec("expert") == "mcts:200"
    assert resolve_spec("expert", "sakura-cards") == "mcts:50"
    assert resolve_spec("mcts:70") == "mcts:70"
    with pytest.raises(BotError):
        resolve_spec("no-such-bot")
