"""Reading the other hands from the cards they played (``sakura/bots/sakura_reading.py``)."""

from __future__ import annotations

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


def test_the_views_say_which_card_each_other_seat_played_in_every_round() -> None:
    game = make_game("sakura", {"players": 4})
    reader = SakuraHandReader(game)  # type: ignore[arg-type]
    rounds = _rounds(game, seed=3, rounds=7)
    views = [view for view, _, _ in rounds]
    read = reader.plays(views[:-1], views[-1])
    assert [v.round for v, _ in read] == [v.round for v in views[:-1]]
    for (view, played), (_, truth, _) in zip(read, rounds, strict=False):
        assert played == {p: c for p, c in truth.items() if p != 0}, view.round
    assert reader.plays([], views[1]) == []  # nothing remembered, nothing read
    assert reader.likely([], views[1], 0.05) is None


def test_a_table_with_a_court_painter_is_not_read() -> None:
    assert hand_reader_for(make_game("sakura", {"players": 2, "variant": "court"})) is None
    assert hand_reader_for(make_game("sakura-cards", {})) is None
    assert hand_reader_for(make_game("sakura", {"players": 5})) is not None


def test_the_true_hands_weigh_more_than_the_average_hand_against_greedy_players() -> None:
    """Over the rounds of several greedy games, the cards each other player truly holds weigh
    more than the average unseen card (a hand's weights' product, against the average's, is
    on average about 1.6 times more at a low temperature): the reading is informative. A card
    that would have beaten the card played was probably not held."""
    game = make_game("sakura", {"players": 4})
    reader = SakuraHandReader(game)  # type: ignore[arg-type]
    logs = []
    for seed in (3, 4, 5, 6):
        rounds = _rounds(game, seed=seed, rounds=9)
        views = [view for view, _, _ in rounds]
        for i in range(1, len(rounds)):
            likely = reader.likely(views[:i], views[i], 0.05)
            if likely is None:
                continue
            truth = rounds[i][2]
            for seat, weights in likely.items():
                mean = sum(weights.values()) / len(weights)
                logs.append(sum(math.log(weights.get(c, mean) / mean) for c in truth.hands[seat]))
    assert len(logs) >= 60
    assert math.exp(sum(logs) / len(logs)) > 1.25


def test_a_reading_search_remembers_only_its_own_views_and_is_reproducible() -> None:
    game = make_game("sakura", {"players": 4})
    rounds = _rounds(game, seed=4, rounds=3)
    views = [r[0] for r in rounds]

    def decide(seq: list[Any]) -> Any:
        bot = make_bot("mcts:60,model=0,infer=0.05", game, seed=2)
        assert isinstance(bot, MctsBot)
        action = None
        for view in seq:
            action = bot.act(view)
        assert set(bot.history) == {0} and bot.history[0] == seq
        return action

    assert decide(views) == decide(views)  # the same views, the same decisions
    bot = make_bot("mcts:60,model=0,infer=0.05", game, seed=2)
    assert isinstance(bot, MctsBot) and bot.reader is not None
    bot.act(views[2])
    bot.act(views[0])  # an earlier round: a new game, the old one forgotten
    assert bot.history[0] == [views[0]]
