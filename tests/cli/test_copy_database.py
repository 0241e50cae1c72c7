"""``dominohall copy-database``: a SQLite hall copied into PostgreSQL resumes every table there."""

from __future__ import annotations

import asyncio
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import select
from sqlalchemy.ext.asyncio import create_async_engine

from databases import PostgresTemplate, _admin, postgres_url
from dominohall.cli.copy_database import copy_database_command
from dominohall.hall import ManualClock, Phase
from dominohall.hall.options import DAY
from dominohall.store import StoredPlayer, schema
from hall.helpers import (
    ANN,
    BOB,
    CID,
    DEE,
    idle,
    play_first,
    running_hall,
    started_table,
    whose_turn,
)
from hall.test_table_rules import play_to_the_end
from hall.test_turn_based import vacation_table

pytestmark = [pytest.mark.anyio, pytest.mark.postgresql]
FIXTURES = Path(__file__).parents[1] / "store" / "fixtures"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def empty_postgres(postgres_template: PostgresTemplate) -> Iterator[str]:
    """A new PostgreSQL database with nothing in it (not migrated): the copy's target."""
    if postgres_template.error is not None:
        pytest.skip(postgres_template.error)
    name = f"dh_copy_{uuid.uuid4().hex[:12]}"
    asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    try:
        yield postgres_url(name)
    finally:
        postgres_template.drop(name)


def copy(*args: str) -> Any:
    return CliRunner().invoke(copy_database_command, list(args))


async def copy_off_the_loop(*args: str) -> Any:
    """The command from a test's event loop (it runs one of its own)."""
    return await asyncio.to_thread(copy, *args)


async def rows_of(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the hall, in primary-key order."""
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            return {
                t.name: [tuple(r) for r in await conn.execute(select(t).order_by(*t.primary_key))]
                for t in schema.metadata.sorted_tables
            }
    finally:
        await engine.dispose()


async def a_hall_in_full_play(folder: Path, clock: ManualClock) -> dict[str, str]:
    """A SQLite hall with a table of each kind mid-play; the tables by what they show."""
    async with running_hall(folder, clock) as hall:
        for person in (ANN, BOB):
            await hall.store.add_player(
                StoredPlayer(person.id, person.name, person.name.lower(), "$argon2id$x")
            )
        await hall.store.add_session("s" * 64, ANN.id, clock.now(), clock.now() + 30 * DAY)
        await hall.store.emails.set(ANN.id, "ann@example.org", True)
        assert await hall.store.emails.confirm(ANN.id, "ann@example.org", clock.now())

        ranked = (await hall.open_pairing("draw", [ANN, BOB])).id
        for person in (ANN, BOB):
            await hall.connect(ranked, person)
        await idle(hall)
        await play_to_the_end(hall, ranked, [ANN, BOB])
        await hall.rematch(ANN, ranked, True)  # Bob has not answered yet

        turn_based, ann = await vacation_table(hall, clock)
        await hall.turn_based.start_vacation(ann.id, 3)

        real_time = await started_table(hall, [CID, DEE], preset="draw", target=100)
        for _ in range(3):
            await play_first(hall, real_time, await whose_turn(hall, real_time, [CID, DEE]))
    return {"ranked": ranked, "real_time": real_time, "turn_based": turn_based}


async def test_a_sqlite_hall_copied_to_postgresql_resumes_every_table(
    tmp_path: Path, empty_postgres: str
) -> None:
    from dominohall.hall.history import Indexer

    clock = ManualClock()
    tables = await a_hall_in_full_play(tmp_path, clock)
    source = f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}"
    (tmp_path / "secret").write_text("s" * 48)  # as in the hall's data folder
    async with running_hall(tmp_path, clock) as hall:
        await Indexer(hall.store).catch_up()  # the finished game in histories
        before = {t: (await hall.room(t)).state.version for t in tables.values()}
        vacation = await hall.turn_based.vacation(ANN.id)
        assert vacation["on_vacation"]
        record = await hall.store.record(tables["ranked"])
        assert record is not None
    want = await rows_of(source)

    result = await copy_off_the_loop("--from", source, "--to", empty_postgres)
    assert result.exit_code == 0, result.output
    assert f"Copied {source} into {empty_postgres}: " in result.output
    assert f"{len(want['events'])} events" in result.output
    assert f"{len(want['players'])} players, {len(want['sessions'])} sessions" in result.output
    assert "secret came from" in result.output and str(tmp_path / "secret") in result.output

    got = await rows_of(empty_postgres)
    secret = ("secret", "s" * 48)
    assert secret in got["meta"] and secret not in want["meta"]  # the data folder's, kept
    got["meta"].remove(secret)
    assert got == want  # every row of every table, equal
    assert all(want[t] for t in ("ratings", "rating_changes", "vacations", "sessions", "games"))
    assert all(want[t] for t in ("email_addresses", "game_index", "game_seats"))

    async with running_hall(empty_postgres, clock) as hall:
        for table, version in before.items():
            assert (await hall.room(table)).state.version == version, table
        # Every live table plays on: the real-time one, the rematch offered, the vacation.
        real_time = tables["real_time"]
        await play_first(hall, real_time, await whose_turn(hall, real_time, [CID, DEE]))
        assert (await hall.room(real_time)).state.version > before[real_time]
        await hall.rematch(BOB, tables["ranked"], True)
        again = (await hall.room(tables["ranked"])).state.rematch_table
        assert again is not None and (await hall.room(again)).state.phase is Phase.PLAYING
        turn_based = (await hall.room(tables["turn_based"])).state
        seat = turn_based.seat_of(ANN.id)
        assert turn_based.on_vacation(seat, clock.now()) == vacation["end"]
        assert await hall.turn_based.vacation(ANN.id) == vacation
        assert await hall.store.record(tables["ranked"]) == record
        [rating] = await hall.store.ratings.of_player(ANN.id)
        assert (rating.pool, rating.games) == ("draw", 1)
        [game] = await hall.store.history.games_of(ANN.id, before=None, limit=10, viewer=None)
        assert game.table_id == tables["ranked"]
        found = await hall.store.session("s" * 64, clock.now())
        assert found is not None and found[0].username == "ann"
        email = await hall.store.emails.of(ANN.id)
        assert email is not None and email.active

    second = await copy_off_the_loop("--from", source, "--to", empty_postgres)
    assert second.exit_code == 1
    assert "already holds a hall" in second.output and "nothing was written" in second.output


async def test_the_milestone_1_database_copied_to_postgresql_resumes(
    tmp_path: Path, empty_postgres: str
) -> None:
    from store.test_upgrade import EXPECTED, _clock, _facts

    shutil.copy(FIXTURES / "m1.sqlite", tmp_path / "hall.db")
    original = (tmp_path / "hall.db").read_bytes()
    url = f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}"
    result = await copy_off_the_loop("--from", url, "--to", empty_postgres)
    assert result.exit_code == 0, result.output
    assert "No secret found" in result.output
    assert (tmp_path / "hall.db").read_bytes() == original  # upgraded on the side, not in place
    async with running_hall(empty_postgres, _clock()) as hall:
        for name, expected in EXPECTED["tables"].items():
            room = await hall.room(expected["id"])
            want = {k: v for k, v in expected.items() if k not in ("id", "turn_left")}
            assert _facts(room.state) == want, name
        mid = EXPECTED["tables"]["mid_hand"]["id"]
        before = room_version = (await hall.room(mid)).state.version
        await play_first(hall, mid, await whose_turn(hall, mid, [ANN, BOB]))
        assert (await hall.room(mid)).state.version > room_version == before


@pytest.mark.parametrize(
    ("source", "target", "says"),
    [
        ("hall.db", "{pg}", "'hall.db' is not a database URL"),
        ("sqlite:///{dir}/hall.db", "{pg}", "through aiosqlite, not pysqlite"),
        ("mysql+aiomysql://h/db", "{pg}", "runs on sqlite or postgresql, not mysql"),
        ("sqlite+aiosqlite:///{dir}/none.db", "{pg}", "there is no database at"),
        ("sqlite+aiosqlite:///{dir}/hall.db", "postgresql+asyncpg://{pg_host}/dh_none_x", "cannot"),
    ],
)
def test_a_bad_url_is_refused_with_what_is_wrong(
    tmp_path: Path, empty_postgres: str, source: str, target: str, says: str
) -> None:
    shutil.copy(FIXTURES / "m1.sqlite", tmp_path / "hall.db")
    host = empty_postgres.split("//", 1)[1].rsplit("/", 1)[0]
    fill = {"dir": str(tmp_path), "pg": empty_postgres, "pg_host": host}
    result = copy("--from", source.format(**fill), "--to", target.format(**fill))
    assert result.exit_code == 1 and says in result.output, result.output
    assert asyncio.run(rows_of_or_none(empty_postgres)) is None  # the target is untouched


async def rows_of_or_none(url: str) -> dict[str, Any] | None:
    """None when the database holds none of the hall's tables."""
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            names = await conn.run_sync(lambda c: c.dialect.get_table_names(c))
    finally:
        await engine.dispose()
    return None if not names else {"tables": names}


def test_a_database_of_a_newer_hall_is_refused_by_name(tmp_path: Path, empty_postgres: str) -> None:
    import sqlite3

    shutil.copy(FIXTURES / "m1.sqlite", tmp_path / "hall.db")
    db = sqlite3.connect(tmp_path / "hall.db")
    db.execute("UPDATE alembic_version SET version_num = '9999_from_the_future'")
    db.commit()
    db.close()
    result = copy("--from", f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}", "--to", empty_postgres)
    assert result.exit_code == 1, result.output
    assert "the source's schema cannot be read by this hall" in result.output
    assert "9999_from_the_future" in result.output
    assert asyncio.run(rows_of_or_none(empty_postgres)) is None


async def test_postgresql_sequences_are_set_past_the_ids_copied(empty_postgres: str) -> None:
    from sqlalchemy import text

    from dominohall.cli.copy_database import _fix_sequences

    engine = create_async_engine(empty_postgres)
    try:
        async with engine.begin() as conn:
            await conn.execute(text("CREATE TABLE counted (id serial PRIMARY KEY, x int)"))
            await conn.execute(text("INSERT INTO counted (id, x) VALUES (1, 0), (41, 0)"))  # copied
            await _fix_sequences(conn)
            added = await conn.execute(text("INSERT INTO counted (x) VALUES (1) RETURNING id"))
            assert added.scalar() == 42
    finally:
        await engine.dispose()
