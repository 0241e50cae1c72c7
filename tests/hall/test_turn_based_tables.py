"""Turn-based tables on a hand-driven clock (RULES.md 6): each player's clock starts at one
increment, gains one each turn up to the cap, and puts its player out the moment it runs out;
being away costs nothing, forced draws and passes are made at once, the next hand starts at once;
a restart charges the time the hall was down to no one."""

from __future__ import annotations

from typing import Any

import pytest

from dominohall.hall import Hall, HallError, ManualClock, Phase
from dominohall.hall.event_view import shown_all
from dominohall.hall.notices import Reminder
from dominohall.hall.options import DAY, HOUR, Options
from dominohall.rules import DRAW, PASS

from .helpers import (
    ANN,
    BOB,
    CID,
    Person,
    first_move,
    idle,
    play_first,
    running_hall,
    view,
    whose_turn,
)

pytestmark = pytest.mark.anyio


async def turn_based_table(
    hall: Hall, people: list[Person], timer: str = "day", **options: Any
) -> str:
    """A started turn-based table of ``people`` (nobody connected: they come and go)."""
    state = await hall.create_table(
        people[0], Options.choose(seats=len(people), timer=timer, **options)
    )
    for person in people[1:]:
        await hall.join(person, state.id, None)
    await hall.start_game(people[0], state.id)
    await idle(hall)
    return state.id


async def mover_of(hall: Hall, table: str, people: list[Person]) -> Person:
    return await whose_turn(hall, table, people)


async def move_after(hall: Hall, clock: ManualClock, table: str, person: Person, hours: float):
    """``person`` thinks ``hours`` and then makes a move (never a forced one: none is left)."""
    await clock.advance(hours * HOUR)
    moves = (await view(hall, table, person))["hand"]["moves"]
    forced = not moves["lead"] and not moves["play"]
    assert not forced, f"{person.name} was left a forced move: {moves}"
    await play_first(hall, table, person)


async def test_a_clock_starts_at_one_increment_and_gains_one_a_turn_up_to_the_cap(
    database_url: str,
):
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        table = await turn_based_table(hall, [ANN, BOB], preset="block", target=200)
        state = (await hall.room(table)).state
        assert state.clocks == [DAY, DAY]
        first = await mover_of(hall, table, [ANN, BOB])
        seat = state.seat_of(first.id)
        start = state.turn_since
        assert state.turn_deadline == start + DAY
        await move_after(hall, clock, table, first, 2)
        assert state.clocks[seat] == pytest.approx(DAY - 2 * HOUR + DAY)
        left = state.clocks[seat]
        for _ in range(3):  # each turn adds a day; three days at most
            while state.turn != seat:
                other = await mover_of(hall, table, [ANN, BOB])
                await move_after(hall, clock, table, other, 1)
            if state.phase is not Phase.PLAYING:
                break
            await move_after(hall, clock, table, first, 1)
            left = min(3 * DAY, left - HOUR + DAY)
            assert state.clocks[seat] == pytest.approx(left)
        assert state.clocks[seat] == pytest.approx(3 * DAY), "the cap did not hold"


async def test_being_away_costs_no_seat_and_the_next_hand_starts_at_once(database_url: str):
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        table = await turn_based_table(hall, [ANN, BOB], preset="block", target=200)
        room = await hall.room(table)
        state = room.state
        await hall.connect(table, ANN)
        await hall.disconnect(room.id, state.seat_of(ANN.id))
        await clock.advance(10 * HOUR)  # far longer than the 60 s grace of a real-time table
        assert [s.out for s in state.seats] == [None, None]
        hands = len(state.game.hands)
        while len(state.game.hands) == hands:
            await move_after(hall, clock, table, await mover_of(hall, table, [ANN, BOB]), 0.5)
        # The hand ended and the next one was dealt with nobody pressing Next hand.
        assert state.phase is Phase.PLAYING
        kinds = [e.kind for e in state.tail]
        assert kinds[kinds.index("hand_over") + 1 :][:1] == ["dealt"]
        assert "ready" not in kinds


async def test_forced_passes_are_made_at_once(database_url: str):
    clock = ManualClock()
    async with running_hall(database_url, clock, seed=3) as hall:
        table = await turn_based_table(hall, [ANN, BOB], preset="block", target=200)
        state = (await hall.room(table)).state
        while len(state.game.hands) < 3:
            await move_after(hall, clock, table, await mover_of(hall, table, [ANN, BOB]), 1)
        forced = [
            e for e in shown_all(state, state.tail) if e["kind"] == "move" and e["by"] == "forced"
        ]
        assert forced and all(e.get("pass") for e in forced)


async def test_a_forced_move_comes_in_the_change_of_the_move_before_it(database_url: str):
    """No published version shows a person a turn whose only move the hall makes at once (a
    client that drew itself there was refused as stale)."""
    clock = ManualClock()
    async with running_hall(database_url, clock, seed=3) as hall:
        table = await turn_based_table(hall, [ANN, BOB], preset="block", target=200)
        state = (await hall.room(table)).state
        shown: list[bool] = []  # at each publish: whether the person to move has a choice
        hall.broker.subscribe(
            table,
            lambda _v: (
                state.turn is not None
                and shown.append(state.hand.legal_moves() not in ([PASS], [DRAW]))
            ),
        )
        while len(state.game.hands) < 3:
            await move_after(hall, clock, table, await mover_of(hall, table, [ANN, BOB]), 1)
        forced = [
            e for e in shown_all(state, state.tail) if e["kind"] == "move" and e["by"] == "forced"
        ]
        assert forced, "no forced move in three hands"
        assert shown and all(shown), "a version showed a forced turn"


async def test_forced_draws_are_made_at_once_and_the_drawn_tile_is_the_player_s(database_url: str):
    clock = ManualClock()
    async with running_hall(database_url, clock, seed=5) as hall:
        table = await turn_based_table(hall, [ANN, BOB], preset="draw", target=200)
        state = (await hall.room(table)).state
        for _ in range(60):
            if state.phase is not Phase.PLAYING:
                break
            await move_after(hall, clock, table, await mover_of(hall, table, [ANN, BOB]), 1)
        forced = [
            e for e in shown_all(state, state.tail) if e["kind"] == "move" and e["by"] == "forced"
        ]
        assert any("draw" in e for e in forced), "no forced draw in 60 turns"
        # A forced draw never plays the drawn tile: the person chooses that (by "player").
        tail = shown_all(state, state.tail)
        for i, e in enumerate(tail):
            if e["kind"] == "move" and e["by"] == "forced" and "draw" in e:
                after = tail[i + 1]
                assert after["kind"] != "move" or after["by"] in ("forced", "player")


async def test_a_two_player_game_is_lost_on_time_across_a_restart(database_url: str):
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        table = await turn_based_table(hall, [ANN, BOB], timer="half-day", preset="block")
        state = (await hall.room(table)).state
        first = await mover_of(hall, table, [ANN, BOB])
        await move_after(hall, clock, table, first, 3)
        late = await mover_of(hall, table, [ANN, BOB])
        deadline = state.turn_deadline
        assert deadline == pytest.approx(clock.now() + 12 * HOUR)
        await clock.advance(5 * HOUR)
    clock.t += 4 * HOUR  # the hall is down four hours: charged to no one
    async with running_hall(database_url, clock) as hall:
        state = (await hall.room(table)).state
        assert state.turn_deadline == pytest.approx(deadline + 4 * HOUR)
        shown = (await view(hall, table, late))["clock"]
        assert shown["left"] == pytest.approx(7 * HOUR)
        await clock.advance(7 * HOUR - 1)
        assert state.phase is Phase.PLAYING, "out before the clock ran out"
        await clock.advance(2)
        assert state.phase is Phase.FINISHED
        assert state.result["reason"] == "forfeit"
        assert state.result["winner"] == state.seat_of(first.id)
        events = await hall.store.events(table)
        out = [(at, body) for _, at, body in events if body["kind"] == "out"]
        assert len(out) == 1 and out[0][1]["reason"] == "timeout"
        assert out[0][0] == pytest.approx(deadline + 4 * HOUR)
        assert not any(body.get("by") == "timer" for _, _, body in events), "no autoplay first"
        record = state.record()
        assert record["time"]["speed"] == "turn-based"
        assert record["time"]["duration"] == pytest.approx(
            3 * HOUR + 12 * HOUR + 4 * HOUR
        )  # (downtime too)


async def test_three_players_over_weeks_one_runs_out_and_a_computer_takes_the_seat(
    database_url: str,
):
    """Ann, Bob and Cid think hours to days a move; Cid drifts away after a while and his clock
    runs out (a computer player takes his seat); the hall restarts twice on the way."""
    clock = ManualClock()
    people = [ANN, BOB, CID]
    thinking = {ANN.id: [5, 20, 2, 30, 9], BOB.id: [1, 40, 3, 12], CID.id: [7, 15, 22, 4]}
    moved = {p.id: 0 for p in people}
    async with running_hall(database_url, clock, seed=7) as hall:
        table = await turn_based_table(hall, people, preset="draw", target=100)
    turns = 0
    cid_out_at = None
    capped = False

    async def play_until(hall: Hall, stop: int | None) -> None:
        nonlocal turns, cid_out_at, capped
        state = (await hall.room(table)).state
        while state.phase is not Phase.FINISHED and turns != stop:
            mover = await mover_of(hall, table, people)
            seat = state.seat_of(mover.id)
            if mover is CID and turns >= 25 and cid_out_at is None:
                # Cid is away: his clock runs out at its deadline, and not a second before.
                deadline = state.turn_deadline
                await clock.advance(deadline - clock.now() - 1)
                assert state.seats[seat].out is None
                await clock.advance(2)
                assert state.seats[seat].out == "timeout"
                assert state.seats[seat].kind == "bot" and state.seats[seat].bot == "normal"
                cid_out_at = clock.now()
                await idle(hall)
                continue
            plan = thinking[mover.id]
            left_hours = state.clock_left(seat, clock.now()) / HOUR
            hours = min(plan[moved[mover.id] % len(plan)], left_hours - 1)
            moved[mover.id] += 1
            await move_after(hall, clock, table, mover, hours)
            assert state.clocks[seat] <= 3 * DAY
            capped = capped or state.clocks[seat] == 3 * DAY
            turns += 1

    for stop, downtime in [(15, 6 * HOUR), (40, 3 * DAY)]:
        async with running_hall(database_url, clock, seed=stop) as hall:
            await play_until(hall, stop)
            state = (await hall.room(table)).state
            assert state.phase is Phase.PLAYING, f"the game ended before turn {stop}"
            before = state.turn_deadline
            person_to_move = state.seats[state.turn].is_person
        clock.t += downtime
        async with running_hall(database_url, clock) as hall:
            after = (await hall.room(table)).state
            if person_to_move:
                assert after.turn_deadline == pytest.approx(before + downtime)
    async with running_hall(database_url, clock) as hall:
        await play_until(hall, None)
        state = (await hall.room(table)).state
    assert cid_out_at is not None, "Cid's clock never ran out"
    assert capped, "no clock reached the cap"
    assert state.result["reason"] == "rules"
    assert state.result["placed_last"] == [2]
    assert [t["seat"] for t in state.takeovers] == [2]
    record = state.record()
    assert record["takeovers"][0]["seat"] == 2 and record["result"]["placed_last"] == [2]
    duration = record["time"]["duration"]
    assert duration == pytest.approx(state.finished_at - state.started_at)
    assert duration > 7 * DAY, f"a game of {duration / DAY:.1f} days is not one of weeks"


async def test_a_reminder_comes_once_a_turn_when_less_than_a_quarter_of_the_cap_is_left(
    database_url: str,
):
    clock = ManualClock()
    heard: list[Reminder] = []
    async with running_hall(database_url, clock) as hall:
        table = await turn_based_table(hall, [ANN, BOB], preset="block", target=200)
        state = (await hall.room(table)).state
        first = await mover_of(hall, table, [ANN, BOB])
        hall.broker.listen(first.id, lambda n: isinstance(n, Reminder) and heard.append(n))
        # A day on the clock, three days the cap: reminded with 18 h left, 6 h into the turn.
        await clock.advance(6 * HOUR - 1)
        assert heard == []
        await clock.advance(2)
        deadline = state.turn_deadline
        assert heard == [
            Reminder(
                table,
                state.seat_of(first.id),
                state.version,
                deadline,
                pytest.approx(18 * HOUR),  # (fired at its time)
            )
        ]
        await clock.advance(HOUR)
    clock.t += HOUR
    async with running_hall(database_url, clock) as hall:
        hall.broker.listen(first.id, lambda n: isinstance(n, Reminder) and heard.append(n))
        await clock.advance(HOUR)
        assert len(heard) == 1, "reminded again after a restart"
        # 8 h and 1 s used (the hour down is not): next turn 40 h less 1 s on the clock.
        await move_after(hall, clock, table, first, 0)
        other = await mover_of(hall, table, [ANN, BOB])
        await move_after(hall, clock, table, other, 1)
        state = (await hall.room(table)).state
        if state.turn == state.seat_of(first.id):  # (not when the hand ended meanwhile)
            assert state.clocks[state.turn] == pytest.approx(40 * HOUR - 1)
            await clock.advance(22 * HOUR - 2)
            assert len(heard) == 1
            await clock.advance(2)
            assert len(heard) == 2 and heard[1].version == state.version


async def test_a_clock_run_out_unnoticed_before_a_shutdown_puts_its_player_out_once_at_start(
    database_url: str,
):
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        table = await turn_based_table(hall, [ANN, BOB], preset="block")
        deadline = (await hall.room(table)).state.turn_deadline
        clock.t = deadline + HOUR  # the hall was too busy to fire it before it stopped
    clock.t += 2 * HOUR
    async with running_hall(database_url, clock) as hall:
        await clock.advance(0)
        state = (await hall.room(table)).state
        assert state.phase is Phase.FINISHED and state.result["reason"] == "forfeit"
        outs = [(at, b) for _, at, b in await hall.store.events(table) if b["kind"] == "out"]
        assert len(outs) == 1 and outs[0][0] == clock.now()
    async with running_hall(database_url, clock) as hall:
        await clock.advance(DAY)
        outs = [b for _, _, b in await hall.store.events(table) if b["kind"] == "out"]
        assert len(outs) == 1


async def test_the_view_shows_clocks_the_duration_and_what_happened_since_your_move(
    database_url: str,
):
    clock = ManualClock()
    people = [ANN, BOB, CID]
    async with running_hall(database_url, clock) as hall:
        table = await turn_based_table(hall, people, preset="draw", target=100)
        state = (await hall.room(table)).state
        first = await mover_of(hall, table, people)
        await move_after(hall, clock, table, first, 2)
        seen = (await view(hall, table, first))["turn_based"]
        others = []
        while state.turn != state.seat_of(first.id):
            mover = await mover_of(hall, table, people)
            others.append(state.turn)
            await move_after(hall, clock, table, mover, 10)
        shown = await view(hall, table, first)
        tb = shown["turn_based"]
        assert tb["id"] == "day" and tb["increment"] == DAY and tb["cap"] == 3 * DAY
        assert tb["duration"] == pytest.approx(clock.now() - state.started_at)
        assert tb["duration"] >= 22 * HOUR
        mine = tb["clocks"][state.seat_of(first.id)]
        assert mine["running"] and mine["left"] == pytest.approx(46 * HOUR)
        assert mine["deadline"] == shown["clock"]["deadline"]
        assert all(c["left"] == pytest.approx(38 * HOUR) for c in tb["clocks"] if not c["running"])
        # What the others did since: their moves, in order, their draws without the tile.
        since = tb["since_your_move"]
        assert since and all(e["seat"] != state.seat_of(first.id) for e in since)
        assert [e["seat"] for e in since if e["kind"] == "move" and "draw" not in e] == others
        assert all(e["draw"] is True for e in since if "draw" in e)
        assert seen["since_your_move"] == []
        assert (await view(hall, table, None))["turn_based"]["since_your_move"] is None


async def test_the_move_that_ends_a_hand_deals_the_next_in_the_same_change(tmp_path):
    """No version of the table is between hands: the ack of the hand's last move is the deal's
    version, and every version published shows a hand being played (or the game over)."""
    clock = ManualClock()
    async with running_hall(tmp_path, clock) as hall:
        table = await turn_based_table(hall, [ANN, BOB], preset="block", target=200)
        state = (await hall.room(table)).state
        shown: list[tuple[int, Phase]] = []
        hall.broker.subscribe(table, lambda v: shown.append((state.version, state.phase)))
        while len(state.game.hands) < 3:
            mover = await mover_of(hall, table, [ANN, BOB])
            hands = len(state.game.hands)
            version = await hall.play(mover, table, first_move(await view(hall, table, mover)))
            if len(state.game.hands) > hands:  # this move ended a hand
                kinds = [e.kind for e in state.tail if e.version <= version]
                assert kinds[-3:] == ["move", "hand_over", "dealt"], kinds[-3:]
                dealt = [e for e in state.tail if e.kind == "dealt"][-1]
                assert dealt.version == version  # the ack's version is the deal's
            await idle(hall)
        assert shown and {phase for _, phase in shown} == {Phase.PLAYING}, shown
        with pytest.raises(HallError) as refused:
            await hall.next_hand(ANN, table)
        assert refused.value.code == "not_between_hands"


async def test_the_clock_shows_the_increment_and_left_may_be_more_up_to_the_cap(tmp_path):
    """docs/protocol.md 3.3: on a turn-based table `clock.seconds` is the increment, and `left`
    what is on the clock of the seat to move: quick turns carry time over, up to the cap."""
    clock = ManualClock()
    async with running_hall(tmp_path, clock) as hall:
        table = await turn_based_table(hall, [ANN, BOB], preset="block", target=200)
        state = (await hall.room(table)).state
        lefts = []
        for _ in range(8):
            mover = await mover_of(hall, table, [ANN, BOB])
            shown = (await view(hall, table, mover))["clock"]
            assert shown["seconds"] == DAY and shown["left"] <= 3 * DAY
            lefts.append(shown["left"])
            await clock.advance(0.1 * HOUR)
            await play_first(hall, table, mover)
            if state.phase is not Phase.PLAYING:
                break
        assert max(lefts) > DAY


async def test_since_your_move_lists_events_in_its_own_shapes(tmp_path):
    """docs/protocol.md 7: a deal is its hand alone, a hand's end its winner and points, a draw
    never its tile; your own moves are left out."""
    clock = ManualClock()
    async with running_hall(tmp_path, clock) as hall:
        table = await turn_based_table(hall, [ANN, BOB], preset="draw", target=200)
        state = (await hall.room(table)).state
        while len(state.game.hands) < 2:
            await clock.advance(HOUR)
            await play_first(hall, table, await mover_of(hall, table, [ANN, BOB]))
        seen = []
        for person in (ANN, BOB):
            since = (await view(hall, table, person))["turn_based"]["since_your_move"]
            assert all(e["seat"] != state.seat_of(person.id) for e in since if "seat" in e)
            seen += since
        shapes = {e["kind"]: set(e) for e in seen if e["kind"] in ("dealt", "hand_over")}
        assert shapes == {
            "dealt": {"version", "kind", "hand"},
            "hand_over": {"version", "kind", "hand", "winner", "points"},
        }
        assert all(e["draw"] is True for e in seen if e["kind"] == "move" and "draw" in e)
