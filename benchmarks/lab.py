"""How fast is the designer's lab? Games a second of ``sakura analyze`` and ``sakura compare``.

Run: ``python benchmarks/lab.py [--games 400] [--jobs 2] [--players 4] [--bot greedy]``. Each
command runs as a person runs it (a subprocess of the ``sakura`` command, progress off), side by
side in one run; the time includes starting Python, the worker processes, the statistics and
the plots. ``compare`` plays ``--games`` deals on each side (twice the games); the last line
gives the time of a 2,000-deal comparison, measured with ``--full`` or else extrapolated from
the games a second measured here (the fixed start-up cost is measured apart and added once).
``--baseline SRC`` also times ``analyze`` from another checkout's ``src`` folder (e.g. one
unpacked with ``git archive``), side by side in the same run.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sakura.engine.games.sakura import default_deck


def run(args: list[str], src: str | None = None) -> float:
    """Seconds that ``sakura <args>`` takes (the package from ``src`` if given)."""
    env = dict(os.environ, PYTHONPATH=src) if src else None
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "sakura.cli.main", *args], check=True, capture_output=True, env=env)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bot", default="greedy")
    parser.add_argument("--full", action="store_true", help="also run a 2,000-deal comparison")
    parser.add_argument("--baseline", help="another checkout's src folder: time its analyze too")
    opts = parser.parse_args()
    common = ["-p", str(opts.players), "-b", opts.bot, "-j", str(opts.jobs), "-q"]
    print(
        f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores, load "
        f"{os.getloadavg()[0]:.1f} (other work on the machine slows every figure)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        a, b = folder / "a.txt", folder / "b.txt"
        a.write_text(default_deck().text())
        b.write_text(default_deck().text().replace(" E-1 ", " E+2 "))
        startup = run(["analyze", *common, "-n", "2", "--out", str(folder / "warm")])
        analyze = run(["analyze", *common, "-n", str(opts.games), "--out", str(folder / "analyze")])
        compare = run(
            ["compare", str(a), str(b), *common, "-n", str(opts.games), "--out", str(folder / "compare")]
        )
        print(f"start-up (analyze of 2 games): {startup:.1f} s")
        print(f"analyze, {opts.games} games: {analyze:.1f} s, {opts.games / analyze:.1f} games/s")
        if opts.baseline:
            before = run(
                ["analyze", *common, "-n", str(opts.games), "--out", str(folder / "before")], opts.baseline
            )
            print(
                f"analyze of {opts.baseline}, {opts.games} games: {before:.1f} s, "
                f"{opts.games / before:.1f} games/s (this checkout takes {analyze / before:.2f}x its time)"
            )
        print(
            f"compare, {opts.games} deals ({2 * opts.games} games): {compare:.1f} s, "
            f"{2 * opts.games / compare:.1f} games/s"
        )
        rate = 2 * opts.games / max(1e-9, compare - startup)
        print(f"compare of 2,000 deals (4,000 games), extrapolated: {startup + 4000 / rate:.0f} s")
        if opts.full:
            full = run(["compare", str(a), str(b), *common, "-n", "2000", "--out", str(folder / "full")])
            print(f"compare of 2,000 deals (4,000 games), measured: {full:.0f} s")


if __name__ == "__main__":
    main()
