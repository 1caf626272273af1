"""``sakura analyze --game sakura-cards``: the card game's balance report, and the collector's
facts checked against the engine's own account of the same games."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from sakura.cli.analyze import balance_setups
from sakura.cli.main import app
from sakura.engine import make_game
from sakura.records import GameRecord
from sakura.tournament.cards_balance import COMBINATIONS, LABELS, CardsCollector, cards_balance
from sakura.tournament.play import play_game

runner = CliRunner()


def test_the_collector_agrees_with_the_engine(tmp_path: Path) -> None:
    game = make_game("sakura-cards")
    setups = balance_setups(game.config_json(), ["greedy", "random"], 6, 11, 2, game="sakura-cards")
    results = [play_game(s, collector=CardsCollector, records=tmp_path) for s in setups]
    for result in results:
        record = GameRecord.loads((tmp_path / f"game-{result.index:06d}.json").read_text())
        stats = result.stats
        rounds = stats["rounds"]
        assert len(rounds) == 3
        assert [sum(sum(r["points"][seat]) for r in rounds) for seat in (0, 1)] == list(result.scores)
        assert [r["starter"] for r in rounds] == [stats["first"], 1 - stats["first"], stats["first"]]
        assert stats["first"] == record.initial["first"]
        actions = [m.action for m in record.moves]
        assert stats["gifts"] == sum(a.startswith("give ") for a in actions)
        assert sum(stats["discards"]) == sum(a.startswith("discard ") for a in actions)
        assert 0 <= stats["gifts_placed"] <= stats["gifts"]
        for r in rounds:
            for seat in (0, 1):
                for points, combination in zip(r["points"][seat], r["combinations"][seat], strict=True):
                    assert combination in COMBINATIONS
                    assert (points == 0) == (combination in ("none", "spoiled")) or points == 3
    summary = cards_balance(results)
    assert sum(summary.combinations.values()) == 6 * 3 * 2 * 3
    assert abs(sum(e.value for e in summary.seat_wins) - 1) < 1e-9
    assert summary.deals == 6 and all(e.clusters == 6 for e in summary.seat_wins)
    assert sorted(summary.totals) == sorted(s for r in results for s in r.scores)


def test_analyze_writes_the_card_games_report(tmp_path: Path) -> None:
    out = tmp_path / "report"
    result = runner.invoke(
        app, ["analyze", "--game", "sakura-cards", "-n", "10", "-j", "1", "-q", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    text = (out / "report.md").read_text()
    for png in ("seats.png", "totals.png", "combinations.png"):
        assert (out / png).stat().st_size > 1000 and f"({png})" in text
    seats = [float(x) for x in re.findall(r"\| seat \d \| ([\d.]+)% \|", text)]
    assert len(seats) == 2 and abs(sum(seats) - 100) < 0.2
    counts = [
        int(re.search(rf"\| {re.escape(LABELS[c])} \| (\d+) \|", text).group(1))  # type: ignore[union-attr]
        for c in COMBINATIONS
    ]
    assert sum(counts) == 10 * 3 * 2 * 3  # every area of every round of every game


def test_analyze_refuses_sakuras_options_for_the_card_game(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        ["analyze", "--game", "sakura-cards", "--variant", "court", "-p", "3", "-q", "--out", str(tmp_path)],
    )
    assert result.exit_code == 2 and "--variant" in result.output and "--players" in result.output
    result = runner.invoke(app, ["analyze", "--game", "chess", "-q", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "unknown game" in result.output
