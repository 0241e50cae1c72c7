"""One hall on several processes (``ownership.py``, ``owners.py``, ``owner_link.py``): each live
table held by one process at a time by a lease, commands sent to the holder, a dead process's
tables taken over and resumed, and its late writes fenced off. Two halls in one test process,
each with a process id of its own, on one PostgreSQL database and the machine's Redis, on one
hand-driven clock (the lease time is the clock's; the renewal loop's real pauses are longer than
a test, so each round here is a ``tick`` the test makes)."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator

import pytest

from dominohall.hall import HallError, ManualClock, Options
from dominohall.hall import commands as c
from dominohall.hall.broker import MemoryBroker
from dominohall.hall.events import Resumed, from_body
from dominohall.hall.notices import TableNotice
from dominohall.hall.table_feed import WATCHER, Audience, TableChange
from dominohall.hall.wiring import HallSettings, OpenHall, open_hall, running
from dominohall.rules import DRAW

from .conftest import REDIS_URL
from .helpers import ANN, BOB, first_move, view, whose_turn
from .test_redis_broker import Heard

pytestmark = [pytest.mark.anyio, pytest.mark.postgresql]

LEASE = 30.0  # clock seconds; the renewal loop's real pause (10 s) outlasts each test


def settings(
    url: str, prefix: str, clock: ManualClock, process: str, lease: float = LEASE
) -> HallSettings:
    """One of several processes' halls on ``url``, the machine's Redis (keys under ``prefix``)
    and ``clock``, named ``process``."""
    return HallSettings(
        url,
        clock=clock,
        bot_delay=0,
        rng=random.Random(process),
        heartbeat=False,
        redis_url=REDIS_URL,
        redis_prefix=prefix,
        process_id=process,
        lease_seconds=lease,
    )


async def open_tables(hall: OpenHall, n: int) -> list[str]:
    """``n`` started tables of Ann and Bob (a relaxed timer: no deadline within a test's time)."""
    tables = []
    for _ in range(n):
        state = await hall.hall.create_table(ANN, Options.choose(seats=2, timer="relaxed"))
        await hall.hall.join(BOB, state.id, None)
        await hall.hall.start_game(ANN, state.id)
        tables.append(state.id)
    return tables


@contextlib.asynccontextmanager
async def two_halls(
    url: str, prefix: str, clock: ManualClock
) -> AsyncIterator[tuple[OpenHall, OpenHall]]:
    a, b = await asyncio.gather(
        open_hall(settings(url, prefix, clock, "hall-a")),
        open_hall(settings(url, prefix, clock, "hall-b")),
    )
    try:
        yield a, b
    finally:
        await asyncio.gather(a.close(), b.close())


def changes_in(heard: Heard) -> list[TableChange]:
    return [value for value in heard.values if isinstance(value, TableChange)]


async def play_one(through: OpenHall, table_id: str) -> int:
    """The first legal move of the person whose turn it is, sent through ``through``."""
    person = await whose_turn(through.hall, table_id, [ANN, BOB])
    move = first_move(await view(through.hall, table_id, person))
    return await through.hall.play(person, table_id, move, until_fits=move == DRAW)


async def heard_on(heard: list[TableChange | TableNotice], version: int) -> TableChange:
    """The change of ``version`` among those heard, once it has come (at most 2 s)."""
    for _ in range(200):
        for change in heard:
            if isinstance(change, TableChange) and change.version == version:
                return change
        await asyncio.sleep(0.01)
    pytest.fail(f"the change of version {version} was not heard within 2 s")


async def test_halls_started_together_split_the_live_tables(
    postgres_database: str, redis_prefix: str
) -> None:
    clock = ManualClock()
    async with running(settings(postgres_database, redis_prefix, clock, "seed")) as seed:
        tables = await open_tables(seed, 8)
    # The seed hall stopped cleanly: its leases are free at once. 5 s pass with nobody up.
    await clock.advance(5)
    async with two_halls(postgres_database, redis_prefix, clock) as (a, b):
        held_a = set(a.hall.ownership.held) if a.hall.ownership else set()
        held_b = set(b.hall.ownership.held) if b.hall.ownership else set()
        assert held_a | held_b == set(tables)
        assert not held_a & held_b
        for table_id in tables:
            holder = await a.store.table_leases.holder(table_id)
            assert holder is not None
            assert holder.owner == ("hall-a" if table_id in held_a else "hall-b")
            # Each table resumed once, by its one owner (nobody exited on ``stale``).
            events = [from_body(body) for _, _, body in await a.store.events(table_id)]
            assert [e for e in events if isinstance(e, Resumed)] == [Resumed(5.0)]


async def test_a_move_through_another_process_is_committed_by_the_owner(
    postgres_database: str, redis_prefix: str
) -> None:
    clock = ManualClock()
    async with two_halls(postgres_database, redis_prefix, clock) as (a, b):
        [table_id] = await open_tables(a, 1)
        assert a.hall.ownership is not None and a.hall.ownership.holds(table_id)
        heard: list[TableChange | TableNotice] = []
        assert b.broker is not None
        unsubscribe = b.broker.subscribe(table_id, lambda change: heard.append(change))
        await b.broker.settled()
        acked: list[int] = []
        before = (await b.hall.owner.table(table_id)).version
        person = await whose_turn(b.hall, table_id, [ANN, BOB])
        move = first_move(await view(b.hall, table_id, person))
        version = await b.hall.play(
            person, table_id, move, until_fits=move == DRAW, on_commit=acked.append
        )
        assert version > before and acked == [version]
        # Committed by A, under A's lease; B holds nothing of it.
        tokens = await a.store.table_leases.tokens(table_id)
        a_lease = a.hall.ownership.held[table_id]
        assert tokens[-1] == (version, a_lease.token)
        assert b.hall.rooms.get(table_id) is None
        # Heard on B, made for every audience (a socket of either person may be on B); or, if
        # A had counted nobody elsewhere hearing the table before, without messages (a socket
        # then asks for the whole state), and whole once A counted B.
        change = await heard_on(heard, version)
        assert change.messages == {} or all(
            change.audience_of(who.id) in change.messages for who in (ANN, BOB)
        )
        assert a.broker is not None
        for _ in range(200):
            if a.broker.heard_elsewhere(table_id):
                break
            await asyncio.sleep(0.01)
        version = await play_one(b, table_id)
        change = await heard_on(heard, version)
        for who in (ANN, BOB):
            assert change.audience_of(who.id) in change.messages
        # The whole state, asked on B, is the owner's at that version.
        seen = await b.hall.owner.view(table_id, ANN.id)
        assert seen.version == version
        # A refusal comes back as the owner's HallError.
        with pytest.raises(HallError) as refused:
            await b.hall.play(person, table_id, move, version=before)
        assert refused.value.code in {"stale", "not_your_turn", "illegal_move"}
        unsubscribe()


async def test_a_dead_processes_tables_are_taken_over_and_its_late_writes_fenced(
    postgres_database: str, redis_prefix: str
) -> None:
    clock = ManualClock()
    async with two_halls(postgres_database, redis_prefix, clock) as (a, b):
        tables = await open_tables(a, 3)
        table_id = tables[0]
        await play_one(a, table_id)
        assert a.hall.ownership is not None and b.hall.ownership is not None
        old_token = a.hall.ownership.held[table_id].token
        # A stops renewing and answering, without giving its leases up (as after kill -9); it
        # still believes it holds its tables.
        await a.hall.ownership.stop(release=False)
        assert a.link is not None
        await a.link.close()
        last_event_at = (await a.store.events(table_id))[-1][1]
        # Within the lease nobody takes them; a move through B finds A unreachable.
        await b.hall.ownership.tick()
        assert not b.hall.ownership.holds(table_id)
        with pytest.raises(HallError) as unreachable:
            await play_one(b, table_id)
        assert unreachable.value.code == "owner_unreachable"
        await clock.advance(LEASE + 1)
        await b.hall.ownership.tick()
        assert all(b.hall.ownership.holds(t) for t in tables)
        # Resumed by B: the time since A's last write (after its last renewal) given back.
        _, _, body = (await b.store.events(table_id))[-1]
        resumed = from_body(body)
        assert isinstance(resumed, Resumed)
        assert resumed.downtime == pytest.approx(clock.now() - last_event_at)
        new_token = b.hall.ownership.held[table_id].token
        assert new_token > old_token
        # A's late write is refused (fenced) and changes nothing; A lets the table go.
        count = len(await a.store.events(table_id))
        person = await whose_turn(b.hall, table_id, [ANN, BOB])
        move = first_move(await view(b.hall, table_id, person))
        with pytest.raises(HallError) as fenced:
            await a.hall.path.send(table_id, c.MakeMove(person.id, move, move == DRAW))
        assert fenced.value.code == "not_owner"
        assert len(await a.store.events(table_id)) == count
        assert a.hall.rooms.get(table_id) is None and not a.hall.ownership.holds(table_id)
        # The game goes on at B; by version, the tokens never go down.
        version = await play_one(b, table_id)
        tokens = await b.store.table_leases.tokens(table_id)
        assert tokens[-1] == (version, new_token)
        marks = [token or 0 for _, token in tokens]
        assert marks == sorted(marks)
        assert {old_token, new_token} <= set(marks)


async def test_a_command_through_another_process_is_acknowledged_at_its_own_version(
    postgres_database: str, redis_prefix: str
) -> None:
    """docs/protocol.md 3.2: an ack names the request's own version; what followed it (the
    deal after the last Next hand) comes later with its own. Sent through another process,
    the owner answered with the table's version after what followed instead."""
    clock = ManualClock()
    async with two_halls(postgres_database, redis_prefix, clock) as (a, b):
        [table_id] = await open_tables(a, 1)
        for person in (ANN, BOB):  # connected, so that the deal waits for both to be ready
            await a.hall.connect(table_id, person)
        for _ in range(200):
            if (await a.hall.owner.table(table_id)).phase.value != "playing":
                break
            await play_one(a, table_id)
        assert (await a.hall.owner.table(table_id)).phase.value == "between_hands"
        await a.hall.next_hand(ANN, table_id)
        acked: list[int] = []
        await b.hall.next_hand(BOB, table_id, on_commit=acked.append)
        events = {v: body for v, _, body in await a.store.events(table_id)}
        assert events[acked[0]] == {"kind": "ready", "seat": 1}
        assert events[acked[0] + 1]["kind"] == "dealt"  # what followed, later


async def test_a_holder_known_from_before_that_let_the_table_go_is_looked_up_again(
    postgres_database: str, redis_prefix: str
) -> None:
    """B keeps the holder of a table it sent a move to until the lease's expiry; when that
    holder stops cleanly (its leases released) B's next move finds it gone, looks again and
    takes the table over, rather than refusing the move."""
    clock = ManualClock()
    a = await open_hall(settings(postgres_database, redis_prefix, clock, "hall-a"))
    b = await open_hall(settings(postgres_database, redis_prefix, clock, "hall-b"))
    a_open = True
    try:
        [table_id] = await open_tables(a, 1)
        assert a.hall.ownership is not None and a.hall.ownership.holds(table_id)
        first = await play_one(b, table_id)  # through B: sent to A, its holder
        await a.close()
        a_open = False
        second = await play_one(b, table_id)
        assert second > first
        assert b.hall.ownership is not None and b.hall.ownership.holds(table_id)
    finally:
        if a_open:
            await a.close()
        await b.close()


async def test_a_table_taken_over_is_announced_to_the_sockets_behind_at_once(
    postgres_database: str, redis_prefix: str
) -> None:
    """A process that died between a commit and its publication leaves the other processes'
    sockets behind; the new owner tells them the table's version as soon as it has taken the
    table over, before anything else happens there (they ask for the whole state), not when a
    later change shows the gap."""
    clock = ManualClock()
    async with two_halls(postgres_database, redis_prefix, clock) as (a, b):
        state = await a.hall.create_table(ANN, Options.choose(seats=2, timer="relaxed"))
        assert a.broker is not None and b.broker is not None and a.hall.ownership is not None
        await a.broker.sent()  # (the table's first change, before B listens)
        heard: list[TableChange] = []
        b.broker.subscribe(
            state.id,
            lambda change: heard.append(change) if isinstance(change, TableChange) else None,
        )
        await b.broker.settled()
        # Bob's seat committed by A, whose publication never leaves it (as if A died then).
        a.hall.path.broker = MemoryBroker()
        joined = (await a.hall.owner.table(state.id)).version + 1
        await a.hall.join(BOB, state.id, None)
        await a.hall.ownership.stop(release=False)
        assert a.link is not None
        await a.link.close()
        await clock.advance(LEASE + 1)
        assert heard == []
        # Seating: no clock runs, so the resumption commits nothing; the announcement alone
        # brings B's sockets up to the version they missed.
        await b.hall.ownership.tick()
        assert b.hall.ownership is not None and b.hall.ownership.holds(state.id)
        await b.broker.settled()
        assert [(change.version, dict(change.messages)) for change in heard] == [(joined, {})]
        # A socket there at the old version asks for the whole state: it has Bob seated.
        seen = await b.hall.owner.view(state.id, BOB.id, joined - 1)
        assert seen.version == joined and seen.audience.seat == 1


async def test_only_the_processes_that_do_not_hold_a_table_listen_to_its_changes_in_redis(
    postgres_database: str, redis_prefix: str
) -> None:
    # The holder publishes the changes and tells its own sockets in memory (redis_broker.py);
    # each process listens to the table's notices, and the others to its changes, until the
    # table moves.
    clock = ManualClock()
    async with two_halls(postgres_database, redis_prefix, clock) as (a, b):
        state = await a.hall.create_table(ANN, Options.choose(seats=2, timer="relaxed"))
        assert a.broker is not None and b.broker is not None and a.hall.ownership is not None
        a.broker.subscribe(state.id, lambda _value: None)
        b.broker.subscribe(state.id, lambda _value: None)
        await asyncio.gather(a.broker.settled(), b.broker.settled())
        changes, notes = a.broker.table_channel(state.id), a.broker.notes_channel(state.id)
        assert notes in a.broker._confirmed and changes not in a.broker._confirmed
        assert {notes, changes} <= b.broker._confirmed
        # A's lease lost (its renewal found it gone): A listens to the changes from now on.
        a.hall.ownership.lost(state.id)
        await a.broker.settled()
        assert {notes, changes} <= a.broker._confirmed


async def test_a_table_nobody_elsewhere_hears_is_made_for_its_people_until_another_asks(
    postgres_database: str, redis_prefix: str
) -> None:
    # The owner makes the watchers' message only when someone watches or another process may
    # hear the table; another process asking about it (a socket's first state) is enough.
    clock = ManualClock()
    async with two_halls(postgres_database, redis_prefix, clock) as (a, b):
        [table_id] = await open_tables(a, 1)
        assert a.broker is not None and a.hall.ownership is not None
        await play_one(a, table_id)
        for _ in range(200):
            if not a.broker.heard_elsewhere(table_id):
                break
            await asyncio.sleep(0.01)
        room = a.hall.rooms.get(table_id)
        assert room is not None and not a.broker.heard_elsewhere(table_id)
        assert WATCHER not in a.hall.path._audiences(room)
        people = set(a.hall.path._audiences(room))
        assert {Audience(0), Audience(1)} <= people
        a.hall.listen(table_id, WATCHER)  # a watcher's socket on A itself: made for it at once
        assert a.hall.path._audiences(room) == people | {WATCHER}
        a.hall.unlisten(table_id, WATCHER)
        assert a.hall.path._audiences(room) == people
        # Nor is the table's My games listing made, until a player's socket here keeps it.
        heard = Heard("a table socket's listener on A")
        a.broker.subscribe(table_id, heard)
        await play_one(a, table_id)
        assert changes_in(heard) and all(change.listing is None for change in changes_in(heard))
        follower = Heard("a player socket's listener on A")
        stop = a.hall.follow_listing(table_id, follower)
        await play_one(a, table_id)
        assert changes_in(follower) and changes_in(follower)[-1].listing is not None
        stop()
        stop()  # (twice is harmless)
        assert a.hall.path.listed_here[table_id] == 0
        await b.hall.owner.view(table_id, None)  # (a watcher's socket on B, say)
        assert a.broker.heard_elsewhere(table_id)
        assert a.hall.path._audiences(room) == people | {WATCHER}
