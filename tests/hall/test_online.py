"""How many people are online (``online.py``): sockets counted per player, on one process and
across two over the machine's Redis."""

from __future__ import annotations

import asyncio

import pytest

from dominohall.hall import ManualClock
from dominohall.hall.online import MemoryOnline, RedisOnline

from .conftest import REDIS_URL

pytestmark = pytest.mark.anyio


async def test_a_player_is_online_while_one_of_their_sockets_is_open() -> None:
    online = MemoryOnline()
    online.arrived("ann")
    online.arrived("ann")
    online.arrived("bob")
    assert await online.count() == 2
    online.left("ann")
    assert await online.count() == 2  # (her other page is open)
    assert await online.which(["ann", "cid"]) == {"ann"}
    online.left("ann")
    online.left("bob")
    assert await online.count() == 0


async def _settled(*processes: RedisOnline) -> None:
    for process in processes:
        await asyncio.gather(*process._writes)


async def test_players_online_on_either_process_count_on_both(redis_prefix: str) -> None:
    clock = ManualClock()
    a = RedisOnline(REDIS_URL, prefix=redis_prefix, clock=clock, renew=5.0)
    b = RedisOnline(REDIS_URL, prefix=redis_prefix, clock=clock, renew=5.0)
    try:
        a.arrived("ann")
        b.arrived("bob")
        b.arrived("ann")  # (a second page of hers, through the other process)
        await _settled(a, b)
        assert await a.count() == 2 and await b.count() == 2
        assert await a.which(["ann", "bob", "cid"]) == {"ann", "bob"}  # (who follows sees)
        b.left("bob")
        await _settled(b)
        assert await a.count() == 1
        assert await a.which(["ann", "bob"]) == {"ann"}
        # A process that stops renewing (it died): its players lapse after three renewals.
        await clock.advance(16)
        assert await a.which(["ann"]) == set()
        assert await a.count() == 0
    finally:
        await asyncio.gather(a.close(), b.close())
