"""Play a list of games over worker processes and give the results back in schedule order.

Results do not depend on the number of processes: each game carries its own seeds, and the
results are sorted by their place in the schedule before anything is summed up. (Bots with a
time limit think as far as the machine allows, so only iteration-limited bots are fully
reproducible.)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

from sakura.tournament.play import CollectorFactory, GameResult, GameSetup, play_game

Progress = Callable[[GameResult], None]


@dataclass(frozen=True, slots=True)
class RayTarget:
    """``--ray``: the games go to the Ray cluster at ``address`` (``None``: the one Ray finds,
    or a local one it starts; ``auto``: the one this machine belongs to; ``ray://host:10001``)."""

    address: str | None = None


def default_jobs() -> int:
    return os.cpu_count() or 1


def _play_batch(
    setups: Sequence[GameSetup], records: Path | None, collector: CollectorFactory | None
) -> list[GameResult]:
    return [play_game(s, records=records, collector=collector) for s in setups]


def run_games(
    setups: Sequence[GameSetup],
    *,
    jobs: int | None = None,
    records: Path | None = None,
    collector: CollectorFactory | None = None,
    on_result: Progress | None = None,
    batch: int = 0,
    ray: RayTarget | None = None,
) -> list[GameResult]:
    """Play every setup; ``jobs`` processes (all cores by default; 1 plays in this process).
    ``on_result`` is called as each game ends (for a progress bar), in completion order; the
    returned list is in schedule order. ``ray``: on a Ray cluster instead (:mod:`.on_ray`)."""
    if ray is not None:
        from sakura.tournament.on_ray import run_games_on_ray

        return run_games_on_ray(
            setups,
            address=ray.address,
            records=records,
            collector=collector,
            on_result=on_result,
            batch=batch,
        )
    jobs = jobs or default_jobs()
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    results: list[GameResult] = []
    if jobs <= 1 or len(setups) <= 1:
        for setup in setups:
            result = play_game(setup, records=records, collector=collector)
            results.append(result)
            if on_result is not None:
                on_result(result)
        return results
    size = batch or max(1, min(8, len(setups) // (jobs * 8)))
    chunks = [setups[i : i + size] for i in range(0, len(setups), size)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        pending: set[Future[list[GameResult]]] = set()
        queue: Iterator[Sequence[GameSetup]] = iter(chunks)
        for chunk in islice(queue, jobs * 2):
            pending.add(pool.submit(_play_batch, chunk, records, collector))
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                for result in future.result():
                    results.append(result)
                    if on_result is not None:
                        on_result(result)
                nxt = next(queue, None)
                if nxt is not None:
                    pending.add(pool.submit(_play_batch, nxt, records, collector))
    results.sort(key=lambda r: r.index)
    return results
