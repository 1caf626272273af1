"""``sakura compare``: the figures against direct computations, and the command end to end."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest
from scipy import stats
from tests.tournament.synthetic import GAME, result
from typer.testing import CliRunner

from sakura.cli.analyze import balance_setups
from sakura.cli.main import app
from sakura.engine.games.sakura import SakuraGame, default_deck
from sakura.tournament.balance import SakuraCollector
from sakura.tournament.compare import (
    DIFFERS,
    INDEPENDENT,
    SAME,
    card_survivors,
    compare_cards_figures,
    compare_figures,
)
from sakura.tournament.configs import sakura_config
from sakura.tournament.play import GameResult, GameSetup
from sakura.tournament.runner import run_games
from sakura.tournament.schedule import derive_seed

runner = CliRunner()


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
    done = runner.invoke(
        app, ["compare", str(deck), str(deck), "-n", "12", "-j", "1", "--out", str(out), "-q"]
    )
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


def test_two_gardens_compare_and_the_figures_do_not_depend_on_jobs(tmp_path: Path) -> None:
    from importlib import resources

    garden = tmp_path / "garden.txt"
    garden.write_text(resources.files("sakura.engine.games.sakura").joinpath("data/garden.txt").read_text())
    deck = tmp_path / "deck.txt"
    deck.write_text(default_deck().text().replace("17 E+2 JUMP", "17 E+1 JUMP"))
    figures = []
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}"
        done = runner.invoke(
            app,
            [
                "compare",
                str(garden),
                str(garden),
                "--deck",
                str(deck),
                "-p",
                "3",
                "-b",
                "greedy",
                "-b",
                "random",
                "-n",
                "8",
                "-j",
                jobs,
                "--out",
                str(out),
                "-q",
            ],
        )
        assert done.exit_code == 0, done.output
        figures.append(json.loads((out / "compare.json").read_text())["figures"])
    assert figures[0] == figures[1]
    names = {f["figure"] for f in figures[0]}
    assert {"greedy win rate", "random win rate", "card 17 (E+1 JUMP): dealt effect"} <= names
    refused = runner.invoke(
        app, ["compare", str(deck), str(deck), "--deck", str(deck), "-q", "--out", str(tmp_path / "x")]
    )
    assert refused.exit_code == 2 and "--deck would replace both sides" in refused.output


def cards_result(deal: int, scores: tuple[int, int], discards: int, gifts: tuple[int, int]) -> GameResult:
    """A hand-made card game: its totals (one round, all in the garden), discards, gifts."""
    winners = (0, 1) if scores[0] == scores[1] else ((0,) if scores[0] > scores[1] else (1,))
    returns = tuple(1 / len(winners) if s in winners else 0.0 for s in range(2))
    facts = {
        "starter": 0,
        "points": [[scores[0], 0, 0], [scores[1], 0, 0]],
        "combinations": [["colours", "none", "none"], ["one_colour", "none", "none"]],
        "blossoms": [[0, 0, 0], [0, 0, 0]],
    }
    return GameResult(
        index=deal,
        deal=deal,
        seed=deal,
        seats=("greedy", "greedy"),
        winners=winners,
        scores=scores,
        returns=returns,
        rounds=None,
        moves=0,
        think_seconds=(0.0, 0.0),
        decisions=(0, 0),
        stats={
            "first": 0,
            "rounds": [facts],
            "discards": [discards, 0],
            "gifts": gifts[0],
            "gifts_placed": gifts[1],
        },
    )


def test_the_card_games_figures_are_paired_over_deals() -> None:
    a_scores, b_scores = [(30, 20), (25, 25), (40, 10), (18, 22)], [(36, 20), (25, 31), (40, 19), (20, 30)]
    a = [cards_result(d, s, 3, (10, 4)) for d, s in enumerate(a_scores)]
    b = [cards_result(d, s, 1 + d, (10, 6)) for d, s in enumerate(b_scores)]
    rows = {row.name: row for row in compare_cards_figures(a, b)}
    total = rows["a player's game total"]
    means_a, means_b = [statistics.fmean(s) for s in a_scores], [statistics.fmean(s) for s in b_scores]
    ci = stats.ttest_rel(means_b, means_a).confidence_interval(0.95)
    assert total.difference.value == pytest.approx(statistics.fmean(means_b) - statistics.fmean(means_a))
    assert (total.difference.low, total.difference.high) == pytest.approx((ci.low, ci.high))
    gifts = rows["gifts the receiver placed"]
    assert (gifts.a.value, gifts.b.value) == (0.4, 0.6)
    assert rows["discards a game"].b.value == statistics.fmean([1, 2, 3, 4])
    assert rows["draws"].a.value == 0.25 and rows["areas: one colour"].a.value == 1 / 6
    assert rows["seat 1 win rate"].a.value == pytest.approx(0.625)


def test_an_aa_check_on_independent_deals_plays_other_games_and_says_so(tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text(default_deck().text())
    out = tmp_path / "aa"
    args = ["compare", str(deck), str(deck), "--independent", "-b", "random", "-n", "40", "-j", "1"]
    done = runner.invoke(app, [*args, "--out", str(out), "-q"])
    assert done.exit_code == 0, done.output
    data = json.loads((out / "compare.json").read_text())
    figures = {f["figure"]: f for f in data["figures"]}
    assert data["design"] == "independent"
    rounds = figures["rounds a game"]
    assert rounds["a"]["value"] != rounds["b"]["value"] and rounds["difference"]["deals"] == 80
    assert rounds["detectable"] > 0 and 0 <= rounds["p"] <= 1
    assert sum(f["verdict"] == DIFFERS for f in figures.values()) < 0.2 * len(figures)
    report = (out / "compare.md").read_text()
    assert "two-sample" in report and "Smallest change it could have seen (80% power)" in report
    assert "Holm" in report


def test_aa_comparisons_on_independent_deals_rarely_differ() -> None:
    """The calibration in small (benchmarks/lab_calibration.py runs it large): random bots,
    nothing differs between the sides, so the share of *differs* verdicts should be near the
    stated 5%, and a card rarely survives Holm's correction."""
    config = sakura_config(4, None, None, None)
    game = SakuraGame.from_config(config)
    runs, n = 12, 30
    setups = []
    for run in range(runs):
        for side in range(2):
            first = (2 * run + side) * n
            setups += [
                GameSetup(
                    first + s.index, first + s.deal, s.game, s.config_json, s.seats, s.seed, s.bot_seeds
                )
                for s in balance_setups(config, ["random"], n, derive_seed(7, run, side), 4)
            ]
    results = run_games(setups, jobs=1, collector=SakuraCollector)
    verdicts = surviving = 0
    figures = 0
    for run in range(runs):
        a, b = results[2 * run * n : (2 * run + 1) * n], results[(2 * run + 1) * n : (2 * run + 2) * n]
        rows = compare_figures(a, b, game, game)
        assert {r.design for r in rows} == {INDEPENDENT}
        verdicts += sum(r.verdict == DIFFERS for r in rows)
        figures += len(rows)
        surviving += len(card_survivors(rows))
    assert 0.005 < verdicts / figures < 0.12
    assert surviving <= 1


def test_sides_must_share_every_deal_or_none() -> None:
    a = [result(d, 9, 0, [[1], [2]]) for d in range(4)]
    b = [result(d, 9, 0, [[1], [2]]) for d in range(2, 6)]
    with pytest.raises(ValueError, match="same deals"):
        compare_figures(a, b, GAME, GAME)


def test_until_decided_stops_when_the_headline_figures_are_decided(tmp_path: Path) -> None:
    """Every E-1 card made E+2: games get shorter at once, so with wide widths the first batch
    decides every headline figure; with a width nothing reaches, the cap stops the run."""
    a, b = tmp_path / "published.txt", tmp_path / "forward.txt"
    a.write_text(default_deck().text())
    b.write_text(default_deck().text().replace(" E-1 ", " E+2 "))
    common = ["compare", str(a), str(b), "-b", "random", "-j", "1", "-q", "--until-decided", "--batch", "20"]
    out = tmp_path / "decided"
    done = runner.invoke(
        app, [*common, "-n", "200", "--width", "300", "--width-mean", "10", "--out", str(out)]
    )
    assert done.exit_code == 0, done.output
    data = json.loads((out / "compare.json").read_text())
    figures = {f["figure"]: f for f in data["figures"]}
    assert data["deals"] == 20 and figures["rounds a game"]["interval"] == "confidence sequence"
    assert figures["sakura 1, 1. place: P(win)"]["interval"] == "fixed sample"
    assert "every headline figure decided after 20 deals" in (out / "compare.md").read_text()
    capped = tmp_path / "capped"
    done = runner.invoke(
        app, [*common, "-n", "40", "--width", "0.01", "--width-mean", "0.001", "--out", str(capped)]
    )
    assert done.exit_code == 0, done.output
    assert json.loads((capped / "compare.json").read_text())["deals"] == 40
    assert "the cap of 40 deals reached" in (capped / "compare.md").read_text()
