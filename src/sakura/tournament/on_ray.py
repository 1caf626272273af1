"""Play a list of games on a Ray cluster (``--ray``), as :func:`~sakura.tournament.runner.run_games`
does on the local process pool, with the same results.

A research group that already runs Ray sends a tournament to its cluster instead of one
machine's cores. Games travel in batches (one Ray task per batch: a task costs about a
millisecond, a greedy game about as much), at most two batches per CPU of the cluster are in
flight at a time, and each result is handed to ``on_result`` as its batch comes back, so the
progress bar moves as it does today. Every game carries its own seeds and the results are put
back in schedule order, so the JSON is the same as with ``--jobs 1``, byte for byte apart from
the timings. A game's record is written by the process that asked (a worker on another machine
has no access to its folder): the worker sends the record's text back with the result.

Ray is an extra (``pip install 'sakura[cluster]'``); without it :class:`RayMissingError` says how to
get it. The workers import ``sakura`` as the driver does: on a cluster of several machines,
install the same version on each node (docs/deploy.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import islice
from pathlib import Path
from typing import Any

from sakura.tournament.play import CollectorFactory, GameResult, GameSetup, play_game_and_record, record_name
from sakura.tournament.runner import RayTarget

INSTALL = "Ray is not installed: pip install 'sakura[cluster]' (or pip install ray)"


class RayMissingError(RuntimeError):
    """``--ray`` without Ray installed."""


def _play_batch(
    setups: Sequence[GameSetup], record: bool, collector: CollectorFactory | None
) -> list[tuple[GameResult, str | None]]:
    """A Ray task's body: a batch of games, each with its record's text when asked for."""
    return [play_game_and_record(s, record=record, collector=collector) for s in setups]


def target(flag: bool, address: str | None) -> RayTarget | None:
    """The CLI's ``--ray`` / ``--ray-address``: where to play, or None for the local pool;
    :class:`RayMissingError` at once (before any game) when Ray is not installed."""
    if not flag and address is None:
        return None
    _ray()
    return RayTarget(address)


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RayMissingError(INSTALL) from None
    return ray


def connect(address: str | None) -> bool:
    """Join the cluster at ``address`` (``auto``: the one this machine is part of; ``None``: a
    local one started for this run). True when this call started Ray (and so should stop it)."""
    ray = _ray()
    if ray.is_initialized():
        return False
    ray.init(address=address, include_dashboard=False, log_to_driver=False, configure_logging=False)
    return True


def run_games_on_ray(
    setups: Sequence[GameSetup],
    *,
    address: str | None = None,
    records: Path | None = None,
    collector: CollectorFactory | None = None,
    on_result: Callable[[GameResult], None] | None = None,
    batch: int = 0,
) -> list[GameResult]:
    """Play every setup on the Ray cluster at ``address`` (see :func:`connect`); ``on_result`` as
    each game comes back, in completion order; the returned list is in schedule order."""
    ray = _ray()
    started = connect(address)
    try:
        if records is not None:
            records.mkdir(parents=True, exist_ok=True)
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        size = batch or max(1, min(16, len(setups) // (cpus * 8)))
        chunks = [setups[i : i + size] for i in range(0, len(setups), size)]
        task = ray.remote(_play_batch)
        collector_ref = ray.put(collector)
        waiting = iter(chunks)
        record = records is not None
        pending = [task.remote(chunk, record, collector_ref) for chunk in islice(waiting, cpus * 2)]
        results: list[GameResult] = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for result, text in ray.get(done[0]):
                if records is not None and text is not None:
                    (records / record_name(result.index)).write_text(text, encoding="utf-8")
                results.append(result)
                if on_result is not None:
                    on_result(result)
            nxt = next(waiting, None)
            if nxt is not None:
                pending.append(task.remote(nxt, record, collector_ref))
        results.sort(key=lambda r: r.index)
        return results
    finally:
        if started:
            ray.shutdown()
