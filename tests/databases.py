"""The databases the store's tests run on: SQLite in the test's folder, and PostgreSQL.

Each PostgreSQL test gets a throwaway database copied from a template that is migrated once per
test session (a copy takes a fraction of a second, migrating takes seconds), dropped after the
test. PostgreSQL is the machine's (127.0.0.1:5432, trust auth; `scripts/services.sh` starts it):
where it is not reachable its tests are skipped, and the skip says why.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import asyncpg
import pytest

from dominohall.store import Store

POSTGRES = os.environ.get("DOMINOHALL_TEST_POSTGRES", "postgres@127.0.0.1:5432")
BACKENDS = [pytest.param("sqlite"), pytest.param("postgresql", marks=pytest.mark.postgresql)]


def sqlite_url(folder: Path) -> str:
    return f"sqlite+aiosqlite:///{folder / 'hall.db'}"


def postgres_url(database: str) -> str:
    return f"postgresql+asyncpg://{POSTGRES}/{database}"


async def _admin(*statements: str) -> None:
    connection = await asyncpg.connect(f"postgresql://{POSTGRES}/postgres", timeout=5)
    try:
        for statement in statements:
            await connection.execute(statement)
    finally:
        await connection.close()


async def _migrate(database: str) -> None:
    store = await Store.open(postgres_url(database))
    await store.close()


class PostgresTemplate:
    """A migrated database that each test's database is copied from.

    The next test's copy is made, and the last test's dropped, on a thread of their own while a
    test runs: a copy takes about half a second, mostly PostgreSQL writing it, and 265 tests ask
    for one."""

    def __init__(self) -> None:
        self.name = f"dh_template_{uuid.uuid4().hex[:12]}"
        self.error: str | None = None
        try:
            asyncio.run(_admin(f'CREATE DATABASE "{self.name}"'))
        except (TimeoutError, OSError, asyncpg.PostgresError) as error:
            self.error = f"PostgreSQL is not reachable at {POSTGRES}: {error}"
            return
        asyncio.run(_migrate(self.name))
        self._aside = ThreadPoolExecutor(1, thread_name_prefix="postgres-copies")
        self._next: Future[str] = self._aside.submit(self._copy)

    def copy(self) -> str:
        """A new database, migrated, for one test; its name."""
        name = self._next.result()
        self._next = self._aside.submit(self._copy)
        return name

    def drop(self, name: str) -> None:
        self._aside.submit(self._drop, name)

    def close(self) -> None:
        if self.error is None:
            self.drop(self._next.result())
            self._aside.shutdown(wait=True)
            self._drop(self.name)

    def _copy(self) -> str:
        name = f"dh_test_{uuid.uuid4().hex[:12]}"
        asyncio.run(_admin(f'CREATE DATABASE "{name}" TEMPLATE "{self.name}"'))
        return name

    @staticmethod
    def _drop(name: str) -> None:
        asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(scope="session")
def postgres_template() -> Iterator[PostgresTemplate]:
    template = PostgresTemplate()
    yield template
    template.close()


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A migrated, empty database for one test, on each backend in turn."""
    if request.param == "sqlite":
        yield sqlite_url(tmp_path)
        return
    yield request.getfixturevalue("postgres_database")


@pytest.fixture
def postgres_database(postgres_template: PostgresTemplate) -> Iterator[str]:
    """A migrated, empty PostgreSQL database for one test (its URL); skipped without one."""
    if postgres_template.error is not None:
        pytest.skip(postgres_template.error)
    name = postgres_template.copy()
    try:
        yield postgres_url(name)
    finally:
        postgres_template.drop(name)
