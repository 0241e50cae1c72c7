"""Chat deleted after the operator's retention period, on SQLite and PostgreSQL: by one process
at a time (the job's claim), the lines within the period kept; a hall opened with ``chat_days``
runs the job from its start."""

from __future__ import annotations

import asyncio

import pytest

from dominohall.hall import ManualClock
from dominohall.hall.chat_retention import DAY, ChatRetention
from dominohall.hall.once_only import Claim
from dominohall.hall.wiring import HallSettings, running
from dominohall.store import Store
from dominohall.store.chat import Room

pytestmark = pytest.mark.anyio


async def said(store: Store, clock: ManualClock, *days_ago: float) -> None:
    for n, days in enumerate(days_ago):
        at = clock.now() - days * DAY
        await store.chat.add("t1", Room.PLAYERS, "p_ann", at, text=f"{days} days ago ({n})")


async def test_one_process_at_a_time_deletes_the_lines_older_than_the_period(database_url: str):
    clock = ManualClock()
    store = await Store.open(database_url)
    try:
        await said(store, clock, 120.0, 91.0, 89.0, 0.0)
        a = ChatRetention(store.chat, clock, Claim(store.job_leases, "chat", "a", clock), 90.0)
        b = ChatRetention(store.chat, clock, Claim(store.job_leases, "chat", "b", clock), 90.0)
        assert await a.once() == 2
        assert await b.once() is None  # a holds the job
        kept = [line.text for line in await store.chat.of_table("t1")]
        assert kept == ["89.0 days ago (2)", "0.0 days ago (3)"]
        await a.claim.release()
        await clock.advance(2 * DAY)  # the 89 days old line is now past the period
        assert await b.once() == 1
    finally:
        await store.close()


async def test_a_hall_deletes_old_chat_from_its_start(database_url: str):
    clock = ManualClock()
    store = await Store.open(database_url)
    await said(store, clock, 10.0, 2.0)
    await store.close()
    settings = HallSettings(database_url, clock=clock, heartbeat=False, chat_days=5)
    async with running(settings) as opened:
        for _ in range(200):  # (the job's first round runs beside the start)
            lines = await opened.store.chat.of_table("t1")
            if len(lines) == 1:
                break
            await asyncio.sleep(0.02)
        assert [line.text for line in lines] == ["2.0 days ago (1)"]
