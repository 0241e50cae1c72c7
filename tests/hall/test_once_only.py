"""Once-only jobs: a job's claim is held by one process at a time (on SQLite and PostgreSQL),
renewed as it runs, taken over once its holder stops renewing it or gives it up; a lasting job
starts and stops with its claim; two halls on one database send email notices from one."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest

from dominohall.hall import ManualClock
from dominohall.hall.mail import MailSettings
from dominohall.hall.once_only import Claim, ClaimedJob
from dominohall.hall.wiring import HallSettings, running
from dominohall.store import Store, StoredPlayer

pytestmark = pytest.mark.anyio
TTL = 30.0


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    store = await Store.open(database_url)
    yield store
    await store.close()


async def test_one_process_holds_a_job_until_it_stops_renewing_then_another_takes_it(store):
    clock = ManualClock()
    a = Claim(store.job_leases, "forget-guests", "a", clock, TTL)
    b = Claim(store.job_leases, "forget-guests", "b", clock, TTL)
    assert await a.claim() and a.held
    assert not await b.claim() and not b.held
    clock.t += TTL - 1
    assert await a.claim()  # renewed: held a whole TTL from now
    clock.t += TTL - 1
    assert not await b.claim()
    clock.t += 2  # a stopped renewing (dead): its claim has lapsed
    assert await b.claim()
    assert not await a.claim() and not a.held  # its renewal finds the job taken
    other_job = Claim(store.job_leases, "index", "a", clock, TTL)
    assert await other_job.claim()  # each job has its own claim


async def test_a_claim_given_up_is_taken_at_once(store):
    clock = ManualClock()
    a = Claim(store.job_leases, "index", "a", clock, TTL)
    b = Claim(store.job_leases, "index", "b", clock, TTL)
    assert await a.claim()
    await a.release()
    assert not a.held
    assert await b.claim()


async def test_a_lasting_job_runs_where_its_claim_is_held_and_moves_when_it_is_given_up(store):
    clock = ManualClock()
    said: list[str] = []

    def job(owner: str) -> ClaimedJob:
        async def start() -> None:
            said.append(f"{owner} starts")

        async def stop() -> None:
            said.append(f"{owner} stops")

        async def keep() -> None:
            said.append(f"{owner} keeps up")

        claim = Claim(store.job_leases, "email-notices", owner, clock, TTL)
        return ClaimedJob(claim, start, stop, every=3600.0, keep=keep)

    a, b = job("a"), job("b")
    await a.begin()
    await b.begin()
    assert said == ["a starts"] and a.running and not b.running
    await a.ask()
    await b.ask()
    assert said == ["a starts", "a keeps up"]
    await a.end()  # a process that stops gives the job up
    await b.ask()
    assert said == ["a starts", "a keeps up", "a stops", "b starts"]
    clock.t += TTL + 1  # b stalls past its claim, and a third process takes the job
    c = job("c")
    await c.begin()
    await b.ask()  # b hears it lost the job, and stops it
    assert said[-2:] == ["c starts", "b stops"] and not b.running
    await b.end()
    await c.end()


async def test_two_halls_on_one_database_send_the_email_notices_from_one(database_url: str):
    mail = MailSettings("127.0.0.1", "Hall <hall@example.org>", "http://127.0.0.1:8000", port=9)

    def settings(process: str) -> HallSettings:
        return HallSettings(
            database_url,
            clock=ManualClock(),
            bot_delay=0,
            rng=random.Random(1),
            heartbeat=False,
            mail=mail,
            process_id=process,
        )

    async with running(settings("first")) as first, running(settings("second")) as second:
        assert first.email is not None and second.email is not None
        assert first.email.active and not second.email.active
        assert second.email_job is not None and first.email_job is not None
        # Ann asks for notices through the second (her confirming link opened there): the
        # second follows no one, and the first learns of it at its next look.
        await second.store.add_player(StoredPlayer("p_ann", "Ann", None, None))
        await second.store.emails.set("p_ann", "ann@example.org", True)
        await second.store.emails.confirm("p_ann", "ann@example.org", 0.0)
        await second.email.refresh("p_ann")  # (what the settings page calls)
        assert not second.email.follows("p_ann") and not first.email.follows("p_ann")
        await first.email_job.ask()
        assert first.email.follows("p_ann")
        await first.close()  # (closing again on leaving the block is harmless)
        await second.email_job.ask()
        assert second.email.active and second.email.follows("p_ann")


async def test_a_claim_cancelled_while_it_is_taken_is_still_given_up_and_locks_nothing(store):
    clock = ManualClock()
    a = Claim(store.job_leases, "index", "a", clock, TTL)
    asking = asyncio.create_task(a.claim())
    await asyncio.sleep(0)  # the claim is being written
    asking.cancel()  # a process stopping at once
    with pytest.raises(asyncio.CancelledError):
        await asking
    assert a.held  # the write went through to its end, and the claim knows it took the job
    await a.release()
    assert await Claim(store.job_leases, "index", "b", clock, TTL).claim()
    await store.set_meta("alive_at", "1.0")  # nothing left holding the database's write lock
