"""The rate limits' buckets in Redis (``web/redis_buckets.py``): the same arithmetic as in memory
(each test of it runs on both), a key that expires once its bucket would be full, one limit for
two processes (two ``Guard``s on one Redis, as two processes have), and what a limit does when
Redis cannot be reached. On the machine's Redis, under the test's own prefix; the buckets' clock
is the test's."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable

import pytest
import redis.asyncio as redis

from dominohall.hall import HallError
from dominohall.web.ratelimit import Buckets, Guard, Limit, Limits, MemoryBuckets, TooMany
from dominohall.web.redis_buckets import RedisBuckets, RedisLimits
from dominohall.web.statuses import status_of
from redis_service import REDIS_URL

pytestmark = pytest.mark.anyio

UNREACHABLE = "redis://127.0.0.1:1/0"  # nothing listens on port 1


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Clock:
    """A process's clock, moved by hand."""

    def __init__(self, at: float = 1000.0) -> None:
        self.at = at

    def now(self) -> float:
        return self.at


@pytest.fixture
async def client() -> AsyncIterator[redis.Redis]:
    client = redis.Redis.from_url(REDIS_URL, decode_responses=True)
    yield client
    await client.aclose()


MakeBuckets = Callable[[Limit | None], Buckets]


@pytest.fixture(params=["memory", "redis"])
def make(request: pytest.FixtureRequest, redis_prefix: str, client: redis.Redis) -> MakeBuckets:
    """Buckets of a limit on the test's clock (``make.clock``), in memory or in Redis."""
    clock = Clock()

    def buckets(limit: Limit | None) -> Buckets:
        if request.param == "memory":
            return MemoryBuckets(limit, clock.now)
        return RedisBuckets(client, "test", limit, clock.now, prefix=redis_prefix)

    buckets.clock = clock  # type: ignore[attr-defined]
    return buckets


async def takes(buckets: Buckets, key: str, n: int) -> list[float]:
    return [await buckets.take(key) for _ in range(n)]


async def test_a_bucket_gives_its_tokens_then_says_when_the_next_is_back(make):
    buckets = make(Limit(3, 30))  # 3 at once, then one each 10 s
    assert await takes(buckets, "a", 3) == [0, 0, 0]
    assert await buckets.take("a") == pytest.approx(10)
    assert await buckets.take("a") == pytest.approx(10)  # a refusal takes nothing
    assert await buckets.take("b") == 0  # each key its own bucket
    make.clock.at += 4
    assert await buckets.take("a") == pytest.approx(6)
    make.clock.at += 6
    assert await buckets.take("a") == 0
    assert await buckets.take("a") == pytest.approx(10)
    make.clock.at += 25  # 2.5 tokens back
    assert await takes(buckets, "a", 3) == [0, 0, pytest.approx(5)]
    make.clock.at += 1000  # never more than full
    assert await takes(buckets, "a", 4) == [0, 0, 0, pytest.approx(10)]


async def test_a_token_given_back_and_a_bucket_reset(make):
    buckets = make(Limit(3, 30))
    assert await takes(buckets, "a", 4) == [0, 0, 0, pytest.approx(10)]
    await buckets.give_back("a")
    assert await takes(buckets, "a", 2) == [0, pytest.approx(10)]
    await buckets.reset("a")
    assert await takes(buckets, "a", 4) == [0, 0, 0, pytest.approx(10)]
    await buckets.give_back("b")  # a full bucket stays full
    await buckets.give_back("b")
    assert await takes(buckets, "b", 4) == [0, 0, 0, pytest.approx(10)]
    await buckets.take("c")
    await buckets.give_back("c")
    await buckets.give_back("c")  # never beyond full
    assert await takes(buckets, "c", 4) == [0, 0, 0, pytest.approx(10)]


async def test_no_limit_refuses_nothing(make):
    buckets = make(None)
    assert await takes(buckets, "a", 100) == [0] * 100
    await buckets.give_back("a")
    await buckets.reset("a")


async def test_a_bucket_expires_once_it_would_be_full(redis_prefix, client):
    clock = Clock()
    buckets = RedisBuckets(client, "test", Limit(4, 40), clock.now, prefix=redis_prefix)
    key = buckets.key("a")
    await buckets.take("a")
    assert 9_000 < await client.pttl(key) <= 10_000  # one token short: full in 10 s
    await buckets.take("a")
    assert 19_000 < await client.pttl(key) <= 20_000
    assert float(await client.hget(key, "tokens")) == pytest.approx(2)
    await buckets.give_back("a")
    await buckets.give_back("a")
    assert not await client.exists(key)  # full: no key at all
    # Gone by itself once full: a bucket emptied is full again after its refill, in real time,
    # though this hall's clock stands still (a memory bucket would still refuse).
    quick = RedisBuckets(client, "quick", Limit(2, 0.3), clock.now, prefix=redis_prefix)
    assert await takes(quick, "a", 3) == [0, 0, pytest.approx(0.15)]
    await asyncio.sleep(0.4)
    assert not await client.exists(quick.key("a"))
    assert await takes(quick, "a", 3) == [0, 0, pytest.approx(0.15)]
    buckets.forget_full()  # nothing to do


async def test_a_process_whose_clock_is_behind_refills_nothing(redis_prefix, client):
    ahead, behind = Clock(1000), Clock(990)
    a = RedisBuckets(client, "test", Limit(3, 30), ahead.now, prefix=redis_prefix)
    b = RedisBuckets(client, "test", Limit(3, 30), behind.now, prefix=redis_prefix)
    assert await takes(a, "k", 2) == [0, 0]
    behind.at += 9  # still behind the stamp: no token back, and the stamp is not moved back...
    assert await takes(b, "k", 2) == [0, pytest.approx(10)]
    assert await a.take("k") == pytest.approx(10)  # ...or its 10 s would be counted again here
    ahead.at += 10
    assert await a.take("k") == 0


async def test_takes_at_once_from_two_processes_count_each_once(redis_prefix):
    clock = Clock()
    one = RedisLimits(REDIS_URL, prefix=redis_prefix, now=clock.now)
    two = RedisLimits(REDIS_URL, prefix=redis_prefix, now=clock.now)
    try:
        a = one.buckets_of()("tables", Limit(5, 60))
        b = two.buckets_of()("tables", Limit(5, 60))
        waits = await asyncio.gather(*(x.take("k") for x in [a, b] * 10))
        assert sum(1 for wait in waits if wait == 0) == 5
    finally:
        await one.close()
        await two.close()


async def two_guards(limits: Limits, redis_prefix: str, clock: Clock) -> tuple[Guard, Guard, list]:
    """Two processes' guards on one Redis, and what to close."""
    shared = [RedisLimits(REDIS_URL, prefix=redis_prefix, now=clock.now) for _ in range(2)]
    return Guard(limits, shared[0].buckets_of()), Guard(limits, shared[1].buckets_of()), shared


async def test_two_processes_share_one_limit_of_new_tables(redis_prefix):
    clock = Clock()
    a, b, shared = await two_guards(Limits(tables_per_address=Limit(3, 60)), redis_prefix, clock)
    try:
        await a.new_table("203.0.113.5", 0)
        await a.new_table("203.0.113.5", 0)
        await b.new_table("203.0.113.5", 0)
        for guard in (a, b):
            with pytest.raises(TooMany) as refused:
                await guard.new_table("203.0.113.5", 0)
            assert refused.value.code == "too_many_tables" and refused.value.retry_after == 20
        await b.new_table("198.51.100.7", 0)  # another address has its own
        await b.table_not_made("203.0.113.5")  # refused after all: given back, for both
        await a.new_table("203.0.113.5", 0)
        with pytest.raises(TooMany):
            await b.new_table("203.0.113.5", 0)
        clock.at += 20
        await b.new_table("203.0.113.5", 0)
    finally:
        for limits in shared:
            await limits.close()


async def test_two_processes_share_the_guessing_accounts_and_chat_limits(redis_prefix):
    clock = Clock()
    limits = Limits(
        sign_in_per_account=Limit(2, 900),
        sign_in_per_address=Limit(3, 900),
        accounts_per_address=Limit(1, 3600),
        chat_per_player=Limit(2, 10),
    )
    a, b, shared = await two_guards(limits, redis_prefix, clock)
    guesser = "203.0.113.5"
    try:
        await a.guess("ann", guesser)
        await b.guess("ann", guesser)
        with pytest.raises(TooMany) as refused:
            await a.guess("ann", guesser)
        assert refused.value.code == "too_many_attempts" and refused.value.retry_after == 450
        await a.guess("bob", guesser)  # the address's third
        with pytest.raises(TooMany):
            await b.guess("cid", guesser)  # the address's count is used up, for every account
        await b.right_guess("bob", guesser)  # bob's right password: its token back
        await a.guess("cid", guesser)

        await a.new_account(guesser)
        with pytest.raises(TooMany) as refused:
            await b.new_account(guesser)
        assert refused.value.code == "too_many_accounts" and refused.value.retry_after == 3600

        assert [await a.chat.take("p_ann"), await b.chat.take("p_ann")] == [0, 0]
        assert await a.chat.take("p_ann") == pytest.approx(5)
        assert await b.chat.take("p_ann") == pytest.approx(5)
    finally:
        for each in shared:
            await each.close()


async def test_redis_unreachable_lets_requests_through_but_checks_no_password(caplog):
    closed = RedisLimits(UNREACHABLE, prefix="test:", now=Clock().now)
    guard = Guard(Limits(tables_per_address=Limit(1, 60)), closed.buckets_of())
    caplog.set_level(logging.INFO, logger="dominohall.web")
    try:
        for _ in range(3):  # beyond the limit: not checked, let through
            await guard.new_table("203.0.113.5", 0)
            await guard.table_not_made("203.0.113.5")
            await guard.new_account("203.0.113.5")
            assert await guard.chat.take("p_ann") == 0
        for _ in range(2):
            with pytest.raises(HallError) as refused:
                await guard.guess("ann", "203.0.113.5")
            assert refused.value.code == "limits_unreachable"
            assert status_of(refused.value) == 503 and "no password" in refused.value.message
        await guard.right_guess("ann", "203.0.113.5")  # a late reset is let go
    finally:
        await closed.close()
    warned = [r for r in caplog.records if r.levelno == logging.WARNING]
    # Once for each limit, however many requests (the last for right_guess's give-back):
    named = sorted(r.getMessage().split(":")[0].removeprefix("rate limit ") for r in warned)
    assert named == ["accounts", "chat", "sign-in-account", "sign-in-address", "tables"]
    assert any("no password is checked" in r.getMessage() for r in warned)
    assert any("let through unchecked" in r.getMessage() for r in warned)


# Sockets per address, shared by the processes ----------------------------------------------


async def test_two_processes_share_the_cap_on_sockets_per_address(redis_prefix):
    clock = Clock()
    one = RedisLimits(REDIS_URL, prefix=redis_prefix, now=clock.now)
    two = RedisLimits(REDIS_URL, prefix=redis_prefix, now=clock.now)
    try:
        a, b = one.sockets(3), two.sockets(3)
        assert await a.open("203.0.113.5") and await a.open("203.0.113.5")
        assert await b.open("203.0.113.5")
        assert not await a.open("203.0.113.5") and not await b.open("203.0.113.5")
        assert await b.open("198.51.100.7")  # another address has its own
        await a.close("203.0.113.5")  # one closed on A: room on B
        assert await b.open("203.0.113.5")
        assert not await a.open("203.0.113.5")
        assert a.here.counts == {"203.0.113.5": 1}
        assert b.here.counts == {"203.0.113.5": 2, "198.51.100.7": 1}
    finally:
        await one.close()
        await two.close()


async def test_a_dead_processs_sockets_stop_counting_unless_renewed(redis_prefix):
    clock = Clock()
    one = RedisLimits(REDIS_URL, prefix=redis_prefix, now=clock.now)
    two = RedisLimits(REDIS_URL, prefix=redis_prefix, now=clock.now)
    try:
        # Renewed by hand (the tasks' period is far off): each count holds 3 renewals' time.
        alive, dying = one.sockets(2, renew=3600), two.sockets(2, renew=3600)
        assert await alive.open("203.0.113.5") and await dying.open("203.0.113.5")
        clock.at += 2 * 3600
        await alive.renew()  # the live process renews; the dying one stopped
        assert not await alive.open("203.0.113.5")  # both still count
        clock.at += 1.5 * 3600  # the dying one's time is up, the live one's is not
        assert await alive.open("203.0.113.5")
        assert not await alive.open("203.0.113.5")
    finally:
        await one.close()
        await two.close()


async def test_a_renewal_writes_the_count_as_this_process_has_it(redis_prefix, client):
    clock = Clock()
    one = RedisLimits(REDIS_URL, prefix=redis_prefix, now=clock.now)
    try:
        count = one.sockets(2, renew=3600)
        assert await count.open("203.0.113.5") and await count.open("203.0.113.5")
        await client.delete(count.key("203.0.113.5"))  # a count lost (Redis restarted, say)
        assert await count.open("203.0.113.5")  # let in: Redis knew none ...
        await count.close("203.0.113.5")
        await count.renew()  # ... and the renewal writes the two still open here
        assert not await count.open("203.0.113.5")
        await count.close("203.0.113.5")
        await count.close("203.0.113.5")
        assert not await client.exists(count.key("203.0.113.5"))  # none open: no key
    finally:
        await one.close()


async def test_redis_unreachable_lets_sockets_in(caplog):
    closed = RedisLimits(UNREACHABLE, prefix="test:", now=Clock().now)
    try:
        count = closed.sockets(1)
        assert await count.open("203.0.113.5") and await count.open("203.0.113.5")
        assert "sockets let through" in caplog.text
    finally:
        await closed.close()
