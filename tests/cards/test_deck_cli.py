"""``--deck`` with the card game: a card data file (like the engine's ``data/cards.txt``) for
``analyze``, ``tournament``, ``simulate`` and ``compare``; a broken file is refused with its
name and line, and nothing is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sakura.cli.main import app
from sakura.engine.games.cards.deck import default_cards
from sakura.tournament.compare import DIFFERS, SAME

runner = CliRunner()


def write(tmp_path: Path, name: str, *changes: tuple[str, str]) -> Path:
    text = default_cards().text()
    for old, new in changes:
        text = text.replace(old, new)
    path = tmp_path / name
    path.write_text(text)
    return path


RICHER = ("three colours: 10", "three colours: 20")


def test_analyze_reports_on_the_designers_cards(tmp_path: Path) -> None:
    deck = write(tmp_path, "mine.txt", RICHER)
    out = tmp_path / "report"
    done = runner.invoke(
        app,
        [
            "analyze",
            "--game",
            "sakura-cards",
            "--deck",
            str(deck),
            "-n",
            "8",
            "-j",
            "1",
            "-q",
            "--out",
            str(out),
        ],
    )
    assert done.exit_code == 0, done.output
    report = (out / "report.md").read_text()
    assert "cards: " + str(deck) in report
    assert "| three colours (20) |" in report and "| three colours, in a row (25) |" in report
    published = runner.invoke(
        app,
        [
            "analyze",
            "--game",
            "sakura-cards",
            "-n",
            "8",
            "-j",
            "1",
            "-q",
            "--out",
            str(tmp_path / "published"),
        ],
    )
    assert "| three colours (10) |" in (tmp_path / "published" / "report.md").read_text(), published.output


def test_a_tournament_plays_the_designers_cards(tmp_path: Path) -> None:
    deck = write(tmp_path, "mine.txt", RICHER)
    done = runner.invoke(
        app,
        [
            "tournament",
            "greedy",
            "random",
            "--game",
            "sakura-cards",
            "--deck",
            str(deck),
            "-n",
            "4",
            "-j",
            "1",
            "-q",
            "--out",
            str(tmp_path / "t"),
        ],
    )
    assert done.exit_code == 0, done.output
    data = json.loads((tmp_path / "t" / "tournament.json").read_text())
    assert "three colours: 20" in data["config"]["deck"]


def test_simulate_plays_the_designers_cards(tmp_path: Path) -> None:
    deck = write(tmp_path, "mine.txt", RICHER)
    command = ["simulate", "--game", "sakura-cards", "-n", "20", "--seed", "3", "-q"]
    mine = runner.invoke(app, [*command, "--deck", str(deck), "--records", str(tmp_path / "r")])
    assert mine.exit_code == 0, mine.output
    assert "mine.txt" in mine.output and mine.output != runner.invoke(app, command).output
    record = json.loads((tmp_path / "r" / "game-3.json").read_text())
    assert "three colours: 20" in record["header"]["config"]["deck"]
    replayed = runner.invoke(app, ["replay", str(tmp_path / "r" / "game-3.json")])
    assert replayed.exit_code == 0 and "identical to the record" in replayed.output


def test_compare_of_the_cards_with_themselves_finds_no_difference(tmp_path: Path) -> None:
    deck = write(tmp_path, "cards.txt")
    out = tmp_path / "same"
    done = runner.invoke(
        app, ["compare", str(deck), str(deck), "-n", "12", "-j", "1", "-q", "--out", str(out)]
    )
    assert done.exit_code == 0, done.output
    figures = json.loads((out / "compare.json").read_text())["figures"]
    sections = {f["section"] for f in figures}
    assert {"seats", "wins", "points", "combinations", "play", "gifts"} <= sections
    assert {f["verdict"] for f in figures} == {SAME} and all(f["difference"]["value"] == 0 for f in figures)
    report = (out / "compare.md").read_text()
    assert report.startswith("# Sakura card game: cards.txt against cards.txt")
    assert "Nothing changed detectably" in report and (out / "differences.png").read_bytes()[:4] == b"\x89PNG"


def test_compare_finds_what_richer_scores_change(tmp_path: Path) -> None:
    a, b = write(tmp_path, "published.txt"), write(tmp_path, "richer.txt", RICHER)
    out = tmp_path / "richer"
    done = runner.invoke(app, ["compare", str(a), str(b), "-n", "30", "-j", "2", "-q", "--out", str(out)])
    assert done.exit_code == 0, done.output
    figures = {f["figure"]: f for f in json.loads((out / "compare.json").read_text())["figures"]}
    total = figures["a player's game total"]
    assert total["verdict"] == DIFFERS and total["difference"]["low"] > 0
    assert "a player's game total" in done.output


@pytest.mark.parametrize(
    "command",
    [
        ["analyze", "--game", "sakura-cards", "--deck"],
        ["tournament", "greedy", "random", "--game", "sakura-cards", "--deck"],
        ["simulate", "--game", "sakura-cards", "--records", "{out}", "--deck"],
        ["compare", "{good}"],
    ],
)
def test_a_broken_card_file_is_refused_with_its_line(tmp_path: Path, command: list[str]) -> None:
    bad = write(tmp_path, "mine.txt", ("copies: 2", "copies: 2\ncopies: 3"))
    good = write(tmp_path, "good.txt")
    out = tmp_path / "out"
    args = [word.format(out=out, good=good) for word in command] + [str(bad)]
    if command[0] != "simulate":
        args += ["--out", str(out)]
    done = runner.invoke(app, [*args, "-q"])
    assert done.exit_code == 2
    assert "mine.txt line 4: 'copies: 3': 'copies' appears twice (first on line 3)" in done.output
    assert not out.exists()


def test_sakuras_options_are_still_refused_for_the_card_game(tmp_path: Path) -> None:
    deck = write(tmp_path, "cards.txt")
    done = runner.invoke(
        app, ["compare", str(deck), str(deck), "--variant", "court", "-q", "--out", str(tmp_path / "o")]
    )
    assert done.exit_code == 2 and "Sakura's" in done.output
    done = runner.invoke(
        app, ["compare", str(deck), str(deck), "-p", "4", "-q", "--out", str(tmp_path / "o")]
    )
    assert done.exit_code == 2 and "two players" in done.output
    done = runner.invoke(
        app, ["analyze", "--game", "sakura-cards", "--garden", str(deck), "-q", "--out", str(tmp_path / "o")]
    )
    assert done.exit_code == 2 and "--garden" in done.output
