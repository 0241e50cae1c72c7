"""The hall's timers on the real uvloop event loop (the one uvicorn serves with), which wakes
``call_later`` callbacks up to a millisecond early: 200 idle tables on the Quick timer each
time out once, never before the deadline. How late they fire is for the benchmark
(``bench/deadlines.py``), not asserted here."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import uvloop

from dominohall.hall import Hall, ManualClock, SystemClock
from dominohall.store import Store

from .helpers import ANN, BOB, started_table

TABLES = 200


class ShiftedClock(SystemClock):
    """Real time, moved by a fixed offset."""

    def __init__(self, shift: float) -> None:
        super().__init__()
        self.shift = shift

    def now(self) -> float:
        return time.time() + self.shift


def test_200_idle_quick_tables_each_time_out_once_and_never_early(tmp_path):
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(idle_tables(tmp_path))


async def idle_tables(folder: Path) -> None:
    url = f"sqlite+aiosqlite:///{folder / 'hall.db'}"
    # The tables are made on a hand-driven clock, one per 5 ms of its time, so that their
    # 12.5 s turn timers come due over one second...
    made = ManualClock()
    start = made.now()
    store = await Store.open(url)
    hall = Hall(store, clock=made, bot_delay=0, rng=random.Random(1), heartbeat=False)
    await hall.start()
    tables = []
    for _ in range(TABLES):
        tables.append(await started_table(hall, [ANN, BOB], timer="quick"))
        await made.advance(0.005)
    await hall.stop()
    await store.close()
    # ... and the hall carries on with them on real time (shifted), 1.5 s before the first is due.
    clock = ShiftedClock(start + 11.0 - time.time())
    store = await Store.open(url)
    await store.set_meta("alive_at", repr(clock.now()))  # it was up until now: no downtime
    hall = Hall(store, clock=clock, bot_delay=0, heartbeat=False)
    await hall.start()
    try:
        states = {t: hall.rooms[t].state for t in tables}
        deadlines = {t: s.turn_since + s.options.turn_seconds for t, s in states.items()}
        assert min(deadlines.values()) > clock.now()  # none due yet: each wakes from sleep

        def timed_out() -> set[str]:
            return {t for t, s in states.items() if s.seats[0].timeouts or s.seats[1].timeouts}

        # Wait for every timer, or give up 5 s after the last deadline (they must have fired).
        while len(timed_out()) < TABLES and clock.now() < max(deadlines.values()) + 5.0:
            await asyncio.sleep(0.05)
    finally:
        await hall.stop()
    missed = TABLES - len(timed_out())
    early, twice = [], []
    for table in tables:
        commits = {at for _v, at, body in await store.events(table) if body.get("by") == "timer"}
        if len(commits) > 1:
            twice.append(table)
        early += [at - deadlines[table] for at in commits if at < deadlines[table]]
    await store.close()
    assert missed == 0, f"{missed} of {TABLES} turn timers never fired"
    assert not twice, f"{len(twice)} tables timed out twice"
    assert not early, f"{len(early)} timers fired early, by up to {-min(early):.4f} s"
