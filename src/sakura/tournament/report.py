"""A tournament's results as files: JSON (everything), CSV (the standings table)."""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import sakura
from sakura.tournament import head_to_head
from sakura.tournament.play import GameResult
from sakura.tournament.ratings import Standing, lineup_win_rates, seat_estimates, standings
from sakura.tournament.schedule import TournamentPlan


def summary(
    plan: TournamentPlan, results: Sequence[GameResult], seconds: float | None = None
) -> dict[str, Any]:
    """The whole tournament as JSON-ready data: plan, standings, seats and every game."""
    table = standings(results)
    specs = list(dict.fromkeys(plan.specs))
    rounds = [r.rounds for r in results if r.rounds is not None]
    return {
        "format": "sakura-tournament/1",
        "engine_version": sakura.__version__,
        "game": plan.game,
        "config": plan.config,
        "players": plan.players,
        "mode": plan.mode,
        "specs": list(plan.specs),
        "seed": plan.seed,
        "games": len(results),
        "deals": len({r.deal for r in results}),
        "seconds": None if seconds is None else round(seconds, 1),
        "mean_rounds": round(sum(rounds) / len(rounds), 3) if rounds else None,
        "standings": [s.to_json() for s in table],
        "warning": plan.warning(),
        "intervals": "95%, clustered by deal (cluster-robust variance, Student t with deals - 1 df)",
        "seats": [
            {
                "seat": i + 1,  # seats are named from 1, as every table and message names them
                "win_rate": round(e.value, 4),
                "ci_low": round(e.low, 4),
                "ci_high": round(e.high, 4),
                "deals": e.clusters,
            }
            for i, e in enumerate(seat_estimates(results))
        ],
        "head_to_head": head_to_head.to_json(specs, head_to_head.head_to_head(results)),
        "lineups": [
            {"lineup": name, "games": games, "win_rates": {spec: e.to_json() for spec, e in rates.items()}}
            for name, games, rates in lineup_win_rates(results)
        ],
        "results": [r.to_json() for r in results],
    }


CSV_FIELDS = (
    "spec",
    "seat_games",
    "wins",
    "win_rate",
    "ci_low",
    "ci_high",
    "fair_share",
    "ratio",
    "ratio_low",
    "ratio_high",
    "mean_tokens",
    "mu",
    "sigma",
    "ordinal",
    "think_ms",
    "deals",
)


def write_csv(path: Path, table: Sequence[Standing]) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        writer.writeheader()
        for s in table:
            row = s.to_json()
            writer.writerow({k: row[k] for k in CSV_FIELDS})


def write_results(out: Path, data: dict[str, Any]) -> tuple[Path, Path]:
    """Write ``tournament.json``, ``standings.csv`` and ``head_to_head.csv`` into the folder ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    json_path = out / "tournament.json"
    json_path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    csv_path = out / "standings.csv"
    table = [Standing(**s) for s in data["standings"]]
    write_csv(csv_path, table)
    with (out / "head_to_head.csv").open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=head_to_head.CSV_FIELDS)
        writer.writeheader()
        writer.writerows(data.get("head_to_head", []))
    return json_path, csv_path
