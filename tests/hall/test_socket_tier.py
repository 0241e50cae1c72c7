"""The socket tier (``serve --sockets-only``: a hall with ``plays_tables=False``) beside the game
tier, on one PostgreSQL database and the machine's Redis: it opens no table, takes no lease and
takes nothing over; a new table is opened by a process that plays tables, a table nobody holds
is taken over by one, and every command goes to the holder. Two halls in one test process, on
one hand-driven clock (as ``test_owners.py``)."""

from __future__ import annotations

import dataclasses

import pytest

from dominohall.hall import HallError, ManualClock, Options
from dominohall.hall.wiring import HallSettings, OpenHall, open_hall, running

from .helpers import ANN, BOB
from .test_owners import play_one, settings

pytestmark = [pytest.mark.anyio, pytest.mark.postgresql]


def sockets_only(url: str, prefix: str, clock: ManualClock) -> HallSettings:
    return dataclasses.replace(settings(url, prefix, clock, "sockets"), plays_tables=False)


async def started_through(hall: OpenHall) -> str:
    """A started table of Ann and Bob, made through ``hall``."""
    state = await hall.hall.create_table(ANN, Options.choose(seats=2, timer="relaxed"))
    await hall.hall.join(BOB, state.id, None)
    await hall.hall.start_game(ANN, state.id)
    return state.id


async def holds_nothing(hall: OpenHall, table_id: str) -> None:
    assert hall.hall.ownership is not None and not hall.hall.ownership.held
    assert hall.hall.rooms.get(table_id) is None
    assert all(owner != "sockets" for _, owner in await lease_owners(hall, table_id))


async def lease_owners(hall: OpenHall, table_id: str) -> list[tuple[int, str]]:
    holder = await hall.store.table_leases.holder(table_id)
    return [] if holder is None else [(holder.token, holder.owner)]


async def test_tables_made_and_played_through_the_socket_tier_are_held_by_the_game_tier(
    postgres_database: str, redis_prefix: str
) -> None:
    clock = ManualClock()
    async with (
        running(settings(postgres_database, redis_prefix, clock, "game")) as game,
        running(sockets_only(postgres_database, redis_prefix, clock)) as sockets,
    ):
        table_id = await started_through(sockets)
        for _ in range(4):
            await play_one(sockets, table_id)
        assert game.hall.ownership is not None and game.hall.ownership.holds(table_id)
        assert [owner for _, owner in await lease_owners(game, table_id)] == ["game"]
        await holds_nothing(sockets, table_id)
        # Every commit under the game process's token.
        token = game.hall.ownership.held[table_id].token
        assert {t for _, t in await game.store.table_leases.tokens(table_id)} == {token}


async def test_a_table_nobody_holds_is_taken_over_by_the_game_tier_not_the_socket_tier(
    postgres_database: str, redis_prefix: str
) -> None:
    clock = ManualClock()
    async with running(sockets_only(postgres_database, redis_prefix, clock)) as sockets:
        async with running(settings(postgres_database, redis_prefix, clock, "first")):
            table_id = await started_through(sockets)
        # The game process stopped (its leases given up): the table has no holder, and the
        # socket tier's rounds take nothing.
        assert sockets.hall.ownership is not None
        await sockets.hall.ownership.tick()
        assert await sockets.store.table_leases.holder(table_id) is None
        with pytest.raises(HallError) as nobody:
            await play_one(sockets, table_id)
        assert nobody.value.code == "owner_unreachable"
        async with running(settings(postgres_database, redis_prefix, clock, "second")) as game:
            # (a round of the new process would take it too; asked first, it takes it at once)
            version = await play_one(sockets, table_id)
            assert [owner for _, owner in await lease_owners(game, table_id)] == ["second"]
            tokens = await game.store.table_leases.tokens(table_id)
            assert tokens[-1][0] == version
            await holds_nothing(sockets, table_id)


async def test_a_socket_tier_without_redis_is_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    url = f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}"
    with pytest.raises(ValueError, match="needs Redis"):
        await open_hall(HallSettings(url, heartbeat=False, plays_tables=False))
