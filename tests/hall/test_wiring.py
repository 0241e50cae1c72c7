"""One place opens a hall: the store, the secret, the hall with every live table, the services
around it; closing stops them all, the store last (nothing is written after)."""

from __future__ import annotations

import asyncio
import logging
import random

import pytest

from dominohall.hall import ManualClock, wiring
from dominohall.hall.redis_broker import RedisBroker
from dominohall.hall.table_feed import WATCHER, Audience, TableChange
from dominohall.hall.wiring import HallSettings, open_hall, running
from dominohall.store.errors import StoreClosed

from .conftest import REDIS_URL
from .helpers import ANN, BOB, play_first, started_table, whose_turn
from .test_redis_broker import Heard, within

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


async def test_a_hall_with_redis_publishes_its_moves_to_another_process(tmp_path, redis_prefix):
    url = f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}"
    other = RedisBroker(REDIS_URL, prefix=redis_prefix)  # another process's socket tier
    await other.start()
    try:
        async with running(settings(url, redis_url=REDIS_URL, redis_prefix=redis_prefix)) as opened:
            assert (
                isinstance(opened.hall.broker, RedisBroker) and opened.broker is opened.hall.broker
            )
            table = await started_table(opened.hall, [ANN, BOB])
            here, there = Heard("the hall's own listener"), Heard("the other process's listener")
            room = await opened.hall.room(table)
            for audience in (Audience(0), Audience(1), WATCHER):  # as sockets would
                opened.hall.listen(room.id, audience)
            opened.hall.broker.subscribe(table, here)
            other.subscribe(table, there)
            await other.settled()
            version = await play_first(
                opened.hall, table, await whose_turn(opened.hall, table, [ANN, BOB])
            )
            changes = [v for v in here.values if isinstance(v, TableChange)]
            assert changes and changes[-1].version == version

            def the_move(values: list[object]) -> list[object]:
                # (the other may also hear changes the hall sent just before it listened)
                return [v for v in values if isinstance(v, TableChange) and v.version == version]

            async def heard_there() -> list[object]:
                while not the_move(there.values):
                    await there.until(len(there.values) + 1, f"the change of version {version}")
                return the_move(there.values)

            # The hall had counted nobody elsewhere hearing the table: the first change the
            # other hears may come without its messages (its sockets ask for the whole state).
            [first] = await heard_there()
            assert isinstance(first, TableChange)
            assert first == changes[-1] or (
                first.messages == {} and first.people == changes[-1].people
            )
            await within(lambda: opened.hall.broker.heard_elsewhere(table), "the count of b")
            version = await play_first(
                opened.hall, table, await whose_turn(opened.hall, table, [ANN, BOB])
            )
            changes = [v for v in here.values if isinstance(v, TableChange)]
            # Then the same TableChange: its version, base, people and every audience's message.
            assert await heard_there() == the_move(here.values) == [changes[-1]]
            assert set(changes[-1].messages) == {Audience(0), Audience(1), WATCHER}
        assert opened.broker.down is False  # closed with the hall, cleanly
    finally:
        await other.close()


async def test_a_part_stuck_in_its_stop_is_logged_and_left_so_the_close_ends(
    database_url: str, monkeypatch, caplog
):
    monkeypatch.setattr(wiring, "STOP_SECONDS", 2.0)  # (the others, even under load, stop in it)
    opened = await open_hall(settings(database_url))
    stuck = asyncio.Event()  # never set: the lobby's stop waits for ever

    async def stop_for_ever() -> None:
        await stuck.wait()

    monkeypatch.setattr(opened.lobby, "stop", stop_for_ever)
    with caplog.at_level(logging.ERROR, logger="dominohall.hall"):
        await opened.close()
    [said] = [r.getMessage() for r in caplog.records if "the lobby did not stop" in r.getMessage()]
    assert said.startswith("closing: the lobby did not stop within 2 s; left behind.")
    assert "stop_for_ever (test_wiring.py:" in said  # where it was stuck
    with pytest.raises(StoreClosed):  # the parts after it stopped all the same, the store too
        await opened.store.append("t1", 1, [{"kind": "late"}], 0.0)
