"""The hall's timers on the real uvloop event loop (the one uvicorn serves with), which wakes
``call_later`` callbacks up to a millisecond early: 200 idle tables on the Quick timer (40 of them
waiting for the next hand) each see their timer fire once, never before the deadline. How late they fire is for the benchmark
(``bench/deadlines.py``), not asserted here."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import uvloop

from dominohall.hall import ManualClock, Phase, SystemClock, TableState
from dominohall.hall.wiring import HallSettings, open_hall
from dominohall.store import Store

from .helpers import ANN, BOB, play_first, started_table, whose_turn

TABLES = 200
BETWEEN_HANDS = 40  # of them, waiting 10 s for the next hand; the others on a 12.5 s turn
HEADROOM = 5.0  # seconds from the hall's start to the first deadline


class ShiftedClock(SystemClock):
    """Real time, moved by a fixed offset."""

    def __init__(self, shift: float) -> None:
        super().__init__()
        self.shift = shift

    def now(self) -> float:
        return time.time() + self.shift


def deadline_of(state: TableState) -> float:
    """When the table's timer is due: the next hand's deal, or the turn's timeout."""
    deadline = (
        state.next_hand_deadline if state.phase is Phase.BETWEEN_HANDS else state.turn_deadline
    )
    assert deadline is not None
    return deadline


def test_200_idle_quick_tables_each_time_out_once_and_never_early(tmp_path):
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(idle_tables(tmp_path))


async def idle_tables(folder: Path) -> None:
    url = f"sqlite+aiosqlite:///{folder / 'hall.db'}"
    # The tables are made on a hand-driven clock, one per 5 ms of its time (those between hands
    # 2.5 s after the others, for their shorter wait), so that their timers all come due within
    # one second...
    made = ManualClock()
    start = made.now()
    idle = TABLES - BETWEEN_HANDS
    opened = await open_hall(
        HallSettings(url, clock=made, bot_delay=0, rng=random.Random(1), heartbeat=False)
    )
    hall = opened.hall
    tables = []
    # Each table's deadline as made, and its version then: a resumption after it moves the
    # deadline on by its downtime (read from the log at the end, the deadline being read before
    # the timer could fire: on a loaded machine loading the tables takes seconds).
    due: dict[str, float] = {}
    made_at: dict[str, int] = {}
    for n in range(TABLES):
        if n == idle:
            await made.advance(2.5 - idle * 0.005)
        table = await started_table(hall, [ANN, BOB], preset="block", target=200, timer="quick")
        if n >= idle:
            state = (await hall.room(table)).state
            while state.phase is Phase.PLAYING:
                await play_first(hall, table, await whose_turn(hall, table, [ANN, BOB]))
        tables.append(table)
        state = (await hall.room(table)).state
        due[table] = deadline_of(state)
        made_at[table] = state.version
        await made.advance(0.005)
    await opened.close()
    # ... and a hall carries on with them on real time (shifted), a few seconds before the first
    # is due (loading 200 tables takes a loaded machine more than a second).
    clock = ShiftedClock(start + 12.5 - HEADROOM - time.time())
    store = await Store.open(url)
    await store.set_meta("alive_at", repr(clock.now()))  # it was up until now: no downtime
    await store.close()
    opened = await open_hall(HallSettings(url, clock=clock, bot_delay=0, heartbeat=False))
    hall, store = opened.hall, opened.store
    try:
        assert min(due.values()) > clock.now()  # none due yet: each wakes from sleep
        states = {t: (await hall.room(t)).state for t in tables}

        def done() -> set[str]:
            """Tables whose timer fired: the turn timed out, or the next hand was dealt."""
            return {
                t
                for t, s in states.items()
                if s.seats[0].timeouts or s.seats[1].timeouts or len(s.game.hands) == 2
            }

        # Wait for every timer, or give up 20 s after the last deadline (they must have fired).
        while len(done()) < TABLES and clock.now() < max(due.values()) + 20.0:
            await asyncio.sleep(0.05)
    finally:
        await hall.stop()  # (the store stays open to be read)
    missed = TABLES - len(done())
    early, twice = [], []
    for table in tables:
        events = [(v, at, body) for v, at, body in await store.events(table) if v > made_at[table]]
        fired = {
            at
            for _v, at, body in events
            if body.get("by") == "timer" or body.get("hand") == 1 and body["kind"] == "dealt"
        }
        if len(fired) > 1:
            twice.append(table)
        # (the clock given back the hall's downtime: the deadline moved on as much)
        deadline = due[table] + sum(
            b["downtime"] for _v, _at, b in events if b["kind"] == "resumed"
        )
        early += [at - deadline for at in fired if at < deadline]
    await opened.close()
    assert missed == 0, f"{missed} of {TABLES} timers never fired"
    assert not twice, f"{len(twice)} tables' timers fired twice"
    assert not early, f"{len(early)} timers fired early, by up to {-min(early):.4f} s"
