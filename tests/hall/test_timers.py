"""The hall's timers on a hand-driven clock whose wake-ups come early or late (as uvloop's do):
each fires once, never before its time and never later than the wake-up; a restart, or three,
charges the time the hall was down to no one."""

from __future__ import annotations

import asyncio

import pytest

from dominohall.hall import Hall, ManualClock, Options, Phase, TableState
from dominohall.hall.event_view import shown, shown_all
from dominohall.hall.events import from_body
from dominohall.rules import Move
from dominohall.rules.record import check_record

from .helpers import (
    ANN,
    BOB,
    CID,
    DEE,
    early_once,
    jittered,
    play_first,
    running_hall,
    started_table,
    view,
    whose_turn,
)

pytestmark = pytest.mark.anyio


async def play_out_the_hand(hall: Hall, table: str, people: list) -> None:
    state = (await hall.room(table)).state
    while state.phase is Phase.PLAYING:
        await play_first(hall, table, await whose_turn(hall, table, people))


async def test_a_turn_timer_woken_early_fires_at_its_time(database_url: str):
    clock = ManualClock(wake=early_once(0.001))
    async with running_hall(database_url, clock) as hall:
        table = await started_table(hall, [ANN, BOB])
        state = (await hall.room(table)).state
        deadline = state.turn_since + 25.0
        version = state.version
        await clock.advance(24.9995)  # woken at 24.999 s: too early to play for anyone
        assert state.version == version
        await clock.advance(0.001)
        timed = [
            e for e in shown_all(state, state.tail) if e["kind"] == "move" and e["by"] == "timer"
        ]
        assert timed, "the turn timer never fired"
        events = await hall.store.events(table)
        assert deadline <= events[-1][1] < deadline + 0.001
        assert hall.timers.scheduler.early_wakeups == 1


async def test_the_next_hand_wait_woken_early_deals_at_its_time(database_url: str):
    clock = ManualClock(wake=early_once(0.001))
    async with running_hall(database_url, clock) as hall:
        table = await started_table(hall, [ANN, BOB], preset="block", target=200)
        state = (await hall.room(table)).state
        await play_out_the_hand(hall, table, [ANN, BOB])
        assert state.phase is Phase.BETWEEN_HANDS
        await clock.advance(19.9995)
        assert state.phase is Phase.BETWEEN_HANDS
        await clock.advance(0.001)
        assert state.phase is Phase.PLAYING, "the next hand was never dealt"
        assert len(state.game.hands) == 2


async def test_the_grace_period_woken_early_waits_its_full_60_s(database_url: str):
    clock = ManualClock(wake=early_once(0.001))
    async with running_hall(database_url, clock) as hall:
        table = await started_table(hall, [ANN, BOB], bots=["easy"], preset="block")
        room = await hall.room(table)
        seat = room.state.seat_of(ANN.id)
        await clock.advance(1.0)  # a moment no timer was set for yet
        await hall.disconnect(room.id, seat)
        await clock.advance(59.9995)
        assert room.state.seats[seat].out is None, "out before the 60 s were up"
        await clock.advance(0.001)
        assert room.state.seats[seat].out == "disconnected"


def lateness(state: TableState, now: float) -> float | None:
    """How far past its deadline the table's running clock is (None: no clock runs)."""
    if state.phase is Phase.BETWEEN_HANDS:
        return now - (state.next_hand_since + state.options.next_hand_seconds)
    turn = state.turn
    if turn is not None and state.seats[turn].is_person:
        return now - (state.turn_since + state.options.turn_seconds)
    return None


@pytest.mark.parametrize("seed", range(3))
async def test_with_wake_ups_early_and_late_no_clock_is_ever_left_overdue(database_url: str, seed):
    """People who let every other turn time out and never press Next hand, at four tables."""
    clock = ManualClock(wake=jittered(seed, 0.001))
    async with running_hall(database_url, clock, seed=seed) as hall:
        tables = [
            await started_table(hall, [ANN, BOB], preset="block", target=100, timer="quick"),
            await started_table(hall, [ANN, BOB, CID], preset="draw", target=100),
            await started_table(hall, [CID, DEE], bots=["normal"], preset="all-fives"),
            await started_table(hall, [ANN, BOB, CID, DEE], preset="partnership"),
        ]
        states = [(await hall.room(t)).state for t in tables]
        people = [ANN, BOB, CID, DEE]
        for _ in range(2400):  # 600 s in steps of 0.25 s
            await clock.advance(0.25)
            for state in states:
                late = lateness(state, clock.now())
                # A wake-up may come 1 ms late, and the last step may end just before it.
                assert late is None or late <= 0.002, (
                    f"table {state.id}'s clock is {late:.3f} s late"
                )
                turn = state.turn
                if turn is not None and state.seats[turn].is_person and state.seats[turn].timeouts:
                    mover = next(p for p in people if state.seat_of(p.id) == turn)
                    await play_first(hall, state.id, mover)
        timers = dealt_by_timer = 0
        for table in tables:
            replay = TableState(table)
            for _version, at, body in await hall.store.events(table):
                kind = body["kind"]
                if (kind == "move" and body["by"] == "timer") or body.get("reason") == "timeout":
                    timers += 1
                    assert at >= replay.turn_since + replay.options.turn_seconds, (
                        "a timer fired early"
                    )
                if kind == "dealt" and replay.phase is Phase.BETWEEN_HANDS:
                    dealt_by_timer += 1
                    wait = replay.options.next_hand_seconds
                    assert at >= replay.next_hand_since + wait, "a hand was dealt early"
                replay.apply(from_body(body), at)
        assert timers >= 20 and dealt_by_timer >= 3  # the walk did exercise the timers
        assert hall.timers.scheduler.early_wakeups > 0


async def test_three_restarts_within_one_turn_charge_the_downtime_to_no_one(database_url: str):
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        table = await started_table(hall, [ANN, BOB], preset="block")
        mover = await whose_turn(hall, table, [ANN, BOB])
        await clock.advance(5.0)
        assert (await view(hall, table, mover))["clock"]["left"] == pytest.approx(20.0)
    for life, downtime in enumerate([7.0, 3600.0, 13.5], start=1):
        clock.t += downtime  # the hall is down; each life opens the store afresh
        async with running_hall(database_url, clock) as hall:
            left = (await view(hall, table, mover))["clock"]["left"]
            assert left == pytest.approx(20.0 - 2.0 * (life - 1)), f"after restart {life}"
            await clock.advance(2.0)
    async with running_hall(database_url, clock) as hall:
        state = (await hall.room(table)).state
        version = state.version
        await clock.advance(13.9)
        assert state.version == version
        await clock.advance(0.2)
        assert state.version > version and shown(state, state.log[-1])["by"] == "timer"
        resumed = [e for e in shown_all(state, state.tail) if e["kind"] == "resumed"]
        assert [e["downtime"] for e in resumed] == pytest.approx([7.0, 3600.0, 13.5])


async def test_restarts_between_hands_keep_the_wait_for_the_next_hand(database_url: str):
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        table = await started_table(hall, [ANN, BOB], preset="block", target=200)
        await play_out_the_hand(hall, table, [ANN, BOB])
        await clock.advance(4.0)
    for downtime in [30.0, 90.0]:
        clock.t += downtime
        async with running_hall(database_url, clock) as hall:
            assert (await view(hall, table, ANN))["next_hand"]["left"] == pytest.approx(16.0)
    async with running_hall(database_url, clock) as hall:
        state = (await hall.room(table)).state
        await clock.advance(15.9)
        assert state.phase is Phase.BETWEEN_HANDS
        await clock.advance(0.2)
        assert state.phase is Phase.PLAYING
        # The game plays on to its end and its record is the same format as ever.
        while state.phase is not Phase.FINISHED:
            if state.phase is Phase.BETWEEN_HANDS:
                await clock.advance(20.0)
            else:
                await play_first(hall, table, await whose_turn(hall, table, [ANN, BOB]))
        record = await hall.store.record(table)
        assert check_record(record)["ok"]
        assert "resumed" not in str(record)


async def test_a_turn_that_ran_out_unnoticed_before_a_restart_times_out_once_at_start(
    database_url: str,
):
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        table = await started_table(hall, [ANN, BOB], preset="block")
        version = (await hall.room(table)).state.version
        clock.t += 30.0  # the hall was still up, but went down before its timer ran
    async with running_hall(database_url, clock) as hall:
        state = (await hall.room(table)).state
        assert state.version == version  # nothing to give back: it was up until now
        start = clock.now()
        await clock.advance(0.0)
        await clock.advance(24.9)  # the next turn's timer runs from the timeout
        events = await hall.store.events(table)
        assert {at for _v, at, body in events if body.get("by") == "timer"} == {start}
        assert {body.get("by") for _v, _at, body in events[version:]} == {"timer"}


async def test_a_move_committing_as_the_timer_falls_due_is_the_turn_s_only_move(database_url: str):
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        table = await started_table(hall, [ANN, BOB], preset="block")
        state = (await hall.room(table)).state
        mover = await whose_turn(hall, table, [ANN, BOB])
        version = state.version
        tile = (await view(hall, table, mover))["hand"]["moves"]["lead"][0]
        await clock.advance(20.0)
        move = asyncio.create_task(hall.play(mover, table, Move.lead(tile)))
        await asyncio.sleep(0)  # the move holds the table's lock, its commit on the way
        await clock.advance(5.1)  # the timer falls due and waits for the lock
        await move
        assert [e["by"] for e in shown_all(state, state.tail) if e["version"] > version] == [
            "player"
        ]


async def test_a_grace_period_started_again_while_the_last_one_ran_out_waits_60_s(
    database_url: str,
):
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        table = (
            await hall.create_table(ANN, Options.choose(seats=2))
        ).id  # seating: no turn timer runs
        await hall.join(BOB, table, None)
        seat = await hall.connect(table, ANN)
        room = await hall.room(table)
        await hall.connect(table, BOB)
        await hall.disconnect(room.id, seat)
        async with room.lock:  # the table is busy when the 60 s run out...
            running_out = asyncio.create_task(clock.advance(60.1))
            await asyncio.sleep(0)
            await hall.connect(table, ANN)  # ... and Ann comes back and drops again meanwhile
            dropped = asyncio.create_task(hall.disconnect(room.id, seat))
            await asyncio.sleep(0)
        await running_out
        await dropped
        assert room.state.seat_of(ANN.id) == seat, "removed before a new 60 s were up"
        await clock.advance(60.0)
        assert room.state.seat_of(ANN.id) is None


async def test_a_restart_raises_the_version_by_a_resumed_event_no_state_shows(tmp_path):
    """docs/protocol.md 3.2: a client coming back after a restart finds the version one more
    than before, and no `resumed` in the state it is sent (its log keeps the hand's events)."""
    clock = ManualClock()
    async with running_hall(tmp_path, clock) as hall:
        table = await started_table(hall, [ANN, BOB], preset="block")
        version = (await hall.room(table)).state.version
    clock.t += 30.0
    async with running_hall(tmp_path, clock) as hall:
        state = (await hall.room(table)).state
        assert state.version == version + 1 and state.tail[-1].kind == "resumed"
        seen = await view(hall, table, ANN)
        assert {e["kind"] for e in seen["hand"]["log"]} <= {"dealt", "move", "hand_over"}


async def test_a_hand_everyone_was_ready_for_while_away_is_dealt_when_one_comes_back(
    database_url: str,
):
    """Next hand pressed by both while nobody was counted connected (as after a restart or a
    takeover, before the sockets came back): the deal waits for nobody connected, so it is
    made when the first of them connects, not at the end of the wait."""
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        table = await started_table(hall, [ANN, BOB], preset="block", target=200)
        await play_out_the_hand(hall, table, [ANN, BOB])
        room = await hall.room(table)
        for person in (ANN, BOB):
            await hall.disconnect(table, room.state.seat_of(person.id))
        for person in (ANN, BOB):
            await hall.next_hand(person, table)
        assert room.state.phase is Phase.BETWEEN_HANDS  # (nobody connected to deal for)
        await hall.connect(table, ANN)
        assert room.state.phase is Phase.PLAYING
        assert len(room.state.game.hands) == 2
