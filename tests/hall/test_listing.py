"""A table as "My games" lists it (``listing.py``), and its listing carried by each change on
several processes, so that a player's socket anywhere keeps its list without asking."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from dominohall.hall import ManualClock, Options
from dominohall.hall.listing import Listing
from dominohall.hall.table_feed import TableChange

from .helpers import ANN, BOB, running_hall, started_table
from .test_owners import open_tables, play_one, two_halls

pytestmark = pytest.mark.anyio


async def test_an_entry_says_whether_the_table_waits_for_its_seat_and_until_when(tmp_path):
    clock = ManualClock()
    async with running_hall(tmp_path, clock) as hall:
        table = await started_table(hall, [ANN, BOB], timer="relaxed")
        state = (await hall.room(table)).state
        listing = Listing.of(state)
        turn = state.turn
        assert turn is not None and listing.waiting == {turn}
        now = clock.now()
        mine, theirs = listing.entry(turn, now), listing.entry(1 - turn, now)
        assert mine["your_turn"] and not theirs["your_turn"]
        assert mine["deadline"] == theirs["deadline"] == state.turn_deadline
        assert mine["left"] == pytest.approx(state.turn_deadline - now)
        assert (mine["seat"], mine["turn"], mine["id"]) == (turn, turn, table)
        # Waited for first; of two that do not wait, the newer first.
        assert listing.urgency(turn) < listing.urgency(1 - turn)
        await clock.advance(1)
        newer = Listing.of(
            (await hall.room(await started_table(hall, [ANN, BOB], timer="relaxed"))).state
        )
        idle, newer_idle = (
            replace(listing, waiting=frozenset()),
            replace(newer, waiting=frozenset()),
        )
        assert newer_idle.urgency(0) < idle.urgency(0)


async def test_my_games_is_the_listing_of_each_table_in_the_order_of_urgency(tmp_path):
    clock = ManualClock()
    async with running_hall(tmp_path, clock) as hall:
        tables = [await started_table(hall, [ANN, BOB], timer="relaxed") for _ in range(3)]
        await clock.advance(1)
        await hall.create_table(ANN, Options.choose(seats=2))
        mine = await hall.my_tables(ANN.id)
        listings = await hall.listings_of(ANN.id)
        assert [t["id"] for t in mine] == [listing.summary["id"] for listing, _ in listings]
        assert set(tables) < {t["id"] for t in mine}
        keys = [listing.urgency(seat) for listing, seat in listings]
        assert keys == sorted(keys)


@pytest.mark.postgresql
async def test_each_change_carries_the_listing_another_process_lists_the_table_by(
    postgres_database: str, redis_prefix: str
) -> None:
    clock = ManualClock()
    async with two_halls(postgres_database, redis_prefix, clock) as (a, b):
        [table_id] = await open_tables(a, 1)
        heard: list[TableChange] = []
        assert b.broker is not None
        b.broker.subscribe(
            table_id, lambda c: heard.append(c) if isinstance(c, TableChange) else None
        )
        await b.broker.settled()
        # As a socket at b does once subscribed: its first view comes from the owner, which
        # so learns that changes are heard elsewhere (until then it sends them without their
        # messages and listing: ``heard_elsewhere``).
        await b.hall.owner.view(table_id, None)
        await play_one(a, table_id)
        version = (await a.hall.owner.table(table_id)).version
        for _ in range(500):  # (over Redis: B hears it a moment later, maybe with others)
            if heard and heard[-1].version == version:
                break
            await asyncio.sleep(0.01)
        change = heard[-1]
        assert change.version == version
        assert change.listing is not None
        for person in (ANN, BOB):
            seat = change.audience_of(person.id).seat
            assert seat is not None
            [listed] = await a.hall.my_tables(person.id)
            assert change.listing.entry(seat, clock.now()) == listed
