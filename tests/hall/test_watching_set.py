"""A private table's host lets watchers in after making it, or shuts them out again
(docs/protocol.md 2): the table's own state (a ``watching`` event through its owner), so a
restart keeps it and, on several processes, a change made through another process takes effect
at the owner at once and reaches the other process's sockets with the table's change."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from dominohall.hall import HallError, ManualClock, Options
from dominohall.hall.table_feed import TableChange

from .helpers import ANN, BOB, CID, running_hall
from .test_owners import two_halls

pytestmark = pytest.mark.anyio


def keep(changes: list[TableChange], heard: object) -> None:
    if isinstance(heard, TableChange):  # (not the notices: presence, watchers)
        changes.append(heard)


async def test_the_host_opens_a_private_game_to_watchers_and_closes_it(tmp_path: Path):
    clock = ManualClock()
    async with running_hall(tmp_path, clock) as hall:
        table = await hall.create_table(ANN, Options.choose(seats=2, private=True))
        await hall.join(BOB, table.id, None)
        await hall.start_game(ANN, table.id)
        with pytest.raises(HallError, match="only its players"):
            await hall.connect(table.id, CID)
        changes: list[TableChange] = []
        hall.broker.subscribe(table.id, lambda c: keep(changes, c))
        with pytest.raises(HallError) as refused:
            await hall.set_watching(BOB, table.id, True)
        assert refused.value.code == "not_host"
        opened = await hall.set_watching(ANN, table.id, True)
        assert opened["open_to_watchers"] is True and changes[-1].watchable
        assert await hall.connect(table.id, CID) is None  # Cid watches
        assert (await hall.set_watching(ANN, table.id, True))["open_to_watchers"]  # (no change)
        closed = await hall.set_watching(ANN, table.id, False)
        assert closed["open_to_watchers"] is False and not changes[-1].watchable
        assert len(changes) == 2  # (opening an open game changed nothing)
        public = await hall.create_table(BOB, Options.choose(seats=2))
        with pytest.raises(HallError) as refused:
            await hall.set_watching(BOB, public.id, False)
        assert refused.value.code == "public_table"
        await hall.set_watching(ANN, table.id, True)
    async with running_hall(tmp_path, clock) as hall:  # kept in the table's log
        assert (await hall.summary(table.id))["open_to_watchers"] is True


@pytest.mark.postgresql
async def test_watchers_let_in_through_another_process_at_once(
    postgres_database: str, redis_prefix: str
) -> None:
    clock = ManualClock()
    async with two_halls(postgres_database, redis_prefix, clock) as (a, b):
        table = await a.hall.create_table(ANN, Options.choose(seats=2, private=True))
        await a.hall.join(BOB, table.id, None)
        await a.hall.start_game(ANN, table.id)
        assert a.hall.ownership is not None and a.hall.ownership.holds(table.id)
        heard: list[TableChange] = []
        b.hall.broker.subscribe(table.id, lambda c: keep(heard, c))
        await b.hall.broker.subscribed(table.id)
        assert (await b.hall.set_watching(ANN, table.id, True))["open_to_watchers"] is True
        at_owner = await a.hall.owner.table(table.id)
        assert at_owner.options.watchable  # at the owner, at once
        opened = at_owner.version
        assert await b.hall.connect(table.id, CID) is None
        await b.hall.set_watching(ANN, table.id, False)
        for _ in range(250):  # (B hears the owner's change over Redis)
            watchable = {c.version: c.watchable for c in heard}
            if opened + 1 in watchable:
                break
            await asyncio.sleep(0.02)
        assert (watchable[opened], watchable[opened + 1]) == (True, False)
        with pytest.raises(HallError, match="only its players"):
            await b.hall.connect(table.id, CID)
