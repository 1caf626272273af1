"""``--ray``: a tournament and an analysis on a local Ray cluster of 2 CPUs give the same files as
``--jobs 1``, byte for byte apart from the timings (skipped where Ray is not installed)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sakura.cli.main import app

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'sakura[cluster]')")

runner = CliRunner()


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    """A Ray head of 2 CPUs in this test process (stopped at the end; nobody else's)."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        yield
    finally:
        ray.shutdown()


def _without_timings(data: dict[str, Any]) -> dict[str, Any]:
    data = dict(data, seconds=None)
    data["standings"] = [dict(s, think_ms=None) for s in data["standings"]]
    data["results"] = [dict(r, think_seconds=None) for r in data["results"]]
    return data


def _undated(record: str) -> str:
    return re.sub(r'"date": "[^"]*"', '"date": ""', record, count=1)


def test_a_tournament_on_ray_gives_the_json_of_one_job(tmp_path: Path, cluster: None) -> None:
    args = ["tournament", "mcts:8", "greedy", "random", "-p", "3", "-n", "12", "--seed", "7", "-q"]
    one = runner.invoke(
        app, [*args, "-j", "1", "--out", str(tmp_path / "one"), "--records", str(tmp_path / "one-records")]
    )
    assert one.exit_code == 0, one.output
    on_ray = runner.invoke(
        app, [*args, "--ray", "--out", str(tmp_path / "ray"), "--records", str(tmp_path / "ray-records")]
    )
    assert on_ray.exit_code == 0, on_ray.output
    a = json.loads((tmp_path / "one" / "tournament.json").read_text())
    b = json.loads((tmp_path / "ray" / "tournament.json").read_text())
    assert a["games"] == b["games"] == 12
    assert json.dumps(_without_timings(a), indent=1) == json.dumps(_without_timings(b), indent=1)
    mine = sorted(p.name for p in (tmp_path / "one-records").iterdir())
    assert mine == sorted(p.name for p in (tmp_path / "ray-records").iterdir()) and len(mine) == 12
    for name in mine:  # the records the driver wrote from the workers' texts, dated when played
        here, there = ((tmp_path / folder / name).read_text() for folder in ("one-records", "ray-records"))
        assert _undated(here) == _undated(there)


@pytest.mark.parametrize("game", ["sakura", "sakura-cards"])
def test_an_analysis_on_ray_gives_the_report_of_one_job(tmp_path: Path, cluster: None, game: str) -> None:
    args = ["analyze", "--game", game, "-n", "20", "-b", "greedy", "-b", "random", "--seed", "3", "-q"]
    one = runner.invoke(app, [*args, "-j", "1", "--out", str(tmp_path / "one")])
    on_ray = runner.invoke(app, [*args, "--ray", "--out", str(tmp_path / "ray")])
    assert one.exit_code == on_ray.exit_code == 0, one.output + on_ray.output
    timing = re.compile(r"; \d+ s\b")  # the notes' elapsed seconds

    def report(folder: str) -> str:
        return timing.sub("; N s", (tmp_path / folder / "report.md").read_text())

    assert report("one") == report("ray") and "report" in on_ray.output
