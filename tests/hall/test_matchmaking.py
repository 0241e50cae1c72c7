"""The matchmaking queue: everyone ends in exactly one game of their own pool, close ratings first."""

from __future__ import annotations

import asyncio
import random
from collections import Counter

import pytest

from dominohall.hall.matchmaking import (
    WINDOW_GROWTH,
    WINDOW_START,
    Bucket,
    MemoryQueue,
    Pairing,
    QueueError,
    Seeker,
)
from dominohall.hall.ratings import Speed
from dominohall.hall.redis_queue import _bucket, bucket_key

pytestmark = pytest.mark.anyio
RT = Speed.REAL_TIME


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _join(q: MemoryQueue, player: str, rating: int, now: float = 0.0, **kw: object) -> Seeker:
    args = {"pool": "draw", "players": 2, "speed": RT, "ranked": True, **kw}
    return q.join(player, rating=rating, now=now, **args)  # type: ignore[arg-type]


async def test_200_seekers_at_once_in_mixed_pools_each_end_in_exactly_one_game() -> None:
    rng = random.Random(11)
    # Buckets whose sizes are multiples of their player count, so that everyone can be seated.
    plan = [
        ("draw", 2, RT, True, 40),
        ("draw", 3, RT, True, 30),
        ("draw", 4, Speed.TURN_BASED, True, 24),
        ("block", 2, RT, True, 26),
        ("all-fives", 3, RT, False, 24),
        ("partnership", 4, RT, True, 32),
        ("partnership", 4, RT, False, 24),
    ]
    seekers = [
        (f"p{i}", pool, n, speed, ranked, rng.randint(900, 2200))
        for i, (pool, n, speed, ranked) in enumerate(
            (pool, n, speed, ranked) for pool, n, speed, ranked, k in plan for _ in range(k)
        )
    ]
    assert len(seekers) == 200
    rng.shuffle(seekers)
    q = MemoryQueue()
    now = 0.0
    pairings: list[Pairing] = []
    done = asyncio.Event()

    async def seek(player: str, pool: str, n: int, speed: Speed, ranked: bool, r: int) -> None:
        await asyncio.sleep(0)
        q.join(player, pool, n, speed=speed, ranked=ranked, rating=r, now=now)

    async def pair() -> None:
        nonlocal now
        while not done.is_set():
            pairings.extend(q.pair(now))
            now += 1.0
            await asyncio.sleep(0)

    pairing = asyncio.create_task(pair())
    await asyncio.gather(*(seek(*s) for s in seekers))
    while sum(len(p.seekers) for p in pairings) < 200 and now < 1000:
        await asyncio.sleep(0)
    done.set()
    await pairing

    seated = Counter(player for p in pairings for player in p.players)
    assert set(seated) == {s[0] for s in seekers} and set(seated.values()) == {1}
    wanted = {s[0]: Bucket(s[1], s[2], s[3], s[4]) for s in seekers}
    for p in pairings:
        assert len(p.seekers) == p.bucket.players
        assert all(wanted[player] == p.bucket for player in p.players)
    assert all(q.seeking(s[0]) is None for s in seekers)


def test_close_ratings_are_paired_first_and_the_window_widens_with_waiting() -> None:
    q = MemoryQueue()
    _join(q, "ann", 1500)
    _join(q, "bob", 1900)
    _join(q, "cid", 1530)
    [p] = q.pair(0.0)
    assert set(p.players) == {"ann", "cid"} and p.rating_gap == 30
    _join(q, "dan", 1500, now=0.0)
    seconds = (400 - WINDOW_START) / WINDOW_GROWTH  # until both windows reach 400 points
    assert q.pair(seconds - 1) == []
    assert q.status(p.bucket).waiting == 2
    [p2] = q.pair(seconds)
    assert set(p2.players) == {"bob", "dan"}
    assert q.status(p.bucket).average_wait == pytest.approx(seconds / 2)


def test_casual_quick_play_pairs_anyone_first_come() -> None:
    q = MemoryQueue()
    _join(q, "guest-1", 0, ranked=False)
    _join(q, "ann", 2400, ranked=False)
    [p] = q.pair(0.0)
    assert set(p.players) == {"guest-1", "ann"}


def test_one_queue_at_a_time_and_one_unfinished_real_time_ranked_game() -> None:
    q = MemoryQueue()
    _join(q, "ann", 1500)
    with pytest.raises(QueueError, match="ann is already in a queue"):
        _join(q, "ann", 1500, pool="block")
    _join(q, "bob", 1500)
    [p] = q.pair(0.0)
    with pytest.raises(QueueError, match="ann has an unfinished real-time ranked game"):
        _join(q, "ann", 1500)
    # Turn-based and casual games have no such limit.
    _join(q, "ann", 1500, speed=Speed.TURN_BASED)
    assert q.cancel("ann") and not q.cancel("ann")
    q.game_over(p.id)
    _join(q, "ann", 1500)


def test_a_join_the_pool_cannot_take_is_refused() -> None:
    q = MemoryQueue()
    with pytest.raises(QueueError, match=r"pool partnership is played by \(4,\) players, not 2"):
        _join(q, "ann", 1500, pool="partnership")
    with pytest.raises(ValueError, match="unknown pool 'chess'"):
        _join(q, "ann", 1500, pool="chess")
    assert q.seeking("ann") is None


def test_no_rematch_at_once_while_someone_else_waits() -> None:
    q = MemoryQueue()
    _join(q, "ann", 1500)
    _join(q, "bob", 1500)
    [p] = q.pair(0.0)
    q.game_over(p.id)
    _join(q, "ann", 1500, now=10.0)
    _join(q, "bob", 1500, now=10.0)
    _join(q, "cid", 1560, now=10.0)
    assert q.pair(10.0) == []  # ann and bob would fit at once, but cid waits too
    [p2] = q.pair(11.0)  # windows of 60: cid fits
    assert set(p2.players) in ({"ann", "cid"}, {"bob", "cid"})
    # Only the two of them left: they may play again.
    q.game_over(p2.id)
    q2 = MemoryQueue()
    _join(q2, "ann", 1500)
    _join(q2, "bob", 1500)
    q2.game_over(q2.pair(0.0)[0].id)
    _join(q2, "ann", 1500, now=5.0)
    _join(q2, "bob", 1500, now=5.0)
    assert len(q2.pair(5.0)) == 1


def _played(q: MemoryQueue, *pairs: tuple[str, str]) -> None:
    """Each pair plays a 2-player draw game (aborted or not: the queue only knows it ended)."""
    for a, b in pairs:
        _join(q, a, 1500)
        _join(q, b, 1500)
        [p] = q.pair(0.0)
        assert set(p.players) == {a, b}
        q.game_over(p.id)


def test_a_group_holding_recent_opponents_forms_when_nobody_else_waits() -> None:
    q = MemoryQueue()
    _played(q, ("ann", "bob"), ("cid", "dan"))
    for name in ("ann", "bob", "cid", "dan"):
        _join(q, name, 1500, now=10.0, players=4)
    [four] = q.pair(10.0)  # every group of these four holds two who just played: no one to wait for
    assert set(four.players) == {"ann", "bob", "cid", "dan"}

    q = MemoryQueue()
    _played(q, ("ann", "bob"))
    for name in ("ann", "bob", "eve"):
        _join(q, name, 1500, now=10.0, players=3)
    [three] = q.pair(10.0)
    assert set(three.players) == {"ann", "bob", "eve"}


def test_rated_recent_opponents_group_once_their_windows_meet() -> None:
    q = MemoryQueue()
    _played(q, ("ann", "bob"), ("cid", "dan"))
    for name, rating in (("ann", 1422), ("bob", 1578), ("cid", 1422), ("dan", 1578)):
        _join(q, name, rating, now=10.0, players=4)
    spread = 1578 - 1422
    meet = 10.0 + (spread - WINDOW_START) / WINDOW_GROWTH  # every window is the spread wide
    assert q.pair(meet - 0.5) == []
    [four] = q.pair(meet + 0.5)
    assert set(four.players) == {"ann", "bob", "cid", "dan"}


def test_a_group_leaves_out_recent_opponents_while_a_fresh_group_can_form() -> None:
    q = MemoryQueue()
    _played(q, ("ann", "bob"))
    for name in ("ann", "bob", "cid", "dan", "eve"):
        _join(q, name, 1500, now=10.0, players=4)
    [four] = q.pair(10.0)
    assert not {"ann", "bob"} <= set(four.players)
    assert len(set(four.players) & {"cid", "dan", "eve"}) == 3


def test_partnership_teams_are_balanced() -> None:
    q = MemoryQueue()
    for name, r in (("ann", 1500), ("bob", 1560), ("cid", 1540), ("dan", 1510)):
        _join(q, name, r, pool="partnership", players=4)
    [p] = q.pair(1.0)  # a window of 60 points each
    r = [s.rating for s in p.seekers]
    assert abs((r[0] + r[2]) - (r[1] + r[3])) == 10  # {1500, 1560} against {1540, 1510}


def test_arena_seekers_are_paired_only_with_arena_seekers():
    queue = MemoryQueue()
    queue.join("ann", "draw", 2, speed=RT, ranked=True, rating=1500, now=0.0, arena=True)
    queue.join("bob", "draw", 2, speed=RT, ranked=True, rating=1500, now=0.0)
    assert queue.pair(100.0) == []  # the same rating, pool and speed, but not both arena
    queue.join("cid", "draw", 2, speed=RT, ranked=True, rating=1900, now=50.0, arena=True)
    [pairing] = queue.pair(100.0)
    assert set(pairing.players) == {"ann", "cid"} and pairing.bucket.arena
    with pytest.raises(QueueError, match="arena seek must be ranked"):
        queue.join("dee", "draw", 2, speed=RT, ranked=False, rating=0, now=0.0, arena=True)


def test_an_arena_bucket_keeps_its_name_in_redis():
    for arena in (False, True):
        bucket = Bucket("draw", 2, RT, True, arena)
        assert _bucket(bucket_key(bucket)) == bucket
    assert bucket_key(Bucket("draw", 2, RT, True)) == "draw|2|real-time|1"  # as before
