"""The Redis broker against the real Redis (127.0.0.1:6379, started by `make test`): two brokers
stand for two processes. Each test has its own key and channel prefix and deletes its keys after.
The restart test and the lost subscription's run a Redis server of their own on a spare port."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
import redis.asyncio as redis

from dominohall.hall.notices import (
    Missed,
    PlayerNotice,
    Seated,
    SeatPresence,
    TableOver,
    YourTurn,
)
from dominohall.hall.redis_broker import NOTICES_TTL, RedisBroker
from dominohall.hall.table_feed import WATCHER, Audience, TableChange
from own_servers import OwnRedis, own_redis

from .conftest import REDIS_URL as URL

pytestmark = pytest.mark.anyio
__all__ = ["own_redis"]  # (a fixture)

WAIT = 5.0  # seconds anything may take to arrive before the test fails


class Heard:
    """What one listener heard, and a bounded wait for more."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.values: list[Any] = []
        self.ids: list[str] = []
        self._more = asyncio.Event()

    def __call__(self, value: Any) -> None:
        self.values.append(value)
        self._more.set()

    def with_id(self, stream_id: str, notice: PlayerNotice) -> None:
        self.ids.append(stream_id)
        self(notice)

    async def until(self, count: int, what: str) -> list[Any]:
        async def enough() -> None:
            while len(self.values) < count:
                self._more.clear()
                await self._more.wait()

        try:
            await asyncio.wait_for(enough(), WAIT)
        except TimeoutError:
            pytest.fail(f"{self.name} did not hear {what} within {WAIT} s: {self.values}")
        return self.values


async def within(condition: Callable[[], bool], what: str) -> None:
    async def wait() -> None:
        while not condition():
            await asyncio.sleep(0.01)

    try:
        await asyncio.wait_for(wait(), WAIT)
    except TimeoutError:
        pytest.fail(f"{what} did not happen within {WAIT} s")


async def settled(*brokers: RedisBroker) -> None:
    try:
        await asyncio.wait_for(asyncio.gather(*(b.settled() for b in brokers)), WAIT)
    except TimeoutError:
        pytest.fail("the brokers' subscriptions were not in place within 5 s")


def change(version: int, table: str = "t1") -> TableChange:
    return TableChange(
        table,
        version,
        version - 1,
        False,
        {"p_ann": Audience(0), "p_bob": Audience(1), "p_cid": Audience(None, 2)},
        {
            Audience(0): {"type": "update", "version": version, "events": [{"kind": "moved"}]},
            Audience(1): {"type": "update", "version": version, "hand": {"tiles": [3, 17]}},
            WATCHER: {"type": "state", "version": version, "state": {"seats": [None, 1.5]}},
        },
    )


@pytest.fixture
async def two(redis_prefix: str) -> AsyncIterator[tuple[RedisBroker, RedisBroker]]:
    """Two brokers on one Redis, as two processes of one hall would have."""
    first, second = RedisBroker(URL, prefix=redis_prefix), RedisBroker(URL, prefix=redis_prefix)
    await first.start()
    await second.start()
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


async def test_a_change_and_presence_reach_the_other_process_equal_and_this_one_once(two):
    a, b = two
    here, there = Heard("a's listener"), Heard("b's listener")
    a.subscribe("t1", here)
    b.subscribe("t1", there)
    await settled(a, b)
    a.publish("t1", change(8))
    a.notify("t1", SeatPresence(2, True))
    assert await there.until(2, "the change and the presence") == [
        change(8),
        SeatPresence(2, True),
    ]
    assert here.values == [change(8), SeatPresence(2, True)]  # told at once, in the loop
    # Once only: b's change comes after a's own through Redis, so an echo would be heard first.
    b.publish("t1", change(9))
    assert await here.until(3, "b's change") == [change(8), SeatPresence(2, True), change(9)]


async def test_the_owner_listens_to_the_notes_of_its_table_not_to_its_changes(two):
    # A table's changes are published by its owner, whose listeners have them already: it does
    # not subscribe to them (hearing them back cost it a tenth of Redis's part of a move). The
    # table's notices come from any process, on a channel of their own, which it does hear.
    a, b = two
    a.owns = lambda table_id: table_id == "t1"
    here, there = Heard("the owner's listener"), Heard("b's listener")
    a.subscribe("t1", here)
    b.subscribe("t1", there)
    await settled(a, b)
    assert a.notes_channel("t1") in a._confirmed
    assert a.table_channel("t1") not in a._confirmed
    assert {a.notes_channel("t1"), a.table_channel("t1")} <= b._confirmed
    a.publish("t1", change(8))
    b.notify("t1", SeatPresence(1, True))  # (a socket of b's)
    heard_there = await there.until(2, "the owner's change and its own notice (told at once)")
    assert len(heard_there) == 2 and change(8) in heard_there
    assert SeatPresence(1, True) in heard_there
    assert await here.until(2, "the other process's notice") == [change(8), SeatPresence(1, True)]
    # The table moves to b: a listens to its changes from then on, and hears b's.
    a.owns = lambda table_id: False
    a.owner_changed("t1")
    await settled(a)
    assert a.table_channel("t1") in a._confirmed
    b.publish("t1", change(9))
    assert await here.until(3, "the new owner's change") == [
        change(8),
        SeatPresence(1, True),
        change(9),
    ]


async def test_changes_nobody_elsewhere_hears_go_without_messages_until_someone_listens(two):
    # Redis counts who heard each change; while no other process did, the owner's changes go to
    # Redis without their messages (its own listeners have them whole), and the owner is told
    # it need not make the watchers' message. A process that comes to listen gets such a change
    # first (its sockets ask for the whole state), and whole ones after.
    a, b = two
    a.owns = lambda table_id: table_id == "t1"
    here = Heard("the owner's listener")
    a.subscribe("t1", here)
    await settled(a)
    assert a.heard_elsewhere("t1")  # not counted yet: it may be
    a.publish("t1", change(8))
    await within(lambda: not a.heard_elsewhere("t1"), "the owner learning nobody heard")
    there = Heard("b's listener")
    b.subscribe("t1", there)
    await settled(b)
    a.publish("t1", change(9))
    [stripped] = await there.until(1, "the change sent without its messages")
    assert stripped.version == 9 and stripped.messages == {}
    assert stripped.people == change(9).people  # (each socket finds its audience in it)
    await within(lambda: a.heard_elsewhere("t1"), "the owner learning b heard")
    a.publish("t1", change(10))
    assert (await there.until(2, "the next change, whole"))[1] == change(10)
    assert here.values == [change(8), change(9), change(10)]  # whole here, always
    # Another table's count is its own; a table that leaves is forgotten (counted again).
    assert a.heard_elsewhere("t2")
    a.owns = lambda table_id: False
    a.owner_changed("t1")
    assert a.heard_elsewhere("t1")


async def _owning_a_table_nobody_hears(two: tuple[RedisBroker, RedisBroker]) -> RedisBroker:
    """The first broker, owning table t1, once Redis counted nobody hearing its change 8."""
    a, _ = two
    a.owns = lambda table_id: table_id == "t1"
    a.publish("t1", change(8))
    await within(lambda: not a.heard_elsewhere("t1"), "the owner learning nobody heard")
    return a


async def test_a_count_made_before_another_process_asked_does_not_strip_the_next_change(two):
    # A process asks the owner about a table (its socket's first state) while a batch sent
    # before it listened is on its way: that batch's count of 0 is stale and is not taken.
    a = await _owning_a_table_nobody_hears(two)
    a.publish("t1", change(9))
    for _ in range(100_000):  # (every turn of the loop: the batch is on its way a moment only)
        if a._sending:
            break
        await asyncio.sleep(0)
    else:
        pytest.fail("the batch of change 9 was never seen on its way")
    a.asked_from_elsewhere("t1")  # (the batch of change 9 is on its way, counted by nobody)
    await within(lambda: not a._sending, "the batch's reply")
    assert a.heard_elsewhere("t1")


async def test_a_count_of_a_batch_still_gathering_when_asked_is_not_taken_either(two):
    # The same, asked while the change waits for its batch (the sender gathers for a moment):
    # the count is made after, but maybe before the asking process's listener was there.
    a = await _owning_a_table_nobody_hears(two)
    a.publish("t1", change(9))
    assert not a._sending  # (gathering: the sender sleeps before it takes the batch)
    a.asked_from_elsewhere("t1")
    await a.sent()
    assert a.heard_elsewhere("t1")


async def test_a_burst_of_changes_arrives_whole_in_order_and_the_echo_is_not_heard(two):
    """Thousands read off the socket at once are handled in passes (``_drain``), in order; the
    process's own, coming back from Redis, are dropped unread (``wire.sent_by``)."""
    a, b = two
    here, there = Heard("a's listener"), Heard("b's listener")
    a.subscribe("t1", here)
    b.subscribe("t1", there)
    await settled(a, b)
    burst = [change(v) for v in range(1, 3001)]
    for value in burst:
        a.publish("t1", value)
    assert here.values == burst  # told at once, in the loop
    heard = await there.until(len(burst), "the burst")
    assert [c.version for c in heard] == list(range(1, 3001)) and heard == burst
    b.publish("t1", change(3001))  # after all of a's own echoes, through the same channel
    assert (await here.until(3001, "b's change"))[3000:] == [change(3001)]


async def test_changes_of_another_table_are_not_heard(two):
    a, b = two
    t1, t2 = Heard("t1's listener"), Heard("t2's listener")
    b.subscribe("t1", t1)
    b.subscribe("t2", t2)
    await settled(b)
    a.publish("t2", change(1, "t2"))
    a.publish("t1", change(5))
    assert await t1.until(1, "t1's change") == [change(5)]
    assert await t2.until(1, "t2's change") == [change(1, "t2")]


async def test_an_unsubscribed_listener_hears_nothing_more(two):
    a, b = two
    gone, staying = Heard("the leaving listener"), Heard("the staying listener")
    unsubscribe = b.subscribe("t1", gone)
    b.subscribe("t1", staying)
    await settled(b)
    a.publish("t1", change(1))
    await gone.until(1, "the first change")
    unsubscribe()
    unsubscribe()  # twice is harmless
    a.publish("t1", change(2))
    await staying.until(2, "the second change")
    assert gone.values == [change(1)]


async def test_the_last_listener_gone_the_channel_is_let_go_and_taken_again(two, redis_prefix):
    a, b = two
    first = Heard("the first listener")
    b.subscribe("t1", first)()
    await settled(b)
    client = redis.Redis.from_url(URL)
    try:  # nobody on Redis listens to the table any more
        assert await client.pubsub_numsub(f"{redis_prefix}table:t1") == [
            (f"{redis_prefix}table:t1".encode(), 0)
        ]
    finally:
        await client.aclose()
    again = Heard("the later listener")
    b.subscribe("t1", again)
    await settled(b)
    a.publish("t1", change(3))
    assert await again.until(1, "the change") == [change(3)]
    assert first.values == []


async def test_notices_reach_the_player_on_the_other_process_in_order(two):
    a, b = two
    ann, bob = Heard("Ann's listener"), Heard("Bob's listener")
    b.listen("p_ann", ann)
    b.listen("p_bob", bob)
    await settled(b)
    told = [YourTurn("t1", 0, v, 1000.0 + v) for v in range(30)] + [TableOver("t1")]
    for notice in told:
        a.tell("p_ann", notice)
    a.tell("p_bob", Seated("t1", 1))
    assert await ann.until(len(told), "all 31 notices") == told
    assert await bob.until(1, "his notice") == [Seated("t1", 1)]


async def test_a_listener_on_the_telling_process_hears_through_the_stream_too(two):
    a, _ = two
    ann = Heard("Ann's listener")
    a.listen_with_ids("p_ann", ann.with_id)
    await settled(a)
    a.tell("p_ann", Seated("t1", 0))
    assert await ann.until(1, "the notice") == [Seated("t1", 0)]
    assert len(ann.ids) == 1 and "-" in ann.ids[0]


class CountedReads:
    """The broker's own stream reads (XREAD) counted, each still made against Redis."""

    def __init__(self, broker: RedisBroker) -> None:
        self.count = 0
        real = broker._redis.xread

        async def xread(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return await real(*args, **kwargs)

        broker._redis.xread = xread  # type: ignore[method-assign]


async def stream_ids(key: str) -> list[str]:
    client = redis.Redis.from_url(URL)
    try:
        return [entry_id.decode() for entry_id, _ in await client.xrange(key)]
    finally:
        await client.aclose()


async def test_a_listener_on_the_telling_process_is_handed_its_notices_without_a_read(two):
    # Most notices go to a socket of the process that told them (the player's own table):
    # the send's reply says which entry came just before, so the listener is given the notice
    # at once, with no wake-up heard and no XREAD.
    a, _ = two
    ann = Heard("Ann's listener")
    a.listen_with_ids("p_ann", ann.with_id)
    await settled(a)
    reads = CountedReads(a)
    told = [YourTurn("t1", 0, v, 1000.0 + v) for v in range(20)]
    for notice in told[:10]:
        a.tell("p_ann", notice)
    await ann.until(10, "the first ten notices")
    for notice in told[10:]:  # (a batch of its own: handed over after the last one's entry)
        a.tell("p_ann", notice)
    assert await ann.until(20, "all twenty notices") == told
    assert ann.ids == await stream_ids(a.stream_key("p_ann"))
    await asyncio.sleep(0.2)  # (time for the wake-ups to come back and be passed over)
    assert reads.count == 0
    assert len(ann.values) == 20


class CountedWakeUps:
    """The wake-ups a broker's receiver is handed by Redis (its own included), counted."""

    def __init__(self, broker: RedisBroker) -> None:
        self.count = 0
        real = broker._handle

        def handle(message: dict[str, Any]) -> None:
            if message["type"] == "message" and b":wake:" in message["channel"]:
                self.count += 1
            real(message)

        broker._handle = handle  # type: ignore[method-assign]


async def test_a_wake_up_is_sent_only_when_another_process_listens(two):
    # Ann's table socket and her page's socket are most often on one process: its own
    # wake-ups, a notice a move, came back to it from Redis only to be passed over.
    a, b = two
    ann_at_a, ann_at_b = Heard("Ann's listener at a"), Heard("Ann's listener at b")
    a.listen("p_ann", ann_at_a)
    await settled(a)
    woken = CountedWakeUps(a)
    for v in range(5):
        a.tell("p_ann", YourTurn("t1", 0, v, 0.0))
    await ann_at_a.until(5, "its five notices")
    await a.sent()
    await asyncio.sleep(0.2)  # (time for a wake-up to come back, were one sent)
    assert woken.count == 0
    # Listening on b too: its wake-ups are sent (a hears them as well, and passes them over).
    stop_b = b.listen("p_ann", ann_at_b)
    await settled(b)
    a.tell("p_ann", TableOver("t1"))
    assert await ann_at_b.until(1, "the notice told at a") == [TableOver("t1")]
    await within(lambda: woken.count == 1, "a's own wake-up heard back")
    # b gone again: none sent.
    stop_b()
    await within(lambda: f"{b.prefix}wake:p_ann" not in b._confirmed, "b unsubscribed")
    a.tell("p_ann", Seated("t2", 1))
    await ann_at_a.until(7, "the last notice")
    await a.sent()
    await asyncio.sleep(0.2)
    assert woken.count == 1


async def test_a_process_whose_subscription_was_lost_wakes_again_whom_it_told(
    own_redis: OwnRedis, redis_prefix: str
) -> None:
    # The script counts a as listening, as a last saw; had Redis dropped a's subscription
    # before a noticed, a listener elsewhere was not woken. Once a's receiver finds its
    # connection gone and subscribes again, it wakes again the players it told shortly before.
    # (On a Redis of the test's own: its only subscribers are a's and b's.)
    await own_redis.up()
    a = RedisBroker(own_redis.url, prefix=redis_prefix)
    b = RedisBroker(own_redis.url, prefix=redis_prefix)
    await a.start()
    await b.start()
    try:
        ann_at_b = Heard("Ann's listener at b")
        b.listen("p_ann", ann_at_b)
        for player in ("p_x", "p_y"):  # (a's subscriber told from b's by its count of channels)
            a.listen(player, Heard(f"{player}'s listener at a"))
        await settled(a, b)
        a_channels = len(a._confirmed)
        assert a_channels != len(b._confirmed)
        wake = f"{a.prefix}wake:p_ann"
        a._wanted.add(wake)  # (as a believed: subscribed and confirmed, where Redis dropped it)
        a._confirmed.add(wake)
        a.tell("p_ann", Seated("t1", 0))
        await a.sent()
        await asyncio.sleep(0.3)
        assert ann_at_b.values == []  # counted 1 listener, a itself: no wake-up for b
        a._wanted.discard(wake)
        # Redis drops a's subscription (``CLIENT KILL``): a's receiver finds out now.
        admin = redis.Redis.from_url(own_redis.url)
        try:
            subscribers = await admin.client_list(_type="pubsub")
            [a_subscriber] = [c for c in subscribers if int(c["sub"]) == a_channels]
            assert await admin.client_kill_filter(_id=a_subscriber["id"]) == 1
        finally:
            await admin.aclose()
        assert await ann_at_b.until(1, "the notice, once woken again") == [Seated("t1", 0)]
    finally:
        await a.close()
        await b.close()


async def test_notices_told_by_two_processes_at_once_reach_a_listener_in_the_streams_order(two):
    # A notice of the other process may land between the listener's cursor and this process's
    # own: the hand-over then waits for the stream to be read, so none is skipped or repeated.
    a, b = two
    ann = Heard("Ann's listener on the first process")
    a.listen_with_ids("p_ann", ann.with_id)
    await settled(a)
    for round_ in range(5):
        for v in range(20):
            (a if v % 2 else b).tell("p_ann", YourTurn("t1", 0, 100 * round_ + v, 0.0))
        await asyncio.sleep(0.003 * round_)  # (batches cut at different places each round)
    await ann.until(100, "the hundred notices of both processes")
    ids = await stream_ids(a.stream_key("p_ann"))
    assert ann.ids == ids
    assert len(set(ann.values)) == 100


async def test_a_listener_behind_on_the_telling_process_reads_what_it_missed_first(two):
    a, _ = two
    for v in range(3):
        a.tell("p_ann", YourTurn("t1", 0, v, 0.0))
    await within(lambda: not a._notices and not a._sending, "the first notices sent")
    late = Heard("a socket resuming from the start")
    a.listen_with_ids("p_ann", late.with_id, after="0")
    a.tell("p_ann", TableOver("t1"))
    expected = [*(YourTurn("t1", 0, v, 0.0) for v in range(3)), TableOver("t1")]
    assert await late.until(4, "the three kept notices, then the new one") == expected
    assert late.ids == await stream_ids(a.stream_key("p_ann"))


async def test_a_player_who_stopped_listening_hears_nothing_more(two):
    a, b = two
    gone, staying = Heard("the stopped listener"), Heard("the other listener")
    stop = b.listen("p_ann", gone)
    b.listen("p_ann", staying)
    await settled(b)
    a.tell("p_ann", Seated("t1", 0))
    await gone.until(1, "the first notice")
    stop()
    a.tell("p_ann", TableOver("t1"))
    await staying.until(2, "the second notice")
    assert gone.values == [Seated("t1", 0)]


async def test_a_listener_resuming_from_an_old_id_gets_what_it_missed_then_what_comes(two):
    a, b = two
    first = Heard("the socket before its reconnect")
    watcher = Heard("another listener")
    stop = b.listen_with_ids("p_ann", first.with_id)
    b.listen("p_ann", watcher)
    await settled(b)
    a.tell("p_ann", Seated("t1", 0))
    a.tell("p_ann", YourTurn("t1", 0, 3, 100.0))
    await first.until(2, "the first two notices")
    last_seen = first.ids[-1]
    stop()
    missed = [YourTurn("t1", 0, 5, 200.0), TableOver("t1")]
    for notice in missed:
        a.tell("p_ann", notice)
    await watcher.until(4, "the notices told while the socket was away")
    resumed = Heard("the socket after its reconnect")
    b.listen("p_ann", resumed, after=last_seen)
    assert await resumed.until(2, "the missed notices") == missed
    a.tell("p_ann", Seated("t2", 1))
    assert await resumed.until(3, "the new notice") == [*missed, Seated("t2", 1)]
    everything = Heard("a listener from the start")
    a.listen("p_ann", everything, after="0")
    assert await everything.until(5, "every notice kept") == [
        Seated("t1", 0),
        YourTurn("t1", 0, 3, 100.0),
        *missed,
        Seated("t2", 1),
    ]


# Redis restarted: its own server on a spare port, never the shared one.


async def test_the_brokers_come_back_after_redis_restarts(
    caplog: pytest.LogCaptureFixture, own_redis: OwnRedis
) -> None:
    caplog.set_level(logging.INFO, logger="dominohall.redis")
    a = RedisBroker(own_redis.url, prefix="restart:")
    b = RedisBroker(own_redis.url, prefix="restart:")
    try:
        await own_redis.up()
        await a.start()
        await b.start()
        table, ann = Heard("b's table listener"), Heard("b's player listener")
        b.subscribe("t1", table)
        b.listen("p_ann", ann)
        await settled(a, b)
        a.publish("t1", change(1))
        a.tell("p_ann", Seated("t1", 0))
        await table.until(1, "the change before the restart")
        await ann.until(1, "the notice before the restart")

        own_redis.stop()
        await within(lambda: a.down and b.down, "both brokers finding Redis down")
        a.publish("t1", change(2))  # dropped: b's sockets would resync at the next change
        a.tell("p_ann", TableOver("t1"))  # kept until Redis is back

        own_redis.start()
        await own_redis.up()
        await within(lambda: not a.down and not b.down, "both brokers finding Redis back")
        assert await ann.until(2, "the notice told while Redis was down") == [
            Seated("t1", 0),
            TableOver("t1"),
        ]
        await settled(a, b)
        a.publish("t1", change(3))
        # The listener told it may have missed changes (once its channel is heard again: a
        # socket then asks for the whole state), then the change after the restart.
        assert await table.until(3, "the change after the restart") == [
            change(1),
            Missed(),
            change(3),
        ]
        messages = [r.getMessage() for r in caplog.records]
        assert sum("unreachable" in m for m in messages) == 2  # once per broker
        assert sum("reachable again" in m for m in messages) == 2
    finally:
        await a.close()
        await b.close()


async def test_a_table_listener_is_subscribed_once_subscribed_returns(two):
    """A socket reads its first state once its table's channel is subscribed
    (``Broker.subscribed``, web/socket.py): a change published by another process from then on
    reaches it, none falls between that state and what it hears."""
    a, b = two
    heard = Heard("b's new listener")
    b.subscribe("t7", heard)
    await asyncio.wait_for(b.subscribed("t7"), WAIT)
    a.publish("t7", change(4, "t7"))  # at once: no settling but subscribed's
    assert await heard.until(1, "the change published right after") == [change(4, "t7")]
    await asyncio.wait_for(b.subscribed("t7"), 0.1)  # subscribed already: at once


async def test_a_players_stream_keeps_its_expiry_renewed_an_hour_apart(two, redis_prefix):
    # Each notice's stream expires a week after it was last renewed; a process renews it with
    # the first notice it tells and then once an hour at most (an EXPIRE per notice was a fifth
    # of the broker's commands), and again after losing track (here: its memory of it cleared,
    # as when Redis went away).
    a, _ = two
    key = a.stream_key("p_ann")
    client = redis.Redis.from_url(URL)
    try:
        a.tell("p_ann", Seated("t1", 0))
        await within(lambda: key in a._expiry_renewed, "the first notice sent")
        await within(lambda: not a._sending, "the first notice's batch written")
        assert 0 < await client.ttl(key) <= NOTICES_TTL
        await client.persist(key)  # (no expiry now: whether the next notice renews it shows)
        a.tell("p_ann", Seated("t1", 1))
        await within(lambda: not a._changes and not a._notices and not a._sending, "sent")
        assert await client.xlen(key) == 2
        assert await client.ttl(key) == -1  # within the hour: not renewed
        a._expiry_renewed.clear()
        a.tell("p_ann", Seated("t1", 2))
        await within(lambda: key in a._expiry_renewed, "the third notice sent")
        await within(lambda: not a._sending, "the third notice's batch written")
        assert 0 < await client.ttl(key) <= NOTICES_TTL
    finally:
        await client.aclose()
