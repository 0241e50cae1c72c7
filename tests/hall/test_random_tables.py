"""Tables driven at random (moves, timeouts, leaving, dropped connections, Next hand): whatever
happens, the log replays to the same table, and every finished game's record checks."""

from __future__ import annotations

import contextlib
import random

import pytest

from dominohall.hall import HallError, ManualClock, Phase, TableState
from dominohall.hall.views import state_for
from dominohall.rules.record import check_record

from .helpers import ANN, BOB, CID, idle, play_first, running_hall, started_table

pytestmark = pytest.mark.anyio

PRESETS = ["draw", "block", "all-fives", "five-up", "cross-fives-threes", "cross-draw"]


@pytest.mark.parametrize("seed", range(6))
async def test_a_table_driven_at_random_replays_from_its_log(database_url: str, seed):
    rng = random.Random(seed)
    clock = ManualClock()
    people = [ANN, BOB, CID][: rng.choice([2, 3])]
    bots = [rng.choice(["easy", "normal"])] if len(people) == 2 and rng.random() < 0.5 else []
    preset = PRESETS[seed % len(PRESETS)]
    async with running_hall(database_url, clock, seed=seed) as hall:
        table = await started_table(hall, people, bots=bots, preset=preset, timer="quick")
        room = await hall.room(table)
        state = room.state
        away: set[str] = set()
        for _ in range(400):
            if state.phase is Phase.FINISHED:
                break
            roll = rng.random()
            person = rng.choice(people)
            if roll < 0.04:
                await clock.advance(rng.choice([5.0, 13.0, 61.0]))  # timers, grace, next hand
            elif roll < 0.06 and person.id not in away:
                await hall.disconnect(room.id, state.seat_of(person.id))
                away.add(person.id)
            elif roll < 0.09 and person.id in away:
                await hall.connect(table, person)
                away.discard(person.id)
            elif roll < 0.092:  # rarely, so that most walks play a few hands first
                with (
                    pytest.raises(HallError)
                    if state.seat_of(person.id) is None
                    else contextlib.nullcontext()
                ):
                    await hall.leave(person, table)
            elif state.phase is Phase.BETWEEN_HANDS and state.seat_of(person.id) is not None:
                await hall.next_hand(person, table)
            elif state.turn is not None and state.seat_of(person.id) == state.turn:
                await play_first(hall, table, person)
            await idle(hall)
        events = await hall.store.events(table)
        replayed = TableState.replay(table, events)
        assert sum(1 for *_, body in events if body["kind"] == "move") >= 15  # the walk played
        assert replayed.version == state.version == len(events)
        for seat in [None, *range(len(state.seats))]:
            kw = {"player": None, "name": None, "connected": set(), "now": clock.now()}
            assert state_for(replayed, seat, **kw) == state_for(state, seat, **kw)
        record = state.record()
        assert check_record(record)["ok"], check_record(record)
        if state.phase is Phase.FINISHED:
            assert await hall.store.record(table) == record
            assert room.finish_stored, "the game's end was stored apart from its last events"
