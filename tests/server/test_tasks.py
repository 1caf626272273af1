"""Stopping background tasks for sure (``sakura.server.tasks.halt``): a cancellation lost on
the way (Python 3.11's ``wait_for``, CPython bpo-42130) must not leave a stop waiting for ever.
The loss is staged here the way it happens: the first cancel is consumed and the loop goes on."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import pytest

from sakura.server.tasks import halt, stacks


async def _loses_the_first_cancel(rounds: list[int]) -> None:
    """A keeper loop whose call swallowed a cancellation (as 3.11's wait_for can) and goes on."""
    lost = False
    while True:
        try:
            await asyncio.sleep(0.01)
        except asyncio.CancelledError:
            if lost:
                raise
            lost = True  # consumed: the loop carries on, as the lease renewer did
        rounds.append(1)


def test_a_task_that_lost_its_cancel_is_cancelled_again_and_stops() -> None:
    async def run() -> tuple[list[asyncio.Task[None]], asyncio.Task[None]]:
        rounds: list[int] = []
        task = asyncio.get_running_loop().create_task(_loses_the_first_cancel(rounds))
        while not rounds:
            await asyncio.sleep(0)
        # one cancel and an await, as the stops did before, would wait for ever here
        task.cancel()
        _, pending = await asyncio.wait({task}, timeout=0.2)
        assert pending == {task} and task.cancelling()  # carried on, cancelling for good
        return await halt([task, None], seconds=30), task

    left, task = asyncio.run(run())
    assert left == [] and task.cancelled()


def test_a_task_that_will_not_stop_is_given_up_after_the_bound_and_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    released = asyncio.Event()

    async def stubborn() -> None:
        while not released.is_set():  # deaf to cancellation until released (the test's end)
            with contextlib.suppress(asyncio.CancelledError):
                await released.wait()

    async def run() -> list[asyncio.Task[None]]:
        task = asyncio.get_running_loop().create_task(stubborn(), name="stubborn")
        await asyncio.sleep(0)
        left = await halt([task], seconds=0.5)
        where = stacks(asyncio.get_running_loop())
        assert "stubborn (cancelling)" in where and "test_tasks.py" in where
        released.set()
        await task
        return left

    with caplog.at_level(logging.ERROR, logger="sakura.server"):
        left = asyncio.run(run())
    assert [t.get_name() for t in left] == ["stubborn"]
    assert "task stubborn still running" in caplog.text


def test_an_error_on_the_way_out_is_logged_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    async def fails_when_stopped() -> None:
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            raise RuntimeError("the connection was already closed") from None

    async def run() -> list[asyncio.Task[None]]:
        task = asyncio.get_running_loop().create_task(fails_when_stopped(), name="closer")
        await asyncio.sleep(0)
        return await halt([task], seconds=5)

    with caplog.at_level(logging.WARNING, logger="sakura.server"):
        assert asyncio.run(run()) == []
    assert "task closer ended with RuntimeError" in caplog.text
