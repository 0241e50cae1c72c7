"""The store's opening: a database it cannot upgrade is refused, and leaves nothing open."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import threading
from pathlib import Path

import pytest
from alembic.util import CommandError

from dominohall.store import Store

pytestmark = pytest.mark.anyio
FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_a_newer_halls_database_is_refused_and_its_connection_closed(tmp_path: Path):
    shutil.copy(FIXTURES / "m1.sqlite", tmp_path / "hall.db")
    with sqlite3.connect(tmp_path / "hall.db") as db:
        db.execute("UPDATE alembic_version SET version_num = '9999_from_the_future'")
    db.close()
    threads = threading.active_count()
    with pytest.raises(CommandError, match="9999_from_the_future"):
        await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}")
    # Its connection is closed: the thread aiosqlite runs each open connection in is gone
    # (left to the garbage collector, it warns, in whichever test happens to be running).
    for _ in range(50):
        if threading.active_count() <= threads:
            break
        await asyncio.sleep(0.02)
    assert threading.active_count() <= threads
