"""``sakura compare``: the figures against direct computations, and the command end to end."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest
from scipy import stats
from typer.testing import CliRunner

from sakura.cli.main import app
from sakura.engine.games.sakura import SakuraGame, default_deck
from sakura.tournament.balance import balance
from sakura.tournament.compare import DIFFERS, SAME, compare_figures
from sakura.tournament.play import GameResult

runner = CliRunner()


def result(deal: int, rounds: int, winner: int, dealt: list[list[int]], bumps: int = 0) -> GameResult:
    """A hand-made 2-player game: its rounds, its winner, the starting hands."""
    returns = tuple(1.0 if s == winner else 0.0 for s in range(2))
    return GameResult(index=deal, deal=deal, seed=deal, seats=("greedy", "greedy"), winners=(winner,),
                      scores=(0, 0), returns=returns, rounds=rounds, moves=0, think_seconds=(0.0, 0.0),
                      decisions=(0, 0),
                      stats={"plays": [], "bumps": {"painter": bumps, "emperor": 0}, "sakuras": [],
                             "court": 2, "dealt": dealt})


GAME = SakuraGame(2)


def test_the_dealt_effect_by_hand() -> None:
    # Card 1 dealt to the winner twice, to the loser once; never dealt in deal 3.
    results = [result(0, 9, 0, [[1], [2]]), result(1, 9, 0, [[2], [1]]), result(2, 9, 0, [[1], [3]]),
               result(3, 9, 1, [[4], [5]])]
    card = balance(results, GAME).cards[1]
    assert card.dealt_rate.value == pytest.approx(2 / 3)
    not_dealt_wins, not_dealt = 2, 5  # the other hands: lost, won, lost, lost, won
    assert card.dealt.value == pytest.approx(2 / 3 - not_dealt_wins / not_dealt)
    assert card.dealt.clusters == 4


def test_a_paired_figure_is_the_paired_t_interval_over_deals() -> None:
    rounds_a, rounds_b = [9, 11, 10, 12, 8], [8, 10, 10, 11, 6]
    a = [result(d, r, 0, [[1], [2]]) for d, r in enumerate(rounds_a)]
    b = [result(d, r, 0, [[1], [2]]) for d, r in enumerate(rounds_b)]
    rows = {row.name: row for row in compare_figures(a, b, GAME, GAME)}
    rounds = rows["rounds a game"]
    ci = stats.ttest_rel(rounds_b, rounds_a).confidence_interval(0.95)
    assert rounds.a.value == statistics.fmean(rounds_a) and rounds.b.value == statistics.fmean(rounds_b)
    assert (rounds.difference.low, rounds.difference.high) == pytest.approx((ci.low, ci.high))
    assert rounds.verdict == DIFFERS  # every deal shorter or equal: -1.2 (-2.24 to -0.16)
    assert rows["seat 1 win rate"].verdict == SAME and rows["seat 1 win rate"].difference.value == 0


def test_a_deck_against_itself_differs_nowhere(tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text(default_deck().text())
    out = tmp_path / "same"
    done = runner.invoke(app, ["compare", str(deck), str(deck), "-n", "12", "-j", "1", "--out", str(out),
                               "-q"])
    assert done.exit_code == 0, done.output
    figures = json.loads((out / "compare.json").read_text())["figures"]
    assert len(figures) > 60 and {f["verdict"] for f in figures} == {SAME}
    report = (out / "compare.md").read_text()
    assert "Nothing changed detectably" in report.split("## Win rate by seat")[0]
    for name in ("differences", "card_differences"):
        assert (out / f"{name}.png").read_bytes()[:4] == b"\x89PNG"


def test_a_faster_emperor_makes_shorter_games_with_fewer_bumps(tmp_path: Path) -> None:
    """All E-1 cards turned into E+2: the Emperor never steps back."""
    a, b = tmp_path / "published.txt", tmp_path / "forward.txt"
    a.write_text(default_deck().text())
    b.write_text(default_deck().text().replace(" E-1 ", " E+2 "))
    out = tmp_path / "faster"
    done = runner.invoke(app, ["compare", str(a), str(b), "-n", "100", "-j", "2", "--out", str(out), "-q"])
    assert done.exit_code == 0, done.output
    figures = {f["figure"]: f for f in json.loads((out / "compare.json").read_text())["figures"]}
    for name in ("rounds a game", "bumps a game"):
        assert figures[name]["verdict"] == DIFFERS and figures[name]["difference"]["high"] < 0
    words = (out / "compare.md").read_text().split("## Win rate by seat")[0]
    assert "rounds a game" in words and "card 11 (E-1 P±3 → E+2 P±3)" in (out / "compare.md").read_text()


def test_compare_refuses_unlike_files(tmp_path: Path) -> None:
    deck, garden, junk = tmp_path / "deck.txt", tmp_path / "garden.txt", tmp_path / "junk.txt"
    deck.write_text(default_deck().text())
    from importlib import resources
    garden.write_text(resources.files("sakura.engine.games.sakura").joinpath("data/garden.txt").read_text())
    junk.write_text("hello\n")
    unlike = runner.invoke(app, ["compare", str(deck), str(garden), "--out", str(tmp_path / "o"), "-q"])
    assert unlike.exit_code == 2 and "like with like" in unlike.output
    neither = runner.invoke(app, ["compare", str(junk), str(deck), "--out", str(tmp_path / "o"), "-q"])
    assert neither.exit_code == 2 and "neither a deck nor a garden" in neither.output
    assert not (tmp_path / "o").exists()
