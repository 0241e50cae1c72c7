"""The deadline scheduler: on the hand-driven clock with wake-ups early and late, then on the real
uvloop loop. Each deadline fires exactly once, never before its time, and at once when woken late;
setting a key again replaces its deadline, cancelling forgets it."""

from __future__ import annotations

import asyncio
import random
from collections import Counter

import pytest
import uvloop

from dominohall.hall import ManualClock, SystemClock
from dominohall.hall.deadlines import DeadlineKey, Due, LoopScheduler

from .helpers import early_once, jittered

pytestmark = pytest.mark.anyio

TURN = DeadlineKey("t1", Due.TURN)


class Fired:
    """A handler that notes which key fired when."""

    def __init__(self, clock: ManualClock | SystemClock) -> None:
        self.clock = clock
        self.at: list[tuple[DeadlineKey, float]] = []

    async def __call__(self, key: DeadlineKey) -> None:
        self.at.append((key, self.clock.now()))


def scheduler(clock: ManualClock) -> tuple[LoopScheduler, Fired]:
    fired = Fired(clock)
    return LoopScheduler(clock, fired), fired


async def test_a_wake_up_before_its_time_waits_for_the_time():
    clock = ManualClock(wake=early_once(0.001))
    deadlines, fired = scheduler(clock)
    start = clock.now()
    deadlines.set(TURN, start + 10.0)
    await clock.advance(9.9995)  # woken at 9.999 s
    assert fired.at == [] and deadlines.early_wakeups == 1
    assert deadlines.when(TURN) == start + 10.0
    await clock.advance(0.001)
    assert fired.at == [(TURN, start + 10.0)]
    assert deadlines.when(TURN) is None


async def test_a_late_wake_up_fires_at_once():
    clock = ManualClock(wake=lambda when: when + 0.5)
    deadlines, fired = scheduler(clock)
    start = clock.now()
    deadlines.set(TURN, start + 10.0)
    await clock.advance(10.4)
    assert fired.at == []
    await clock.advance(5.0)
    assert fired.at == [(TURN, start + 10.5)]


async def test_a_deadline_already_past_fires_at_once_and_once():
    clock = ManualClock()
    deadlines, fired = scheduler(clock)
    start = clock.now()
    deadlines.set(TURN, start - 5.0)
    await clock.advance(0.0)
    await clock.advance(60.0)
    assert fired.at == [(TURN, start)]


async def test_setting_a_key_again_replaces_its_deadline():
    clock = ManualClock()
    deadlines, fired = scheduler(clock)
    start = clock.now()
    deadlines.set(TURN, start + 10.0)
    deadlines.set(TURN, start + 20.0)  # later
    grace = DeadlineKey("t1", Due.GRACE, 1)
    deadlines.set(grace, start + 60.0)
    deadlines.set(grace, start + 5.0)  # sooner
    await clock.advance(100.0)
    assert fired.at == [(grace, start + 5.0), (TURN, start + 20.0)]


async def test_cancelling_forgets_a_deadline_and_its_table_s():
    clock = ManualClock()
    deadlines, fired = scheduler(clock)
    start = clock.now()
    other = DeadlineKey("t2", Due.TURN)
    deadlines.set(TURN, start + 1.0)
    deadlines.set(DeadlineKey("t1", Due.GRACE, 0), start + 2.0)
    deadlines.set(other, start + 3.0)
    deadlines.set(DeadlineKey("t2", Due.GRACE, 1), start + 4.0)
    deadlines.cancel_table("t1")
    deadlines.cancel(DeadlineKey("t2", Due.GRACE, 1))
    deadlines.cancel(DeadlineKey("t3", Due.NEXT_HAND))  # none: nothing happens
    assert deadlines.when(TURN) is None and deadlines.when(other) == start + 3.0
    await clock.advance(10.0)
    assert fired.at == [(other, start + 3.0)]


async def test_a_handler_may_set_its_own_key_again():
    clock = ManualClock(wake=early_once(0.001))
    fired: list[float] = []

    async def each_turn(key: DeadlineKey) -> None:
        fired.append(clock.now())
        if len(fired) < 3:
            deadlines.set(key, clock.now() + 12.5)

    deadlines = LoopScheduler(clock, each_turn)
    start = clock.now()
    deadlines.set(TURN, start + 12.5)
    await clock.advance(100.0)
    assert fired == [start + 12.5, start + 25.0, start + 37.5]


@pytest.mark.parametrize("seed", range(5))
async def test_many_deadlines_set_replaced_and_cancelled_each_fire_once_in_time(seed):
    """Against a model: the last time each key was set to, unless it was cancelled after."""
    rng = random.Random(seed)
    clock = ManualClock(wake=jittered(seed, 0.001))
    deadlines, fired = scheduler(clock)
    keys = [
        DeadlineKey(f"t{t}", due, seat if due is Due.GRACE else None)
        for t in range(40)
        for due in Due
        for seat in range(2)
        if due is Due.GRACE or seat == 0
    ]
    expected: dict[DeadlineKey, float] = {}
    for _ in range(60):
        for _ in range(30):
            key = rng.choice(keys)
            if rng.random() < 0.2:
                deadlines.cancel(key)
                expected.pop(key, None)
            else:
                when = clock.now() + rng.choice([rng.uniform(-1.0, 5.0), 12.5, 20.0])
                deadlines.set(key, when)
                expected[key] = when
        await clock.advance(rng.uniform(0.0, 3.0))
        # What has fired is what was due, once: nothing early, nothing missed.
        for key, at in fired.at:
            assert at >= expected.pop(key), f"{key} fired early"
        assert all(when > clock.now() - 0.001 for when in expected.values()), "a deadline missed"
        fired.at.clear()
    await clock.advance(30.0)
    assert Counter(key for key, _ in fired.at) == Counter(expected.keys())
    assert all(at >= expected[key] for key, at in fired.at)
    assert deadlines.early_wakeups > 0


def test_on_uvloop_200_deadlines_each_fire_once_never_early():
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(two_hundred_deadlines())


async def two_hundred_deadlines() -> None:
    clock = SystemClock()
    fired = Fired(clock)
    deadlines = LoopScheduler(clock, fired)
    rng = random.Random(1)
    start = clock.now()
    expected: dict[DeadlineKey, float] = {}
    for table in range(200):
        key = DeadlineKey(f"t{table}", Due.TURN)
        deadlines.set(key, start + rng.uniform(0.1, 1.2))
        if table % 10 == 1:
            deadlines.cancel(key)
            continue
        if table % 10 == 2:  # replaced, sooner or later
            deadlines.set(key, start + rng.uniform(0.1, 1.2))
        expected[key] = deadlines.when(key)  # type: ignore[assignment]
    # Wait for them all, or give up 5 s after the last (they must have fired by then).
    give_up = max(expected.values()) + 5.0
    while len(fired.at) < len(expected) and clock.now() < give_up:
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.05)  # anything firing twice would have done so by now
    deadlines.close()
    times = Counter(key for key, _ in fired.at)
    assert set(times) == set(expected), f"{len(set(expected) - set(times))} never fired"
    assert max(times.values()) == 1, "a deadline fired twice"
    early = [at - expected[key] for key, at in fired.at if at < expected[key]]
    assert not early, f"{len(early)} fired early, by up to {-min(early):.4f} s"


async def test_paused_nothing_fires_and_a_shift_moves_every_deadline_later():
    """An outage (``outage.py``): what falls due while paused is held, still set; shifted by the
    outage's length, then let go, each fires once at its new time (one held past it at once)."""
    clock = ManualClock()
    deadlines, fired = scheduler(clock)
    start = clock.now()
    grace = DeadlineKey("t1", Due.GRACE, 1)
    deadlines.set(TURN, start + 10.0)
    deadlines.set(grace, start + 100.0)
    deadlines.pause()
    await clock.advance(50.0)  # the turn's time passes: held
    assert fired.at == [] and deadlines.when(TURN) == start + 10.0
    deadlines.shift(50.0)
    assert deadlines.when(TURN) == start + 60.0 and deadlines.when(grace) == start + 150.0
    deadlines.unpause()
    await clock.advance(10.0)
    assert fired.at == [(TURN, start + 60.0)]
    await clock.advance(100.0)
    assert fired.at == [(TURN, start + 60.0), (grace, start + 150.0)]


async def test_a_deadline_held_while_paused_fires_at_once_when_let_go():
    clock = ManualClock()
    deadlines, fired = scheduler(clock)
    deadlines.set(TURN, clock.now() + 1.0)
    deadlines.pause()
    await clock.advance(5.0)
    assert fired.at == []
    deadlines.unpause()
    await clock.advance(0.0)
    assert fired.at == [(TURN, clock.now())]
