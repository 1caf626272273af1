"""Reading the other hands from the cards they played (``sakura/bots/sakura_reading.py``)."""

from __future__ import annotations

import itertools
import math
from typing import Any

from sakura.bots import MctsBot, make_bot
from sakura.bots.heuristics import hand_reader_for
from sakura.bots.sakura_reading import SakuraHandReader
from sakura.engine import make_game


def _rounds(game: Any, seed: int, rounds: int) -> list[tuple[Any, dict[int, int], Any]]:
    """(seat 0's selection view, the card each seat played, the true state's copy) for the
    first ``rounds`` rounds of a greedy game."""
    state = game.new_initial_state(seed)
    bots = [make_bot("greedy", game, seed * 10 + p) for p in range(state.num_players)]
    out = []
    while len(out) < rounds and not state.is_terminal():
        view, truth = state.view(0), state.clone()
        played: dict[int, int] = {}
        start = state.round
        while state.round == start and not state.is_terminal():
            for p in state.current_players():
                v = state.view(p)
                action = bots[p].act(v)
                if v.pending is None:
                    played[p] = action.card
                state.apply_action(p, action)
        out.append((view, played, truth))
    return out


def test_the_pile_says_which_cards_the_others_played() -> None:
    game = make_game("sakura", {"players": 4})
    reader = SakuraHandReader(game)  # type: ignore[arg-type]
    rounds = _rounds(game, seed=3, rounds=6)
    read = 0
    for (before, played, _), (after, _, _) in itertools.pairwise(rounds):
        got = reader.played(before, after)
        if got is not None:  # None only after the pile went back into the deck
            assert sorted(got) == sorted(c for p, c in played.items() if p != 0)
            read += 1
    assert read >= 4
    assert reader.played(rounds[0][0], rounds[2][0]) is None  # not two rounds in a row
    assert reader.weigher(None, rounds[1][0], 0.1) is None  # nothing remembered


def test_a_table_with_a_court_painter_is_not_read() -> None:
    assert hand_reader_for(make_game("sakura", {"players": 2, "variant": "court"})) is None
    assert hand_reader_for(make_game("sakura-cards", {})) is None
    assert hand_reader_for(make_game("sakura", {"players": 5})) is not None


def test_the_true_hands_weigh_more_than_a_uniform_draw_against_greedy_players() -> None:
    """Over the rounds of several games, the true deal is on average (geometric mean) several
    times likelier than the average uniformly sampled deal: the reading is informative."""
    game = make_game("sakura", {"players": 4})
    reader = SakuraHandReader(game)  # type: ignore[arg-type]
    logs = []
    for seed in (3, 4, 5, 6):
        rounds = _rounds(game, seed=seed, rounds=8)
        for (before, _, _), (after, _, truth) in itertools.pairwise(rounds):
            weigh = reader.weigher(before, after, 0.1)
            if weigh is None:
                continue
            samples = [weigh(game.sample_state(after, i)) for i in range(100)]
            logs.append(math.log(weigh(truth) / (sum(samples) / len(samples))))
    assert len(logs) >= 20
    assert math.exp(sum(logs) / len(logs)) > 1.3


def test_a_reading_search_remembers_only_its_own_views_and_is_reproducible() -> None:
    game = make_game("sakura", {"players": 4})
    rounds = _rounds(game, seed=4, rounds=3)
    views = [r[0] for r in rounds]

    def decide(seq: list[Any]) -> Any:
        bot = make_bot("mcts:60,model=0,infer=0.1", game, seed=2)
        assert isinstance(bot, MctsBot)
        action = None
        for view in seq:
            action = bot.act(view)
        assert set(bot.previous) == {0}
        return action

    assert decide(views) == decide(views)  # the same views, the same decisions
    bot = make_bot("mcts:60,model=0,infer=0.1", game, seed=2)
    assert isinstance(bot, MctsBot) and bot.reader is not None
    bot.act(views[1])
    assert bot.reader.weigher(bot.previous.get(0), views[2], 0.1) is not None
