"""The ladder of named levels: specs everywhere a spec is accepted, for both games, deciding
from the player's view only, reproducible, and in order on a small fixed sample (the full
measurement is ``benchmarks/ladder.py``)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from tests.bots.test_bots import _states_differing_in_hidden_parts

from sakura.bots import (
    LADDER,
    LEGACY,
    LEVEL_NAMES,
    BotError,
    MctsBot,
    SoftmaxBot,
    level_bots,
    level_spec,
    make_bot,
    parse_spec,
)
from sakura.bots.softmax import softmax_weights
from sakura.engine import Game, State, make_game
from sakura.engine.games.sakura import SakuraGame

GAMES = {"sakura": make_game("sakura", {"players": 4}), "sakura-cards": make_game("sakura-cards")}


def _views(game: Game[Any], seed: int, count: int) -> list[Any]:
    """``count`` real decision points (two or more legal actions) of one greedy game."""
    state = game.new_initial_state(seed)
    bots = [make_bot("greedy", game, seed + p) for p in range(state.num_players)]
    views: list[Any] = []
    while not state.is_terminal():
        acting = state.current_players()
        chosen = [(p, bots[p].act(state.view(p))) for p in acting]
        for p, _ in chosen:
            view = state.view(p)
            if len(view.legal_actions) > 1:
                views.append(view)
        for p, action in chosen:
            state.apply_action(p, action)
    return views[:: max(1, len(views) // count)][:count]


def test_the_ladder_has_five_levels_weakest_first() -> None:
    assert LEVEL_NAMES == ("beginner", "casual", "club", "expert", "master") == tuple(level_bots())
    assert {LEGACY[old] for old in ("easy", "medium", "hard")} <= set(LEVEL_NAMES)


@pytest.mark.parametrize("game_name", sorted(GAMES))
@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_a_level_is_a_spec_for_both_games(level: str, game_name: str) -> None:
    game = GAMES[game_name]
    bot = make_bot(level, game, seed=1)
    assert bot.spec == level
    assert make_bot(f" {level.upper()} ", game, seed=1).spec == level
    spec = level_spec(level, game_name)
    assert parse_spec(level) == parse_spec(level_spec(level))
    assert type(make_bot(spec, game, seed=1)) is type(bot)
    view = _views(game, seed=2, count=1)[0]
    assert str(bot.act(view)) in view.legal_actions


def test_the_low_levels_err_and_the_search_levels_search() -> None:
    game = GAMES["sakura"]
    kinds = {level.name: type(make_bot(level.name, game, 1)).__name__ for level in LADDER}
    assert kinds == {
        "beginner": "SoftmaxBot",
        "casual": "SoftmaxBot",
        "club": "GreedyBot",
        "expert": "MctsBot",
        "master": "MctsBot",
    }
    expert, master = make_bot("expert", game, 1), make_bot("master", game, 1)
    assert isinstance(expert, MctsBot) and isinstance(master, MctsBot)
    assert expert.limit.iterations is not None and master.limit.iterations is not None
    assert master.limit.iterations > expert.limit.iterations and master.limit.seconds is None


def test_levels_take_no_limit_and_softmax_needs_a_temperature() -> None:
    game = SakuraGame(3)
    for bad in (
        "club:100",
        "master,c=1",
        "softmax",
        "softmax:hot",
        "softmax:0",
        "softmax:-1",
        "softmax:0.5,c=1",
        "easy",
    ):
        with pytest.raises(BotError):
            make_bot(bad, game, seed=1)
    assert make_bot("softmax:0.3", game, seed=1).spec == "softmax:0.3"


# ---------------------------------------------------------------------------- how softmax errs


def test_softmax_weights_follow_the_scores() -> None:
    e = 2.718281828459045
    assert softmax_weights([2.0, 1.0, -3.0], 1.0) == pytest.approx([1.0, e**-1, e**-5])
    assert softmax_weights([0.0, 0.0, 0.0], 0.5) == [1.0, 1.0, 1.0]


def test_softmax_plays_good_moves_more_often_but_not_only_them() -> None:
    """Over many draws from one view, each action's frequency follows its heuristic weight:
    never uniform, never only the best."""
    game = GAMES["sakura"]
    view = next(
        v
        for v in _views(game, seed=4, count=40)
        if len(set(round(s, 3) for s in make_bot("softmax:0.5", game, 1).heuristic.view_scores(v))) >= 3
    )  # type: ignore[attr-defined]
    bot = make_bot("softmax:0.5", game, seed=9)
    assert isinstance(bot, SoftmaxBot)
    weights = softmax_weights(bot.heuristic.view_scores(view), 0.5)
    draws = 3000
    counts = Counter(str(bot.act(view)) for _ in range(draws))
    total = sum(weights)
    for text, weight in zip(view.legal_actions, weights, strict=True):
        expected = draws * weight / total
        assert abs(counts[text] - expected) <= 5 * (expected + 1) ** 0.5  # ~5 standard deviations
    best = view.legal_actions[weights.index(1.0)]
    assert counts[best] < draws and counts.most_common(1)[0][0] == best


# ---------------------------------------------------------------------------- views only, reproducible


@pytest.mark.parametrize("level", LEVEL_NAMES)
@pytest.mark.parametrize("moves", [2, 9])
def test_levels_cannot_see_hidden_information_in_sakura(level: str, moves: int) -> None:
    a, b, me = _states_differing_in_hidden_parts(seed=moves + 3, moves=moves)
    assert a.view(me) == b.view(me)
    first = make_bot(level, a.game, seed=42).act(a.view(me))
    assert first == make_bot(level, b.game, seed=42).act(b.view(me))


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_levels_cannot_see_hidden_information_in_the_card_game(level: str) -> None:
    """Two states that differ in the opponent's hand and the deck, the same to the player."""
    game = GAMES["sakura-cards"]
    state: State[Any] = game.new_initial_state(6)
    rng = random.Random(6)
    for _ in range(5):
        p = state.current_players()[0]
        state.apply_action(p, rng.choice(state.legal_actions(p)))
    me = state.current_players()[0]
    twin = game.sample_state(state.view(me), seed=77)
    assert twin.view(me) == state.view(me) and twin.to_json() != state.to_json()
    first = make_bot(level, game, seed=5).act(state.view(me))
    assert first == make_bot(level, game, seed=5).act(twin.view(me))


@pytest.mark.parametrize("game_name", sorted(GAMES))
@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_a_level_is_deterministic_for_a_seed(level: str, game_name: str) -> None:
    """The same seed and the same views give the same decisions, in the same order; another
    seed may not (the low levels draw, the searches sample)."""
    game = GAMES[game_name]
    views = _views(game, seed=11, count=2 if level == "master" else 6)
    first, second = make_bot(level, game, seed=3), make_bot(level, game, seed=3)
    assert [first.act(v) for v in views] == [second.act(v) for v in views]


# ---------------------------------------------------------------------------- the ladder's order


def _table(game: Game[Any], specs: list[str], seed: int) -> tuple[float, ...]:
    state = game.new_initial_state(seed)
    bots = [make_bot(spec, game, seed * 10 + seat) for seat, spec in enumerate(specs)]
    while not state.is_terminal():
        acting = state.current_players()
        views = {p: state.view(p) for p in acting}
        for p in acting:
            state.apply_action(p, bots[p].act(views[p]))
    outcome = state.outcome()
    assert outcome is not None
    return tuple(outcome.returns())


@pytest.mark.parametrize(
    ("game_name", "strong", "weak", "deals"),
    [("sakura", "expert", "beginner", 3), ("sakura-cards", "club", "beginner", 6)],
)
def test_the_ladder_is_in_order_on_a_small_fixed_sample(
    game_name: str, strong: str, weak: str, deals: int
) -> None:
    """The stronger level, in every seat in turn on the same deals, wins more than its fair
    share against the weakest (a fixed sample: the intervals are the benchmark's)."""
    game = GAMES[game_name]
    players = game.new_initial_state(0).num_players
    share, games = 0.0, 0
    for deal in range(deals):
        for seat in range(players):
            specs = [strong if s == seat else weak for s in range(players)]
            share += _table(game, specs, seed=100 + deal)[seat]
            games += 1
    assert share / games > 1.0 / players
