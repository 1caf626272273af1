"""Progress of a long run of games, on standard error, terminal or not.

On a terminal it is a Rich bar (elapsed time and ETA). Piped through ``tee`` or written to a
log, a bar shows nothing until the end, so there a plain line is printed every few seconds
(games done, rate, ETA) and once at the end. ``quiet`` silences both.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from types import TracebackType
from typing import TextIO

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


class GameProgress:
    """``with GameProgress("2000 games", 2000) as p: ... p.advance()``."""

    def __init__(
        self,
        label: str,
        total: int,
        *,
        quiet: bool = False,
        stream: TextIO | None = None,
        every: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
        terminal: bool | None = None,
    ) -> None:
        self.label, self.total, self.quiet, self.every, self.clock = label, total, quiet, every, clock
        self.stream = stream if stream is not None else sys.stderr
        self.terminal = self.stream.isatty() if terminal is None else terminal
        self.done = 0
        self._bar: Progress | None = None
        self._task: TaskID | None = None
        self._start = self._last = 0.0

    def __enter__(self) -> GameProgress:
        self._start = self._last = self.clock()
        if not self.quiet and self.terminal:
            console = Console(file=self.stream, soft_wrap=True)
            self._bar = Progress(
                TextColumn(self.label),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TextColumn("eta"),
                TimeRemainingColumn(),
                console=console,
                transient=True,
            )
            self._bar.__enter__()
            self._task = self._bar.add_task("games", total=self.total)
        return self

    def advance(self, n: int = 1) -> None:
        self.done += n
        if self._bar is not None and self._task is not None:
            self._bar.advance(self._task, n)
        elif not self.quiet and not self.terminal:
            now = self.clock()
            if now - self._last >= self.every:
                self._last = now
                self._line(now)

    def line(self) -> str:
        """``120/2000 games (6%), 38.2 games/s, eta 49 s``."""
        return self._text(self.clock())

    def _text(self, now: float) -> str:
        elapsed = max(1e-9, now - self._start)
        rate = self.done / elapsed
        left = (self.total - self.done) / rate if rate > 0 else float("inf")
        share = self.done / self.total if self.total else 1.0
        eta = f"eta {left:.0f} s" if self.done < self.total else f"done in {elapsed:.0f} s"
        return f"{self.label}: {self.done}/{self.total} games ({share:.0%}), {rate:.1f} games/s, {eta}"

    def _line(self, now: float) -> None:
        print(self._text(now), file=self.stream, flush=True)

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._bar is not None:
            self._bar.__exit__(kind, exc, tb)
        elif not self.quiet and not self.terminal and kind is None:
            self._line(self.clock())
