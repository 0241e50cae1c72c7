"""Turn-based tables asleep (``hall/dormancy.py``): a restart loads none of them until something
needs one; a deadline of one asleep fires once (the table loaded, the timeout applied); a move
at one works, its downtime given back as if it had been loaded at start; a look at one reads
its log and leaves it asleep; an idle one falls asleep again, one with a socket does not;
real-time tables stay in memory."""

from __future__ import annotations

import pytest

from dominohall.hall import Hall, HallError, ManualClock, Options, Phase, TableState
from dominohall.hall.deadlines import DeadlineKey, Due, LoopScheduler
from dominohall.hall.dormancy import Wakeups, may_sleep, players_of, wake_at
from dominohall.hall.events import from_body
from dominohall.hall.table_feed import WATCHER, view
from dominohall.hall.wiring import running

from .helpers import ANN, BOB, CID, DEE, Person, play_first, running_hall, whose_turn
from .test_owners import settings, two_halls

pytestmark = pytest.mark.anyio

HOUR = 3600.0
DAY = 24 * HOUR


async def turn_based(hall: Hall, people: tuple[Person, Person], timer: str = "day") -> str:
    """A started turn-based game of two people, nobody connected."""
    first, second = people
    state = await hall.create_table(first, Options.choose("draw", seats=2, timer=timer))
    await hall.join(second, state.id, None)
    await hall.start_game(first, state.id)
    return state.id


async def kinds(hall: Hall, table_id: str) -> list[str]:
    return [body["kind"] for _, _, body in await hall.store.events(table_id)]


def in_memory(hall: Hall) -> set[str]:
    return {room.id for room in hall.rooms}


def test_only_a_persons_turn_in_a_turn_based_game_may_sleep() -> None:
    state = TableState("t1")
    assert not may_sleep(state)  # (seating: no game)
    assert wake_at(state) is None and players_of(state) == ()


async def test_wakeups_keep_one_deadline_a_minute_and_wake_each_table_once() -> None:
    clock = ManualClock(start=0.0)
    fired: list[list[str]] = []

    async def handler(key: DeadlineKey) -> None:
        fired.append(wakeups.due(key))

    scheduler = LoopScheduler(clock, handler)
    wakeups = Wakeups(scheduler)
    wakeups.set("a", 130.0)
    wakeups.set("b", 150.0)
    wakeups.set("c", 200.0)
    assert (wakeups.when("a"), wakeups.when("c")) == (120.0, 180.0)  # (early, never late)
    wakeups.set("c", 125.0)  # moved into a's minute: 180's deadline goes
    wakeups.cancel("b")
    assert scheduler.when(DeadlineKey("wake:3", Due.WAKE)) is None
    await clock.advance(300)
    assert fired == [["a", "c"]]
    assert wakeups.when("a") is None


async def test_a_restart_loads_no_idle_turn_based_table_until_one_is_needed(
    database_url: str,
) -> None:
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        sleepy = [await turn_based(hall, pair) for pair in ((ANN, BOB), (CID, DEE), (ANN, CID))]
        real_time = await hall.create_table(BOB, Options.choose("draw", seats=2))
        await hall.join(DEE, real_time.id, None)
        await hall.start_game(BOB, real_time.id)
        before = [t for t in await hall.my_tables(ANN.id) if t["id"] in sleepy]
    await clock.advance(HOUR)
    async with running_hall(database_url, clock) as hall:
        # Only the real-time table was read from its log; the others wait asleep, each with
        # its wake-up armed at its next deadline, and their people still counted.
        assert in_memory(hall) == {real_time.id}
        for table_id in sleepy:
            assert hall.rooms.is_asleep(table_id)
            assert hall.timers.wakeups.when(table_id) is not None
        assert hall.turn_based.games_of(ANN.id) == 2
        assert "resumed" not in await kinds(hall, sleepy[0])  # (nothing written for them)
        # In the lobby as before (put on its board once the hall is ready).
        await hall.lobby_filled.wait()
        shown = hall.board.entries  # type: ignore[attr-defined]
        assert set(sleepy) | {real_time.id} <= set(shown)
        assert shown[sleepy[0]]["kind"] == "game"
        # Asked for, one is loaded, and only that one; resumed with the hour down given back.
        seen = await hall.owner.view(sleepy[1], CID.id)
        assert seen.version > 0
        assert in_memory(hall) == {real_time.id, sleepy[1]}
        assert not hall.rooms.is_asleep(sleepy[1])
        assert (await kinds(hall, sleepy[1]))[-1] == "resumed"
        # "My games" lists them from their notes, as they will be once loaded: the hour down
        # given back to their clocks.
        listed = await hall.my_tables(ANN.id)
        assert in_memory(hall) == {real_time.id, sleepy[1]}
        assert [t["id"] for t in listed] == [t["id"] for t in before]
        for now, then in zip(listed, before, strict=True):
            assert now["deadline"] == pytest.approx(then["deadline"] + HOUR)
        for table_id in (sleepy[0], sleepy[2]):
            await hall.owner.view(table_id, ANN.id)  # loaded
        assert await hall.my_tables(ANN.id) == listed


async def test_a_move_at_a_table_asleep_works_and_its_downtime_is_given_back(
    database_url: str,
) -> None:
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        table_id = await turn_based(hall, (ANN, BOB))
        deadline = (await hall.owner.table(table_id)).turn_deadline
    await clock.advance(5 * HOUR)  # the hall is down for five hours
    async with running_hall(database_url, clock) as hall:
        await clock.advance(HOUR / 2)  # up, the table asleep, for half an hour
        assert hall.rooms.is_asleep(table_id)
        mover = await whose_turn(hall, table_id, [ANN, BOB])
        woken = (await hall.owner.table(table_id)).turn_deadline
        assert woken == pytest.approx(deadline + 5 * HOUR)  # the downtime, not the time asleep
        before = (await hall.owner.table(table_id)).version
        assert await play_first(hall, table_id, mover) > before
        assert hall.rooms.get(table_id) is not None


async def test_a_look_at_a_table_asleep_reads_its_log_and_leaves_it_asleep(
    database_url: str,
) -> None:
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        table_id = await turn_based(hall, (ANN, BOB))
    await clock.advance(HOUR)
    async with running_hall(database_url, clock) as hall:
        assert hall.rooms.is_asleep(table_id) and hall.owner.asleep(table_id)
        looked = await hall.owner.table(table_id)
        logged = TableState.replay(table_id, await hall.store.events(table_id))
        assert watched(looked, clock) == watched(logged, clock)
        assert looked.phase is Phase.PLAYING
        # Still asleep: not in memory, nothing written, its wake-up as it was.
        assert hall.rooms.is_asleep(table_id) and in_memory(hall) == set()
        assert "resumed" not in await kinds(hall, table_id)
        assert hall.timers.wakeups.when(table_id) is not None
        # A table awake is looked at in memory; one not held, as before.
        await hall.owner.view(table_id, ANN.id)
        assert not hall.owner.asleep(table_id)
        room = await hall.room(table_id)
        assert await hall.rooms.look(table_id) is room.state
        with pytest.raises(HallError, match="no table"):
            await hall.owner.table("nosuchtable")


def watched(state: TableState, clock: ManualClock) -> dict[str, object]:
    """The whole table as someone watching it sees it (to compare two states)."""
    seen = view(state, WATCHER, None, connected=set(), now=clock.now(), ratings=None)
    return dict(seen.message)


async def test_a_deadline_of_a_table_asleep_fires_once_and_applies_the_timeout(
    database_url: str,
) -> None:
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        table_id = await turn_based(hall, (ANN, BOB), timer="half-day")
    async with running_hall(database_url, clock) as hall:
        assert in_memory(hall) == set()
        await clock.advance(3 * DAY)  # past the reminder and the clock's end
        logged = await kinds(hall, table_id)
        assert logged.count("reminded") == 1
        assert logged.count("out") == 1
        assert (await hall.owner.table(table_id)).phase is Phase.FINISHED
        # The timeout came at the deadline, not when the table happened to be loaded.
        replay = TableState(table_id)
        for _, at, body in await hall.store.events(table_id):
            if body["kind"] == "out":
                assert replay.turn_deadline <= at <= replay.turn_deadline + 1.0
            replay.apply(from_body(body), at)


async def test_an_idle_table_falls_asleep_unless_someone_is_at_it(database_url: str) -> None:
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        watched = await turn_based(hall, (ANN, BOB))
        idle = await turn_based(hall, (CID, DEE))
        await hall.connect(watched, ANN)
        assert await hall.sleep_idle() == 0  # (used just now)
        assert hall.idle_seconds is not None
        await clock.advance(hall.idle_seconds + 1)
        assert await hall.sleep_idle() == 1
        assert hall.rooms.is_asleep(idle) and not hall.rooms.is_asleep(watched)
        # Asleep, its deadline still comes: loaded then, it sets its clocks again.
        when = hall.timers.wakeups.when(idle)
        state_before = await hall.store.events(idle)
        assert when is not None and when > clock.now()
        await clock.advance(when - clock.now() + 1)
        assert hall.rooms.get(idle) is not None
        assert len(await hall.store.events(idle)) > len(state_before)  # (the reminder)


async def test_a_table_whose_note_is_behind_its_log_is_loaded_at_start(
    database_url: str,
) -> None:
    """A note is written as a table falls asleep and at a clean stop; one behind its table's
    log (the process was killed after the table changed) is not trusted."""
    clock = ManualClock()
    async with running_hall(database_url, clock) as hall:
        table_id = await turn_based(hall, (ANN, BOB))
        version = (await hall.owner.table(table_id)).version
        assert await hall.store.wakes.current(table_id) is None  # (not noted while it changes)
    async with running_hall(database_url, clock) as hall:
        wake = await hall.store.wakes.current(table_id)
        assert wake is not None and wake.version == version  # noted at the stop
        assert hall.rooms.is_asleep(table_id)
        behind = version - 1
        await hall.store.wakes.note(table_id, behind, wake.wake_at, wake.players, None, {})
        assert await hall.store.wakes.current(table_id) is None
    async with running_hall(database_url, clock) as hall:
        assert in_memory(hall) == {table_id}
        assert not hall.rooms.is_asleep(table_id)


@pytest.mark.postgresql
async def test_across_two_processes_a_command_at_a_table_held_asleep_goes_to_its_owner(
    postgres_database: str, redis_prefix: str
) -> None:
    clock = ManualClock()
    async with running(settings(postgres_database, redis_prefix, clock, "seed")) as seed:
        table_id = await turn_based(seed.hall, (ANN, BOB))
    await clock.advance(5)  # down 5 s, its lease released at the seed's clean stop
    async with two_halls(postgres_database, redis_prefix, clock) as (a, b):
        owner, other = (a, b) if a.hall.ownership_holds(table_id) else (b, a)
        assert owner.hall.ownership is not None and owner.hall.ownership.holds(table_id)
        # Taken over asleep: its lease held, nothing of it loaded or written.
        assert owner.hall.rooms.is_asleep(table_id) and not in_memory(owner.hall)
        assert "resumed" not in await kinds(owner.hall, table_id)
        wake = await owner.store.wakes.current(table_id)
        assert wake is not None and wake.owed == pytest.approx(5.0)
        # Looked at through either process, it stays asleep (read from its log); only its
        # holder knows it asleep.
        assert owner.hall.owner.asleep(table_id) and not other.hall.owner.asleep(table_id)
        for either in (owner.hall, other.hall):
            assert (await either.owner.table(table_id)).phase is Phase.PLAYING
        assert owner.hall.rooms.is_asleep(table_id) and not in_memory(owner.hall)
        # A move through the other process: sent to the owner, which loads the table, resumes
        # it with the 5 s given back, and commits the move under its lease.
        person = await whose_turn(other.hall, table_id, [ANN, BOB])
        before = (await other.hall.owner.table(table_id)).version
        version = await play_first(other.hall, table_id, person)
        assert version > before
        assert other.hall.rooms.get(table_id) is None and not other.hall.rooms.is_asleep(table_id)
        assert owner.hall.rooms.get(table_id) is not None
        lease = owner.hall.ownership.held[table_id]
        tokens = await owner.store.table_leases.tokens(table_id)
        assert tokens[-1] == (version, lease.token)
        resumed = [body for _, _, body in await owner.store.events(table_id)]
        assert [b["downtime"] for b in resumed if b["kind"] == "resumed"] == [pytest.approx(5.0)]
