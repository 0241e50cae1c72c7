"""One place opens a hall: the store, the secret, the hall with every live table, the services
around it; closing stops them all, the store last (nothing is written after)."""

from __future__ import annotations

import random

import pytest

from dominohall.hall import ManualClock
from dominohall.hall.wiring import HallSettings, open_hall, running
from dominohall.store.errors import StoreClosed

from .helpers import ANN, BOB, started_table

pytestmark = pytest.mark.anyio


def settings(url: str, clock: ManualClock | None = None, **more) -> HallSettings:
    clock = clock or ManualClock()
    return HallSettings(
        url, clock=clock, bot_delay=0, rng=random.Random(1), heartbeat=False, **more
    )


async def test_an_open_hall_resumes_its_tables_and_close_stops_everything(database_url: str):
    async with running(settings(database_url)) as opened:
        table = await started_table(opened.hall, [ANN, BOB])
        version = (await opened.hall.room(table)).state.version
    assert opened.email is None and opened.outbox is None  # no mail settings: no email
    assert not opened.hall.ready
    with pytest.raises(StoreClosed):
        await opened.store.append(table, version + 1, [{"kind": "late"}], 0.0)

    later = ManualClock()
    later.t += 60.0  # a minute down
    again = await open_hall(settings(database_url, later))
    try:
        assert opened.secret == again.secret or "postgresql" not in database_url
        room = await again.hall.room(table)
        assert room.state.version == version + 1  # resumed: the time down given back
        assert again.hall.ready and again.matchmaker is not None
    finally:
        await again.close()


async def test_the_secret_is_the_data_folder_s_on_sqlite(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}"
    async with running(settings(url, data=tmp_path)) as first:
        assert (tmp_path / "secret").read_text().strip() == first.secret
    async with running(settings(url, data=tmp_path)) as second:
        assert second.secret == first.secret
    async with running(settings(url, secret="s" * 40)) as told:
        assert told.secret == "s" * 40 and told.mail_links is not None


async def test_halls_on_one_postgresql_database_share_its_secret(postgres_database: str, tmp_path):
    async with (
        running(settings(postgres_database)) as first,
        running(settings(postgres_database, data=tmp_path)) as second,
    ):
        assert first.secret == second.secret and len(first.secret) >= 32
