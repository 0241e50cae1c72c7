"""The matchmaking queue across processes (``redis_queue.py``, the ``pairing`` claim): two halls
on one PostgreSQL database and the machine's Redis, on one hand-driven clock. Seekers on either
are paired by the one holding the claim; status on either says where; when that process dies
(its claim not renewed, not given up) the other takes the rounds over."""

from __future__ import annotations

import asyncio

import pytest

from dominohall.hall import ManualClock, Person
from dominohall.hall.notices import Invitation, PlayerNotice
from dominohall.hall.seeking import TICK
from dominohall.hall.table import Phase
from dominohall.hall.wiring import HallSettings, OpenHall, open_hall

from .helpers import ANN, BOB, CID, DEE
from .test_owners import settings as several_processes

pytestmark = [pytest.mark.anyio, pytest.mark.postgresql]

LEASE = 10.0  # clock seconds: the pairing claim's time too


def settings(url: str, prefix: str, clock: ManualClock, process: str) -> HallSettings:
    return several_processes(url, prefix, clock, process, lease=LEASE)


async def seek(hall: OpenHall, person: Person) -> None:
    await hall.matchmaker.seek(
        person, account=True, pool="draw", players=2, speed=None, ranked=True
    )


async def paired_at(a: OpenHall, b: OpenHall, *people: Person) -> str:
    """The table the queue seated ``people`` at, as status says on either process (the same)."""
    tables = {(await hall.matchmaker.status(p.id)).table for hall in (a, b) for p in people}
    assert len(tables) == 1, tables
    [table] = tables
    assert table is not None
    return table


async def test_seekers_on_two_processes_are_paired_and_the_rounds_move_when_theirs_dies(
    postgres_database: str, redis_prefix: str
) -> None:
    clock = ManualClock()
    a = await open_hall(settings(postgres_database, redis_prefix, clock, "hall-a"))
    b = await open_hall(settings(postgres_database, redis_prefix, clock, "hall-b"))
    try:
        assert a.matchmaker.pairs and not b.matchmaker.pairs  # the first to ask holds the claim
        heard: list[PlayerNotice] = []
        stop_hearing = b.hall.broker.listen(BOB.id, heard.append)
        await seek(a, ANN)
        await seek(b, BOB)  # on the process that does not pair: Bob waits for the next round
        assert (await b.matchmaker.status(BOB.id)).seeker is not None
        assert (await a.matchmaker.status(ANN.id)).queue.waiting == 2  # type: ignore[union-attr]
        await clock.advance(TICK + 0.1)
        table = await paired_at(a, b, ANN, BOB)
        state = await b.hall.owner.table(table)
        assert state.phase is Phase.PLAYING and state.options.ranked == "draw"
        assert {s.player for s in state.seats} == {ANN.id, BOB.id}
        for _ in range(200):  # Bob's page on the other process hears it on his channel
            if Invitation("pairing", table, None) in heard:
                break
            await asyncio.sleep(0.02)
        assert Invitation("pairing", table, None) in heard
        stop_hearing()

        # The pairing process dies: its claim is neither renewed nor given up.
        assert a.pairing_job is not None and b.pairing_job is not None
        a.pairing_job._task.cancel()  # type: ignore[union-attr]
        a.matchmaker.stop()
        await seek(b, CID)
        await seek(b, DEE)
        await clock.advance(LEASE / 2)
        await b.pairing_job.ask()
        assert not b.matchmaker.pairs  # the claim has not lapsed yet: nobody pairs
        assert (await b.matchmaker.status(CID.id)).seeker is not None
        await clock.advance(LEASE / 2 + 0.1)
        await b.pairing_job.ask()
        assert b.matchmaker.pairs
        await clock.advance(TICK + 0.1)
        other = await paired_at(a, b, CID, DEE)
        assert other != table and (await b.hall.owner.table(other)).phase is Phase.PLAYING
    finally:
        await asyncio.gather(a.close(), b.close())
