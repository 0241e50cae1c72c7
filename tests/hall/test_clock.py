"""The hall's time: the hand-driven clock runs what falls due, in order, at its time; the real
clock runs a coroutine when due and logs one that fails."""

from __future__ import annotations

import asyncio
import logging

import pytest

from dominohall.hall.clock import ManualClock, SystemClock

pytestmark = pytest.mark.anyio


async def test_advance_runs_what_falls_due_in_order_each_at_its_own_time():
    clock = ManualClock(start=1000.0)
    ran: list[tuple[str, float]] = []

    def at(name: str):
        async def callback() -> None:
            ran.append((name, clock.now()))

        return callback

    clock.call_at(1030.0, at("late"))
    clock.call_at(1010.0, at("early"))
    clock.call_at(1010.0, at("early, set second"))
    clock.call_at(1100.0, at("not yet"))
    await clock.advance(30)
    assert ran == [("early", 1010.0), ("early, set second", 1010.0), ("late", 1030.0)]
    assert clock.now() == 1030.0
    await clock.advance(69.5)
    assert len(ran) == 3
    await clock.advance(0.5)
    assert ran[-1] == ("not yet", 1100.0)


async def test_a_cancelled_timer_never_runs_and_one_set_while_running_runs_when_due():
    clock = ManualClock(start=0.0)
    ran: list[float] = []

    async def record() -> None:
        ran.append(clock.now())

    async def set_another() -> None:
        clock.call_at(clock.now() + 5, record)

    clock.call_at(10.0, record).cancel()
    clock.call_at(1.0, set_another)
    await clock.advance(20)
    assert ran == [6.0]


async def test_a_timer_set_in_the_past_runs_at_once_without_moving_time_back():
    clock = ManualClock(start=50.0)
    ran: list[float] = []

    async def record() -> None:
        ran.append(clock.now())

    clock.call_at(10.0, record)
    await clock.advance(0)
    assert ran == [50.0]


async def test_wake_makes_a_timer_run_early_or_late():
    early = ManualClock(start=0.0, wake=lambda when: when - 0.001)
    late = ManualClock(start=0.0, wake=lambda when: when + 2)
    ran: list[str] = []

    async def record_early() -> None:
        ran.append("early")

    async def record_late() -> None:
        ran.append("late")

    early.call_at(10.0, record_early)
    late.call_at(10.0, record_late)
    await early.advance(9.9995)
    await late.advance(11)
    assert ran == ["early"]
    await late.advance(1)
    assert ran == ["early", "late"]


async def test_the_real_clock_runs_a_due_coroutine_and_logs_one_that_fails(caplog):
    clock = SystemClock()
    done = asyncio.Event()

    async def fail() -> None:
        raise RuntimeError("boom")

    async def finish() -> None:
        done.set()

    with caplog.at_level(logging.ERROR, logger="dominohall.hall"):
        clock.call_at(clock.now() - 1, fail)
        clock.call_at(clock.now() - 1, finish)
        await asyncio.wait_for(done.wait(), timeout=10)
        for _ in range(3):
            await asyncio.sleep(0)  # the failed task's done callback
    assert [r.message for r in caplog.records] == ["a timer failed"]
    assert isinstance(caplog.records[0].exc_info[1], RuntimeError)
