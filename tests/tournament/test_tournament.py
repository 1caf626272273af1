"""Tournaments: the schedule, reproducible results whatever the number of processes, ratings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sakura.tournament.head_to_head import head_to_head
from sakura.tournament.play import GameResult, GameSetup, play_game
from sakura.tournament.ratings import _ranks, ratings, standings, wilson
from sakura.tournament.report import summary, write_results
from sakura.tournament.runner import run_games
from sakura.tournament.schedule import GAUNTLET, ROUND_ROBIN, TournamentPlan, derive_seed


def plan(
    specs: tuple[str, ...] = ("greedy", "random"),
    players: int = 3,
    games: int = 12,
    mode: str = GAUNTLET,
    seed: int = 5,
) -> TournamentPlan:
    return TournamentPlan("sakura", {"players": players}, specs, games=games, seed=seed, mode=mode)


# ---------------------------------------------------------------------------- schedule


def test_every_bot_sits_in_every_seat_on_the_same_deal() -> None:
    """Seat rotation with duplicate deals: a block replays one deal seed, rotated."""
    setups = plan(players=4, games=8).setups()
    assert len(setups) == 8
    first = setups[:4]
    assert len({s.seed for s in first}) == 1 and first[0].seed != setups[4].seed
    assert [s.seats.index("greedy") for s in first] == [0, 1, 2, 3]
    assert len({s.bot_seeds for s in setups}) == 8


def test_games_round_up_to_whole_blocks() -> None:
    p = plan(specs=("greedy", "random", "mcts:5"), players=3, games=7)
    assert p.lineups() == [("greedy", "random", "random"), ("greedy", "mcts:5", "mcts:5")]
    assert p.block == 6 and p.total_games == 12


def test_round_robin_tables() -> None:
    assert plan(specs=("a", "b", "c", "d"), mode=ROUND_ROBIN).lineups() == [
        ("a", "b", "c"),
        ("a", "b", "d"),
        ("a", "c", "d"),
        ("b", "c", "d"),
    ]
    assert plan(specs=("a", "b"), players=3, mode=ROUND_ROBIN).lineups() == [("a", "a", "b"), ("a", "b", "b")]


@pytest.mark.parametrize(
    ("specs", "mode", "message"),
    [
        (("greedy",), GAUNTLET, "at least two"),
        (("greedy", "greedy"), GAUNTLET, "once"),
        (("greedy", "random"), "swiss", "unknown mode"),
    ],
)
def test_bad_plans_say_why(specs: tuple[str, ...], mode: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        plan(specs=specs, mode=mode)


def test_seeds_derive_from_the_master_seed_only() -> None:
    assert derive_seed(5, "deal", 3) == derive_seed(5, "deal", 3)
    assert plan(seed=5).setups() == plan(seed=5).setups() != plan(seed=6).setups()


# ---------------------------------------------------------------------------- playing


def test_results_are_identical_whatever_the_number_of_jobs() -> None:
    setups = plan(specs=("mcts:6", "greedy", "random"), games=12, mode=ROUND_ROBIN).setups()
    one = run_games(setups, jobs=1)
    two = run_games(setups, jobs=2, batch=2)
    assert [r.index for r in two] == list(range(len(setups)))
    strip = [(r.winners, r.scores, r.rounds, r.moves, r.seats) for r in one]
    assert strip == [(r.winners, r.scores, r.rounds, r.moves, r.seats) for r in two]
    assert [(s.spec, s.wins, s.mu) for s in standings(one)] == [
        (s.spec, s.wins, s.mu) for s in standings(two)
    ]


def test_a_game_can_be_recorded_and_replays(tmp_path: Path) -> None:
    from sakura.records import GameRecord, replay

    setup = plan().setups()[1]
    result = play_game(setup, records=tmp_path)
    record = GameRecord.loads((tmp_path / "game-000001.json").read_text())
    final = replay(record)
    outcome = final.outcome()
    assert outcome is not None and outcome.scores == result.scores
    assert record.players == ("Player 1 (random)", "Player 2 (greedy)", "Player 3 (random)")
    assert record.players[1].endswith("(greedy)")


# ---------------------------------------------------------------------------- ratings


def test_wilson_interval() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def _result(
    index: int, seats: tuple[str, ...], winners: tuple[int, ...], scores: tuple[int, ...]
) -> GameResult:
    share = 1 / len(winners)
    return GameResult(
        index,
        index,
        0,
        seats,
        winners,
        scores,
        tuple(share if s in winners else 0.0 for s in range(len(seats))),
        10,
        40,
        (0.0,) * len(seats),
        (10,) * len(seats),
    )


def test_ranks_put_winners_first_then_tokens() -> None:
    assert _ranks(_result(0, ("a", "b", "c"), (1,), (9, 9, 4))) == [2, 1, 3]
    assert _ranks(_result(0, ("a", "b", "c"), (0, 2), (9, 7, 9))) == [1, 3, 1]


def test_standings_split_shared_wins_and_rate_the_stronger_higher() -> None:
    results = [_result(i, ("strong", "weak", "weak"), (0,), (12, 8, 7)) for i in range(20)]
    results.append(_result(20, ("weak", "strong", "weak"), (0, 1), (10, 10, 3)))
    table = {s.spec: s for s in standings(results)}
    assert table["strong"].wins == 20.5 and table["strong"].seat_games == 21
    assert table["weak"].seat_games == 42 and table["weak"].wins == 0.5
    assert table["strong"].ratio == pytest.approx(3 * 20.5 / 21)
    rated = ratings(results)
    assert rated["strong"][0] > rated["weak"][0]


def test_the_summary_is_saved_as_json_and_csv(tmp_path: Path) -> None:
    p = plan(games=6)
    results = run_games(p.setups(), jobs=1)
    json_path, csv_path = write_results(tmp_path, summary(p, results, 1.0))
    data = json.loads(json_path.read_text())
    assert data["games"] == 6 and data["players"] == 3 and len(data["results"]) == 6
    assert {s["spec"] for s in data["standings"]} == {"greedy", "random"}
    rows = csv_path.read_text().splitlines()
    assert rows[0].startswith("spec,seat_games,wins,win_rate,ci_low,ci_high") and len(rows) == 3


def test_the_head_to_head_matrix_is_printed_and_saved_with_intervals_by_deal(tmp_path: Path) -> None:
    """A small seeded round-robin: each pair's share of finishing ahead, both ways adding up
    to one, its interval counting deals; the same numbers in the JSON, the CSV and on screen."""
    p = plan(specs=("greedy", "random", "mcts:5"), players=3, games=18, mode=ROUND_ROBIN, seed=2)
    results = run_games(p.setups(), jobs=1)
    matrix = head_to_head(results)
    assert set(matrix) == {(a, b) for a in p.specs for b in p.specs if a != b}
    for (a, b), e in matrix.items():
        assert e.low <= e.value <= e.high and e.clusters == p.deals
        assert e.value + matrix[(b, a)].value == pytest.approx(1.0)
    # by hand: greedy against random, a meeting a game, ties one half
    meetings = []
    for r in results:
        g, x = r.seats.index("greedy"), r.seats.index("random")
        key = [(s in r.winners, score) for s, score in enumerate(r.scores)]
        meetings.append(1.0 if key[g] > key[x] else 0.5 if key[g] == key[x] else 0.0)
    assert matrix[("greedy", "random")].value == pytest.approx(sum(meetings) / len(meetings))
    write_results(tmp_path, summary(p, results, 1.0))
    data = json.loads((tmp_path / "tournament.json").read_text())
    saved = {(r["row"], r["column"]): r for r in data["head_to_head"]}
    assert saved[("greedy", "random")]["ahead"] == round(matrix[("greedy", "random")].value, 4)
    assert saved[("greedy", "random")]["deals"] == p.deals
    # in a round-robin at two players, each pair meets on its own deals only
    two = plan(specs=("greedy", "random", "mcts:5"), players=2, games=24, mode=ROUND_ROBIN, seed=2)
    met = head_to_head(run_games(two.setups(), jobs=1))
    assert {e.clusters for e in met.values()} == {two.deals // 3}
    lines = (tmp_path / "head_to_head.csv").read_text().splitlines()
    assert lines[0] == "row,column,ahead,ci_low,ci_high,meetings,deals" and len(lines) == 1 + 6
    assert [s["seat"] for s in data["seats"]] == [1, 2, 3]  # seats named from 1, as on screen


def test_the_tournament_command_prints_the_matrix(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from sakura.cli.main import app

    out = tmp_path / "t"
    result = CliRunner().invoke(
        app, ["tournament", "greedy", "random", "-p", "3", "-n", "6", "-j", "1", "-q", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "head to head: row finished ahead of column" in result.output
    assert (out / "head_to_head.csv").is_file() and "head_to_head.csv" in result.output


def test_a_setup_is_small_and_plain() -> None:
    setup = plan().setups()[0]
    assert isinstance(setup, GameSetup) and json.loads(setup.config_json) == {"players": 3}


def test_a_round_robin_spreads_its_games_over_a_deal_per_line_up() -> None:
    """The issue's case: three specs at four players, -n 60, used to be 96 games from 2 deals."""
    p = plan(specs=("greedy", "random", "mcts:5"), players=4, games=60, mode=ROUND_ROBIN)
    setups = p.setups()
    assert p.block == 48 and len(setups) == 96
    assert p.deals == len({s.deal for s in setups}) == len({s.seed for s in setups}) == 24
    for deal in {s.deal for s in setups}:  # each deal: one line-up in its four rotations
        games = [s for s in setups if s.deal == deal]
        assert len(games) == 4 and len({tuple(sorted(s.seats)) for s in games}) == 1
    assert p.warning() is not None and "24 deals" in p.warning()  # type: ignore[operator]
    assert (
        plan(specs=("greedy", "random", "mcts:5"), players=4, games=480, mode=ROUND_ROBIN).warning() is None
    )


def test_a_gauntlet_with_few_deals_says_so() -> None:
    p = plan(players=4, games=8)
    assert p.deals == 2
    warning = p.warning()
    assert warning is not None and "only 2 deals" in warning and "-n 120" in warning
