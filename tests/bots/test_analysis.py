"""Post-game analysis of a recorded game: one entry per decision of the seat (from its view),
losses against the best action, named by the documented thresholds, and a win-chance point
at every round's start from public information."""

from __future__ import annotations

import json
from pathlib import Path

from sakura.bots.analysis import THRESHOLDS, analyse, jobs, label, public_wins, run_job
from sakura.bots.judge import judge
from sakura.records import GameRecord, replay

GOLDEN = Path(__file__).resolve().parent.parent / "records" / "golden" / "4p-seed1.json"


def _game() -> tuple[GameRecord, object, list[tuple[int, str]]]:
    record = GameRecord.loads(GOLDEN.read_text(encoding="utf-8"))
    game = record.make_game()
    return record, game, [(m.player, m.action) for m in record.moves]


def test_every_decision_with_an_alternative_is_scored_from_the_seats_view() -> None:
    record, game, moves = _game()
    initial = game.state_from_json(record.initial)
    state = initial.clone()
    expected = []
    for i, (player, text) in enumerate(moves):
        if player == 1 and len(state.legal_actions(1)) > 1:
            expected.append((i, text, state.view(1)))
        state.apply_action(player, game.parse_action(text))
    result = analyse(game, initial, moves, 1, "mcts:40", seed=3, samples=60, graph=False).to_json()
    assert [(d["index"], d["played"]) for d in result["decisions"]] == [(i, t) for i, t, _ in expected]
    assert result["rounds"] == [] and result["seat"] == 1 and result["spec"] == "mcts:40"
    # each entry is the judgement of that view with the same seed
    index, _played, view = expected[2]
    entry = result["decisions"][2]
    judged = judge(game, view, 60, seed=3 + index)
    assert [a["action"] for a in entry["actions"]] == list(judged.actions) == list(view.legal_actions)
    assert judged.win(entry["best"]) == judged.win(judged.best) and entry["samples"] == 60
    for d in result["decisions"]:
        assert d["win_best"] >= d["win_played"]
        assert abs(d["loss"] - (d["win_best"] - d["win_played"])) < 0.11  # both rounded to 0.1
        assert d["margin"] >= 0 and abs(d["loss_low"] - max(0.0, d["loss"] - d["margin"])) < 0.11
        assert d["label"] == label(d["loss_low"])
    assert result["counts"] == {
        name: sum(d["label"] == name for d in result["decisions"]) for name, _ in THRESHOLDS
    }
    json.dumps(result)  # plain data


def test_thresholds_name_losses_in_win_chance_points() -> None:
    names = [label(x) for x in (0.0, 4.9, 5.0, 9.9, 10.0, 19.9, 20.0, 60.0)]
    assert names == [None, None, "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]


def test_the_graph_has_a_point_at_each_round_start_and_the_result_at_the_end() -> None:
    record, game, moves = _game()
    initial = game.state_from_json(record.initial)
    todo = jobs(game, initial, moves, 0)
    final = replay(record)
    rounds = [j for j in todo if j["kind"] == "round"]
    assert [j["round"] for j in rounds] == list(range(1, final.round + 1))
    end = run_job(game, todo[-1])
    assert end["kind"] == "end" and end["wins"] == list(final.outcome().returns())
    point = run_job(game, rounds[3], "mcts:40", seed=2)
    assert len(point["wins"]) == 4 and abs(sum(point["wins"]) - 1.0) < 1e-3
    assert point == run_job(game, rounds[3], "mcts:40", seed=2)  # deterministic


def test_the_public_estimate_forgets_the_hidden_hands() -> None:
    """Two states that differ only in what is hidden (the hands) get the same estimate."""
    _, game, _ = _game()
    a = game.new_initial_state(11)
    b = game.sample_state(a.view(0), 99)  # same public board, other hands everywhere but seat 0
    b = game.sample_state(b.view(1), 98)  # ... and now seat 0's differ too
    assert a.view(None) == b.view(None) and a.hands != b.hands
    wins_a = public_wins(game, a, "mcts:200", seed=4)
    wins_b = public_wins(game, b, "mcts:200", seed=4)
    assert max(abs(x - y) for x, y in zip(wins_a, wins_b, strict=True)) < 0.15
