"""The learned value estimate and the search options that use it (``model``, ``cut``)."""

from __future__ import annotations

from typing import Any

import pytest

from sakura.bots import MctsBot, make_bot
from sakura.bots.heuristics import evaluator_for
from sakura.bots.sakura_value import FEATURES, SakuraValue, features, load_weights
from sakura.engine import make_game
from sakura.engine.games.sakura import SakuraGame


def _round_start(game: Any, seed: int, rounds: int) -> Any:
    """A state at the start of a round after ``rounds`` rounds of greedy play."""
    state = game.new_initial_state(seed)
    bots = [make_bot("greedy", game, seed * 10 + p) for p in range(state.num_players)]
    while state.round < rounds + 1 and not state.is_terminal():
        for p in state.current_players():
            state.apply_action(p, bots[p].act(state.view(p)))
    return state


def test_the_shipped_weights_fit_four_players_and_beat_the_mean_on_held_out_games() -> None:
    table = load_weights()["tables"]["4"]
    assert table["features"] == list(FEATURES)
    assert len(table["share"]) == len(table["margin"]) == 3  # one fit per sakura still to score
    for line in table["heldout"][1:]:  # once a sakura is scored, the board predicts the end
        assert line["share mse"] < line["share baseline mse"]
        assert line["margin mse"] < line["margin baseline mse"]


def test_more_tokens_than_every_rival_is_worth_more() -> None:
    game = make_game("sakura", {"players": 4})
    value = evaluator_for(game)
    assert isinstance(value, SakuraValue)
    state = _round_start(game, seed=5, rounds=6)
    before = value.value(state)
    assert before is not None
    leader = max(range(4), key=lambda s: before[1][s])
    richer = state.clone()
    richer.tokens[leader] += 3
    after = value.value(richer)
    assert after is not None
    assert after[0][leader] > before[0][leader] and after[1][leader] > before[1][leader]
    for shares, margins in (before, after):
        assert all(0.0 <= v <= 1.0 for v in shares + margins)


def test_the_value_reads_only_the_public_board() -> None:
    """Two determinizations of one view (other hands, deck) are valued alike."""
    game = make_game("sakura", {"players": 4})
    value = evaluator_for(game)
    assert value is not None
    state = _round_start(game, seed=9, rounds=4)
    view = state.view(1)
    a, b = game.sample_state(view, seed=1), game.sample_state(view, seed=2)
    assert a.hands[0] != b.hands[0]
    assert value.value(a) == value.value(b) == value.value(state)


def test_the_value_judges_round_starts_only() -> None:
    game = make_game("sakura", {"players": 4})
    value = evaluator_for(game)
    assert value is not None
    state = _round_start(game, seed=3, rounds=2)
    assert value.value(state) is not None
    p = state.current_players()[0]
    state.apply_action(p, state.legal_actions(p)[0])  # one secret choice made: not a round start
    assert value.value(state) is None


def test_features_are_the_same_for_seats_in_the_same_place() -> None:
    game = make_game("sakura", {"players": 4})
    assert isinstance(game, SakuraGame)
    rows = features(game, game.new_initial_state(1), speed=2.0)
    assert len(rows) == 4 and all(row == rows[0] for row in rows) and len(rows[0]) == len(FEATURES)


def test_a_table_without_weights_has_no_estimate_and_cut_then_plays_out() -> None:
    game = make_game("sakura", {"players": 4})
    other = make_game("sakura-cards", {})
    assert evaluator_for(other) is None
    bot = make_bot("mcts:20,cut=1", other, seed=1)
    state = other.new_initial_state(2)
    view = state.view(state.current_players()[0])
    assert str(bot.act(view)) in view.legal_actions
    assert isinstance(make_bot("mcts:20,cut=1", game, seed=1), MctsBot)


@pytest.mark.parametrize(
    "spec", ["mcts:40,model=0", "mcts:40,model=0.3", "mcts:40,cut=1", "mcts:40,model=0,cut=2"]
)
def test_modelled_and_cut_searches_are_reproducible_and_legal(spec: str) -> None:
    game = make_game("sakura", {"players": 4})
    state = _round_start(game, seed=11, rounds=3)
    view = state.view(2)
    first = make_bot(spec, game, seed=7).act(view)
    assert str(first) in view.legal_actions
    assert make_bot(spec, game, seed=7).act(view) == first


def test_a_modelled_opponent_plays_the_best_prior_or_a_softmax_over_the_priors() -> None:
    game = make_game("sakura", {"players": 4})
    greedy_model = make_bot("mcts:10,model=0", game, seed=3)
    soft_model = make_bot("mcts:10,model=0.3", game, seed=3)
    assert isinstance(greedy_model, MctsBot) and isinstance(soft_model, MctsBot)
    priors = [0.2, 0.9, 0.5]

    def entries() -> list[list[float]]:
        return [[0.0, 0.0, 0.0, p] for p in priors]

    assert {greedy_model._modelled(entries()) for _ in range(50)} == {1}
    picks = [soft_model._modelled(entries()) for _ in range(2000)]
    share = [picks.count(i) / len(picks) for i in range(3)]
    # exp((0.2-0.9)/0.3) : 1 : exp((0.5-0.9)/0.3) = 0.097 : 1 : 0.264
    assert share[1] == pytest.approx(1 / 1.361, abs=0.04)
    assert share[2] == pytest.approx(0.264 / 1.361, abs=0.04)
    assert share[0] == pytest.approx(0.097 / 1.361, abs=0.03)
    counted = entries()
    greedy_model._modelled(counted)
    assert [e[2] for e in counted] == [1.0, 1.0, 1.0]  # each was available once


def test_model_leaves_the_deciding_players_own_choices_to_the_search() -> None:
    game = make_game("sakura", {"players": 4})
    state = _round_start(game, seed=4, rounds=2)
    bot = make_bot("mcts:80,model=0", game, seed=3)
    assert isinstance(bot, MctsBot)
    captured: list[Any] = []
    original = bot._iterate

    def spy(root: Any, sample: Any) -> None:
        captured.append(root)
        original(root, sample)

    bot._iterate = spy  # type: ignore[method-assign]
    bot.act(state.view(0))
    root = captured[0]
    assert sum(1 for s in root.stats[0].values() if s[0]) > 1  # the bot explores its own cards
    for player in (1, 2, 3):  # an opponent's visited card was the best prior it held each time
        for _action, (visits, _total, available, _prior) in root.stats[player].items():
            assert available >= visits
