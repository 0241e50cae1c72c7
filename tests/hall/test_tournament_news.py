"""Which tournaments changed, told to every process (``tournament_news.py``): in memory at once;
in the machine's Redis, each id told in order to a follower from when it joined, a follower
that fell behind the stream's trimming told a gap and then following on, and Redis away a change
not told (never raised) and the follower told a gap."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
import redis.asyncio as redis

from dominohall.hall.stream_pages import PAGE
from dominohall.hall.tournament_news import MemoryTournamentNews, RedisTournamentNews

from .conftest import REDIS_URL

pytestmark = pytest.mark.anyio

UNREACHABLE = "redis://127.0.0.1:1/0"  # (nothing listens there: refused at once)


class Told:
    """What a follower was told: the ids, and how many gaps."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.gaps = 0

    def gap(self) -> None:
        self.gaps += 1


async def _until(condition: Callable[[], bool], seconds: float = 5.0) -> None:
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.01)


async def _heard_live(news: RedisTournamentNews, told: Told, name: str) -> None:
    """Tell ``name`` (again, as ``name-2``...) until the follower hears one: it reads the stream
    by then (it starts from the latest entry it finds, so the first may come before)."""
    for n in range(1, 50):
        await news.changed(f"{name}-{n}")
        try:
            await _until(lambda: any(i.startswith(name) for i in told.ids), 0.2)
            return
        except TimeoutError:
            continue
    raise AssertionError(f"the follower never heard {name}")


async def test_memory_news_tells_every_follower_at_once_until_closed() -> None:
    news = MemoryTournamentNews()
    first: list[str] = []
    second: list[str] = []
    news.follow(first.append, lambda: None)
    news.follow(second.append, lambda: None)
    await news.changed("t1")
    await news.changed("t2")
    assert first == second == ["t1", "t2"]
    await news.close()
    await news.changed("t3")
    assert first == ["t1", "t2"]


async def test_a_follower_is_told_each_id_in_order_from_when_it_joined(redis_prefix: str) -> None:
    news = RedisTournamentNews(REDIS_URL, prefix=redis_prefix)
    told = Told()
    try:
        await news.changed("before")  # told before anyone followed: never heard
        news.follow(told.ids.append, told.gap)
        await _heard_live(news, told, "live")
        for tid in ("t1", "t2", "t1", "t3"):
            await news.changed(tid)
        await _until(lambda: told.ids[-1] == "t3")
        assert [i for i in told.ids if not i.startswith("live-")] == ["t1", "t2", "t1", "t3"]
        assert told.gaps == 0
        assert news.stream == f"{redis_prefix}tournaments:changes"
    finally:
        await news.close()


async def test_a_follower_behind_the_trimming_is_told_a_gap_then_follows_on(
    redis_prefix: str,
) -> None:
    """Another process tells more than a page of changes at once, the stream trimmed past where
    this follower was: it hears none of them but a gap, and the changes after."""
    news = RedisTournamentNews(REDIS_URL, prefix=redis_prefix)
    other = redis.Redis.from_url(REDIS_URL)
    told = Told()
    try:
        news.follow(told.ids.append, told.gap)
        await _heard_live(news, told, "live")
        async with other.pipeline(transaction=True) as burst:  # (one step, for the follower)
            for n in range(PAGE + 100):
                burst.xadd(news.stream, {"t": f"burst-{n}"}, maxlen=PAGE, approximate=False)
            await burst.execute()
        await _until(lambda: told.gaps == 1)
        await _heard_live(news, told, "after")
        assert told.gaps == 1
        assert not [i for i in told.ids if i.startswith("burst-")]  # none told one by one
    finally:
        await news.close()
        await other.aclose()


async def test_redis_away_a_change_is_not_told_nor_raised_and_the_follower_hears_a_gap(
    redis_prefix: str, caplog: pytest.LogCaptureFixture
) -> None:
    news = RedisTournamentNews(UNREACHABLE, prefix=redis_prefix)
    told = Told()
    try:
        await news.changed("t1")  # never raises
        assert "tournament t1: its change not told" in caplog.text
        news.follow(told.ids.append, told.gap)
        await _until(lambda: told.gaps >= 2)  # each failed read: a gap, and it tries again
        assert told.ids == []
    finally:
        await news.close()
