"""Progress lines when standard error is not a terminal."""

from __future__ import annotations

import io

from sakura.tournament.progress import GameProgress


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_pipe_gets_a_line_every_few_seconds_and_one_at_the_end() -> None:
    out, clock = io.StringIO(), Clock()
    with GameProgress("run", 100, stream=out, every=5.0, clock=clock, terminal=False) as p:
        for _ in range(100):
            clock.now += 0.2  # 5 games a second
            p.advance()
    lines = out.getvalue().splitlines()
    assert len(lines) == 5  # at 5, 10, 15 s, then 20 s ... and the final line
    assert lines[0] == "run: 25/100 games (25%), 5.0 games/s, eta 15 s"
    assert lines[-1] == "run: 100/100 games (100%), 5.0 games/s, done in 20 s"


def test_quiet_prints_nothing() -> None:
    out, clock = io.StringIO(), Clock()
    with GameProgress("run", 10, stream=out, every=0.0, clock=clock, terminal=False, quiet=True) as p:
        for _ in range(10):
            clock.now += 1
            p.advance()
    assert out.getvalue() == "" and p.done == 10


def test_on_a_terminal_a_bar_and_no_lines() -> None:
    out, clock = io.StringIO(), Clock()
    with GameProgress("run", 4, stream=out, every=0.0, clock=clock, terminal=True) as p:
        for _ in range(4):
            clock.now += 1
            p.advance()
    assert p.done == 4 and "games/s" not in out.getvalue()
