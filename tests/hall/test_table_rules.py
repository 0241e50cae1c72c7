"""RULES.md 6 at the table, on a hand-driven clock: the turn timer, autoplay, out of the game,
the 60 s grace for a dropped connection, and when the next hand starts."""

from __future__ import annotations

import pytest

from dominohall.hall import Hall, ManualClock, Options, Person, Phase
from dominohall.hall.event_view import shown, shown_all
from dominohall.hall.options import BotLevel
from dominohall.rules import Move
from dominohall.rules.record import check_record

from .helpers import (
    ANN,
    BOB,
    CID,
    idle,
    play_first,
    running_hall,
    started_table,
    view,
    whose_turn,
)

pytestmark = pytest.mark.anyio


async def seat_of(hall: Hall, table_id: str, person: Person) -> int:
    seat = (await hall.room(table_id)).state.was_seated(person.id)
    assert seat is not None
    return seat


async def test_time_running_out_lets_normal_play_the_turn(database_url: str):
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        table = await started_table(hall, [ANN, BOB])
        state = (await hall.room(table)).state
        mover = await whose_turn(hall, table, [ANN, BOB])
        seat = await seat_of(hall, table, mover)
        version = state.version
        assert (await view(hall, table, mover))["clock"]["left"] == 25.0
        await clock.advance(24.9)
        assert state.version == version
        await clock.advance(0.2)
        moves = [e for e in shown_all(state, state.log) if e["kind"] == "move"]
        assert moves and moves[-1]["seat"] == seat
        assert {e["by"] for e in moves} == {"timer"}
        assert state.seats[seat].timeouts == 1
        # A move made in time clears the first timeout.
        other = BOB if mover is ANN else ANN
        await play_first(hall, table, other)
        await play_first(hall, table, mover)
        assert state.seats[seat].timeouts == 0


async def test_two_timeouts_running_forfeit_a_two_player_game(database_url: str):
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        table = await started_table(hall, [ANN, BOB])
        state = (await hall.room(table)).state
        mover = await whose_turn(hall, table, [ANN, BOB])
        other = BOB if mover is ANN else ANN
        seat = await seat_of(hall, table, mover)
        await clock.advance(25.0)
        await play_first(hall, table, other)
        assert await whose_turn(hall, table, [ANN, BOB]) is mover
        await clock.advance(25.0)
        assert state.phase is Phase.FINISHED
        assert state.result == {"reason": "forfeit", "winner": 1 - seat, "placed_last": [seat]}
        record = await hall.store.record(table)
        assert record["result"]["reason"] == "forfeit"
        assert check_record(record)["ok"]


async def play_to_the_end(hall: Hall, table: str, people: list[Person]) -> None:
    state = (await hall.room(table)).state
    for _ in range(2000):
        if state.phase is Phase.FINISHED:
            return
        if state.phase is Phase.BETWEEN_HANDS:
            for person in people:
                if state.seat_of(person.id) is not None:
                    await hall.next_hand(person, table)
        else:
            await play_first(hall, table, await whose_turn(hall, table, people))
        await idle(hall)
    raise AssertionError("the game did not end")


async def test_two_timeouts_running_put_a_computer_player_in_the_seat(database_url: str):
    clock = ManualClock()
    people = [ANN, BOB, CID]
    async with running_hall(database_url, clock) as hall:
        table = await started_table(hall, people, preset="draw", target=100)
        state = (await hall.room(table)).state
        mover = await whose_turn(hall, table, people)
        seat = await seat_of(hall, table, mover)
        await clock.advance(25.0)  # the timer plays for the mover
        while await whose_turn(hall, table, people) is not mover:
            await play_first(hall, table, await whose_turn(hall, table, people))
        await clock.advance(25.0)  # out: a computer player takes the seat and plays at once
        await idle(hall)
        assert state.seats[seat].kind == "bot" and state.seats[seat].out == "timeout"
        assert state.turn != seat
        with pytest.raises(Exception, match="out of this game"):
            await hall.play(mover, table, Move.pass_())
        rest = [p for p in people if p is not mover]
        await play_to_the_end(hall, table, rest)
        assert state.result["reason"] == "rules" and state.result["placed_last"] == [seat]
        record = await hall.store.record(table)
        assert record["takeovers"][0]["seat"] == seat and record["takeovers"][0]["bot"] == "normal"
        assert check_record(record)["ok"]


async def test_a_connection_gone_for_60_s_is_out_and_the_timer_runs_meanwhile(database_url: str):
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        table = await started_table(hall, [ANN, BOB], timer="relaxed")
        room = await hall.room(table)
        mover = await whose_turn(hall, table, [ANN, BOB])
        away = BOB if mover is ANN else ANN
        await hall.disconnect(room.id, await seat_of(hall, table, away))
        assert not (await view(hall, table, mover))["seats"][room.state.seat_of(away.id)][
            "connected"
        ]
        await clock.advance(30.0)
        await play_first(hall, table, mover)  # now the away player's clock runs (50 s)
        await clock.advance(29.9)
        assert room.state.phase is Phase.PLAYING
        await clock.advance(0.2)
        assert room.state.phase is Phase.FINISHED
        assert room.state.result["reason"] == "forfeit"
        assert [e for e in shown_all(room.state, room.state.tail) if e["kind"] == "out"][0][
            "reason"
        ] == "disconnected"


async def test_coming_back_within_60_s_keeps_the_seat(database_url: str):
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        table = await started_table(hall, [ANN, BOB], timer="relaxed")
        room = await hall.room(table)
        mover = await whose_turn(hall, table, [ANN, BOB])
        away = BOB if mover is ANN else ANN
        await hall.disconnect(room.id, await seat_of(hall, table, away))
        await clock.advance(30.0)
        await play_first(hall, table, mover)
        await clock.advance(10.0)
        await hall.connect(table, away)
        await clock.advance(30.0)  # 70 s after leaving, 40 s into a 50 s turn
        assert room.state.phase is Phase.PLAYING and room.state.seat_of(away.id) is not None


async def test_before_the_start_a_seat_unused_for_60_s_is_freed(database_url: str):
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        state = await hall.create_table(ANN, Options.choose(seats=3))
        await hall.connect(state.id, ANN)
        await hall.join(BOB, state.id, None)  # Bob never opens the table
        await clock.advance(59.0)
        assert state.seats[1].name == "Bob"
        await clock.advance(2.0)
        assert state.seats[1].kind == "empty"


async def play_out_the_hand(hall: Hall, table: str, people: list[Person]) -> None:
    state = (await hall.room(table)).state
    while state.phase is Phase.PLAYING:
        await play_first(hall, table, await whose_turn(hall, table, people))


async def test_the_next_hand_starts_when_everyone_pressed_or_after_20_s(database_url: str):
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        table = await started_table(hall, [ANN, BOB], preset="block", target=200)
        state = (await hall.room(table)).state
        await play_out_the_hand(hall, table, [ANN, BOB])
        assert state.phase is Phase.BETWEEN_HANDS
        await hall.next_hand(ANN, table)
        assert state.phase is Phase.BETWEEN_HANDS
        assert (await view(hall, table, BOB))["next_hand"]["ready"] == [0]
        await hall.next_hand(BOB, table)
        assert state.phase is Phase.PLAYING and len(state.game.hands) == 2
        await play_out_the_hand(hall, table, [ANN, BOB])
        assert state.phase is Phase.BETWEEN_HANDS
        await clock.advance(19.9)
        assert state.phase is Phase.BETWEEN_HANDS
        await clock.advance(0.2)
        assert state.phase is Phase.PLAYING and len(state.game.hands) == 3


async def test_the_quick_timer_waits_10_s_for_the_next_hand(database_url: str):
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        table = await started_table(hall, [ANN, BOB], preset="block", target=200, timer="quick")
        state = (await hall.room(table)).state
        await play_out_the_hand(hall, table, [ANN, BOB])
        await clock.advance(9.9)
        assert state.phase is Phase.BETWEEN_HANDS
        await clock.advance(0.2)
        assert state.phase is Phase.PLAYING


async def test_a_restart_gives_back_the_time_the_hall_was_down(database_url: str):
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        table = await started_table(hall, [ANN, BOB])
        mover = await whose_turn(hall, table, [ANN, BOB])
        await clock.advance(10.0)
        version = (await hall.room(table)).state.version
    clock.t += 3600.0  # the hall is down for an hour
    async with running_hall(database_url, clock) as hall:
        state = (await hall.room(table)).state
        # The give-back is in the log, for the next restart to replay.
        assert shown(state, state.tail[-1]) == {
            "version": version + 1,
            "kind": "resumed",
            "downtime": 3600.0,
        }
        version = state.version
        assert (await view(hall, table, mover))["clock"]["left"] == pytest.approx(15.0)
        await clock.advance(14.9)
        assert state.version == version
        await clock.advance(0.2)
        assert state.version > version
        assert shown(state, state.log[-1])["by"] == "timer"


async def test_a_table_whose_people_are_all_out_ends_abandoned(database_url: str):
    clock = ManualClock()
    people = [ANN, BOB]
    async with running_hall(database_url, clock) as hall:
        table = await started_table(hall, people, bots=["easy"], preset="block", target=200)
        await hall.leave(ANN, table)
        room = await hall.room(table)
        assert room.state.phase is not Phase.FINISHED
        await hall.leave(BOB, table)
        assert room.state.result == {"reason": "abandoned", "winner": None, "placed_last": [0, 1]}
        record = await hall.store.record(table)
        assert [t["seat"] for t in record["takeovers"]] == [0, 1]
        assert check_record(record)["ok"]


async def test_hard_thinks_in_a_worker_process(database_url: str):
    async with running_hall(database_url) as hall:
        state = await hall.play_with_bots(ANN, [BotLevel.HARD], preset="block")
        await hall.connect(state.id, ANN)
        await idle(hall)
        for _ in range(6):
            if state.turn == 0:
                await play_first(hall, state.id, ANN)
            await idle(hall)
        by_hard = [e for e in shown_all(state, state.log) if e["kind"] == "move" and e["seat"] == 1]
        assert by_hard and {e["by"] for e in by_hard} == {"bot"}
        assert (
            hall.computers.thinkers._pool is not None
        )  # it ran in the pool, not on the event loop
