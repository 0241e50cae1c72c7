"""Who is online (``hall/online.py``): in memory, and across processes in Redis, where a process
that stops renewing (a dead one) stops counting its players once their time is up."""

from __future__ import annotations

import pytest

from dominohall.hall import ManualClock
from dominohall.hall.online import MemoryOnline, RedisOnline
from redis_service import REDIS_URL

pytestmark = pytest.mark.anyio


async def test_in_memory_a_player_is_online_while_a_socket_is_open() -> None:
    online = MemoryOnline()
    await online.opened("ann")
    await online.opened("ann")
    await online.closed("ann")
    assert await online.which(["ann", "bob"]) == {"ann"}
    await online.closed("ann")
    assert await online.which(["ann", "bob"]) == set()


async def test_across_processes_until_the_last_socket_closes_or_the_time_is_up(
    redis_prefix: str,
) -> None:
    clock = ManualClock()
    a, b = (
        RedisOnline(REDIS_URL, prefix=redis_prefix, process_id=p, clock=clock, seconds=30)
        for p in ("a", "b")
    )
    try:
        await a.opened("ann")
        await b.opened("ann")
        await b.opened("bob")
        assert await a.which(["ann", "bob", "cid"]) == {"ann", "bob"}
        await a.closed("ann")
        assert await a.which(["ann"]) == {"ann"}  # (still open on b)
        await b.closed("ann")
        assert await b.which(["ann", "bob"]) == {"bob"}
        clock.t += 31  # b renews nothing (as if dead): bob's time is up
        assert await a.which(["bob"]) == set()
    finally:
        await a.close()
        await b.close()
