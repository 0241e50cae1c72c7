"""A store call whose caller is cancelled runs to its end, and leaves nothing running behind it
(a cut-off call once left a connection's close waiting forever, and a test's event loop with
it)."""

from __future__ import annotations

import asyncio

import pytest

from dominohall.store import Store
from dominohall.store.store import StoredPlayer
from dominohall.store.uninterrupted import uninterrupted

pytestmark = pytest.mark.anyio


async def _cancel_soon(task: asyncio.Task[object], ticks: int) -> None:
    """Cancel ``task`` after ``ticks`` turns of the loop, then again at each of the next five
    (anyio's cancel scopes cancel again at every turn until the task ends)."""
    for _ in range(ticks):
        await asyncio.sleep(0)
    for _ in range(5):
        task.cancel()
        await asyncio.sleep(0)
    await asyncio.gather(task, return_exceptions=True)


async def test_a_caller_cancelled_once_the_write_began_is_cancelled_but_the_write_is_made(
    database_url: str,
):
    store = await Store.open(database_url)
    before = asyncio.all_tasks()
    try:
        for n in range(12):
            player = StoredPlayer(f"p{n}", f"P{n}", f"p{n}", None)
            task = asyncio.ensure_future(store.add_player(player))
            await _cancel_soon(task, ticks=n % 4)
            assert task.cancelled()
        # The callers stopped waiting; the writes run on to their end.
        writing = asyncio.all_tasks() - before
        if writing:
            _, running = await asyncio.wait(writing, timeout=10)
            assert not running, running
        for n in range(12):
            found = await store.player(f"p{n}")
            if n % 4 == 0:  # cancelled before it began: nothing was done
                assert found is None
            else:
                assert found is not None and found.name == f"P{n}"
    finally:
        await store.close()


async def test_reads_cut_off_at_every_point_leave_no_task_behind(database_url: str):
    store = await Store.open(database_url)
    before = asyncio.all_tasks()
    for n in range(60):
        await _cancel_soon(asyncio.ensure_future(store.player("nobody")), ticks=n % 8)
    await store.close()
    left = asyncio.all_tasks() - before
    if left:
        _, running = await asyncio.wait(left, timeout=3)
        assert not running, running


async def test_the_call_s_error_still_reaches_a_caller_that_waits():
    @uninterrupted
    async def fails() -> None:
        await asyncio.sleep(0)
        raise ValueError("no such table")

    with pytest.raises(ValueError, match="no such table"):
        await fails()


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
