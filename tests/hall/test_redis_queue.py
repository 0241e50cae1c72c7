"""The queue shared in Redis (``redis_queue.py``): two processes' views of it agree on joins,
cancels, status and where a pairing seated each player; a seeker is in at most one game however
rounds and cancels interleave; a seeker nowhere there for the grace leaves. Each ``RedisSeekers``
here stands for one process, all on the machine's Redis under the test's own prefix."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import pytest

from dominohall.hall import Person
from dominohall.hall.matchmaking import QueueError
from dominohall.hall.ratings import Speed
from dominohall.hall.redis_queue import RedisSeekers
from dominohall.hall.seeking import AWAY_GRACE, Found

from .conftest import REDIS_URL
from .helpers import ANN, BOB, CID, DEE

pytestmark = pytest.mark.anyio
RT = Speed.REAL_TIME


@pytest.fixture
async def two(redis_prefix: str) -> AsyncIterator[tuple[RedisSeekers, RedisSeekers]]:
    a = RedisSeekers(REDIS_URL, prefix=redis_prefix)
    b = RedisSeekers(REDIS_URL, prefix=redis_prefix)
    yield a, b
    await a.close()
    await b.close()


async def _join(q: RedisSeekers, person: Person, rating: int = 1500, **kw: Any) -> None:
    pool, players = kw.pop("pool", "draw"), kw.pop("players", 2)
    args: dict[str, Any] = {"speed": RT, "ranked": True, "now": 0.0, **kw}
    await q.join(person, pool, players, rating=rating, **args)


async def test_joins_cancels_and_status_agree_whichever_process_is_asked(two):
    a, b = two
    await _join(a, ANN)
    seeker = await b.seeking(ANN.id)
    assert seeker is not None and seeker.bucket.pool == "draw" and seeker.rating == 1500
    with pytest.raises(QueueError, match="p_ann is already in a queue"):
        await _join(b, ANN, pool="block")
    with pytest.raises(QueueError, match=r"pool partnership is played by \(4,\) players, not 2"):
        await _join(b, BOB, pool="partnership")
    assert (await b.status(seeker)).waiting == 1 and await b.anyone()
    assert await b.cancel(ANN.id) and not await a.cancel(ANN.id)
    assert await a.seeking(ANN.id) is None and not await a.anyone()
    assert (await a.status(seeker)).waiting == 0


async def test_two_seekers_on_two_processes_are_paired_once_and_held_by_their_game(two):
    a, b = two
    await _join(a, ANN)
    await _join(b, BOB, rating=1530)
    await _join(b, CID, rating=1900)  # out of reach
    [(pairing, people)] = await a.pair(1.0)
    assert set(pairing.players) == {ANN.id, BOB.id} and set(people) == {ANN, BOB}
    assert await b.pair(1.0) == []  # already out of the queue
    assert await b.seeking(ANN.id) is None and await a.seeking(CID.id) is not None
    cid = await a.seeking(CID.id)
    assert cid is not None and (await b.status(cid)).average_wait == pytest.approx(1.0)
    assert await a.held(ANN.id) is None  # (no table yet)
    await a.seated(pairing, "t1")
    assert await b.found(BOB.id) == Found("t1", pairing.id)
    assert await b.held(BOB.id) == Found("t1", pairing.id)
    with pytest.raises(QueueError, match="p_bob has an unfinished real-time ranked game"):
        await _join(b, BOB)
    await _join(b, BOB, speed=Speed.TURN_BASED)  # other games: no such limit
    assert await b.found(BOB.id) is None  # a new seek forgets the last pairing's table
    assert await b.cancel(BOB.id)
    await b.game_over(pairing.id)
    assert await a.held(ANN.id) is None
    await _join(a, ANN, now=10.0)
    # No rematch at once while someone else waits: Ann and Bob are not paired again, Dee is.
    await _join(b, BOB, now=10.0)
    await _join(b, DEE, rating=1560, now=10.0)
    assert await a.pair(10.0) == []
    [(again, _)] = await a.pair(11.0)  # windows of 60: Dee fits
    assert DEE.id in again.players and again.id != pairing.id


async def test_two_processes_pairing_at_once_seat_each_seeker_in_one_game(two):
    a, b = two
    people = [Person(f"p{i}", f"P{i}") for i in range(40)]
    made = []
    for round_ in range(5):
        await asyncio.gather(*(_join((a, b)[i % 2], p) for i, p in enumerate(people[round_::5])))
        for found in await asyncio.gather(a.pair(float(round_)), b.pair(float(round_))):
            made += [pairing for pairing, _ in found]
    seated = Counter(player for pairing in made for player in pairing.players)
    assert set(seated.values()) == {1} and len(seated) == 40
    assert len({pairing.id for pairing in made}) == 20
    assert not await a.anyone()


async def test_a_seeker_who_cancels_or_seeks_again_while_a_round_pairs_is_not_taken(two):
    a, b = two
    real_take = a._take
    racing: list[str] = []

    async def take_after_a_race(*, args: list[Any]) -> Any:
        if racing:  # between the round's read of the queue and its take
            player = racing.pop()
            assert await b.cancel(player)
            if player == BOB.id:  # Bob seeks again at once: a new join, not the one read
                await _join(b, BOB)
        return await real_take(args=args)

    a._take = take_after_a_race  # type: ignore[method-assign]
    await _join(a, ANN)
    await _join(b, BOB)
    racing.append(ANN.id)
    assert await a.pair(1.0) == []  # Ann's cancel won: nobody paired, Bob waits
    assert await a.seeking(ANN.id) is None and await a.seeking(BOB.id) is not None
    await _join(a, CID)
    racing.append(BOB.id)
    assert await a.pair(1.0) == []
    [(pairing, _)] = await a.pair(1.0)  # the next round reads Bob's new seek
    assert set(pairing.players) == {BOB.id, CID.id}
    # The other way round: a cancel after the take finds nobody to cancel.
    await _join(a, ANN)
    await _join(b, DEE)
    [(pairing, _)] = await a.pair(2.0)
    assert not await b.cancel(ANN.id) and set(pairing.players) == {ANN.id, DEE.id}


async def test_cancels_racing_rounds_never_leave_a_cancelled_seeker_in_a_game(two):
    a, b = two
    for i in range(30):
        first, second = Person(f"x{i}", "X"), Person(f"y{i}", "Y")
        await _join(a, first)
        await _join(b, second)
        found, cancelled = await asyncio.gather(a.pair(0.0), b.cancel(first.id))
        paired = {player for pairing, _ in found for player in pairing.players}
        assert cancelled == (first.id not in paired)
        assert (second.id in paired) == (first.id in paired)
        await b.cancel(second.id)


async def test_a_real_time_seeker_there_by_no_look_and_no_socket_leaves_after_the_grace(two):
    a, b = two
    await _join(a, ANN)
    await _join(a, BOB, pool="block")
    await _join(a, CID, speed=Speed.TURN_BASED)
    await a.looked(ANN.id, 20.0)
    await a.looked(BOB.id, 20.0)
    await a.looked(CID.id, 20.0)
    await b.sockets([BOB.id], 30.0, {})  # Bob's page is open on the other process
    assert await a.drop_away(20.0 + AWAY_GRACE, here=()) == []
    assert await a.drop_away(20.5 + AWAY_GRACE, here=()) == [ANN.id]
    assert await a.drop_away(20.5 + AWAY_GRACE, here=[BOB.id]) == []  # (open here too)
    await b.sockets([], 0.0, {BOB.id: 25.0})  # ... until it closed at 25
    assert await a.drop_away(25.0 + AWAY_GRACE, here=()) == []
    assert await a.drop_away(25.5 + AWAY_GRACE, here=()) == [BOB.id]
    assert await a.seeking(ANN.id) is None and await a.seeking(BOB.id) is None
    assert await a.drop_away(10_000.0, here=()) == []  # a turn-based seek waits on
    assert await a.seeking(CID.id) is not None
