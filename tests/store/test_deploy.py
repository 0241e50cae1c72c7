"""What docs/deploy.md promises of a hall on PostgreSQL: commits are synchronous, and a dump
restored into a new database resumes every table, its secret with it."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from databases import POSTGRES, PostgresTemplate, _admin, postgres_url
from dominohall.hall import ManualClock
from dominohall.hall.secret import database_secret
from dominohall.store import Store
from hall.helpers import ANN, BOB, play_first, running_hall, started_table, whose_turn

pytestmark = [pytest.mark.anyio, pytest.mark.postgresql]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def two_databases(postgres_template: PostgresTemplate) -> Iterator[tuple[str, str]]:
    """A migrated database for a hall, and an empty one to restore its dump into (names)."""
    if postgres_template.error is not None:
        pytest.skip(postgres_template.error)
    hall, restored = postgres_template.copy(), f"dh_restored_{uuid.uuid4().hex[:12]}"
    asyncio.run(_admin(f'CREATE DATABASE "{restored}"'))
    try:
        yield hall, restored
    finally:
        postgres_template.drop(hall)
        postgres_template.drop(restored)


def _libpq(database: str) -> str:
    return f"postgresql://{POSTGRES}/{database}"


async def test_the_hall_commits_with_synchronous_commit_on(
    two_databases: tuple[str, str],
) -> None:
    store = await Store.open(postgres_url(two_databases[0]))
    try:
        async with store.engine.connect() as conn:
            assert (await conn.execute(text("SHOW synchronous_commit"))).scalar() == "on"
    finally:
        await store.close()


async def test_a_dump_restored_into_a_new_database_resumes_every_table(
    two_databases: tuple[str, str], tmp_path: Path
) -> None:
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        pytest.skip("pg_dump and pg_restore are not installed")
    hall_db, restored = two_databases
    clock = ManualClock()
    async with running_hall(postgres_url(hall_db), clock) as hall:
        table = await started_table(hall, [ANN, BOB], preset="draw", target=100)
        await play_first(hall, table, await whose_turn(hall, table, [ANN, BOB]))
        secret = await database_secret(hall.store, tmp_path)
        # The dump is taken while the hall runs: one transaction, the hall at one moment.
        dump = tmp_path / "hall.dump"
        await asyncio.to_thread(
            subprocess.run,
            ["pg_dump", "--format=custom", f"--file={dump}", _libpq(hall_db)],
            check=True,
        )
        version = (await hall.room(table)).state.version
    await asyncio.to_thread(
        subprocess.run,
        ["pg_restore", "--no-owner", f"--dbname={_libpq(restored)}", str(dump)],
        check=True,
    )
    await clock.advance(30)
    async with running_hall(postgres_url(restored), clock) as hall:
        state = (await hall.room(table)).state
        assert state.version == version + 1  # the dump's log, and the give-back of the time down
        assert await hall.store.meta("secret") == secret
        await play_first(hall, table, await whose_turn(hall, table, [ANN, BOB]))
        assert (await hall.room(table)).state.version > version + 1
