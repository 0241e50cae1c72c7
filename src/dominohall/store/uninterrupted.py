"""A store call is never cut off halfway: its caller may be cancelled, the call itself runs on.

A database call cancelled while it waits for its driver leaves SQLAlchemy a connection in an
unknown state, which it then throws away ("terminates"). With aiosqlite 0.22 that throwing away
can wait forever (it stops the connection's thread, then waits for the thread to answer once
more), and SQLAlchemy 2.1 waits for the connection's close to finish even when told to stop:
a process (or a test's event loop) then never finishes stopping. Cut off on SQLite, a write
also keeps the database's write lock until its connection is collected.

So each public call of the store's classes runs in a task of its own. A cancelled caller
stops waiting after ``SETTLE_SECONDS`` at most (or at once when cancelled again, as anyio
does), and is cancelled as asked; the call runs to its end all the same and commits or rolls
back on its own.

A call that finds the database unreachable raises ``errors.StoreUnavailable`` (whatever the
driver said), so that the hall tells an outage from a refusal in one way.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

from .errors import unavailable_or_not

SETTLE_SECONDS = 5.0

# The calls running now (their callers may have stopped waiting): a store closing waits for them,
# so that none returns its connection to an engine already disposed of (left open, then).
_under_way: set[asyncio.Task[Any]] = set()

P = ParamSpec("P")
R = TypeVar("R")
C = TypeVar("C", bound=type)


async def to_its_end(work: Awaitable[R]) -> R:
    """Await ``work`` to its end even if the caller is cancelled meanwhile: the caller stops
    waiting after ``SETTLE_SECONDS`` at most (at once when cancelled again) and is cancelled as
    asked; ``work`` runs on regardless."""
    task = asyncio.ensure_future(work)
    _under_way.add(task)
    task.add_done_callback(_under_way.discard)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        task.add_done_callback(_unheard)
        await asyncio.wait([task], timeout=SETTLE_SECONDS)
        raise


def uninterrupted(call: Callable[P, Coroutine[Any, Any, R]]) -> Callable[P, Coroutine[Any, Any, R]]:
    """``call`` run to its end even when whoever awaits it is cancelled (see above)."""

    @functools.wraps(call)
    async def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await to_its_end(call(*args, **kwargs))
        except Exception as error:
            translated = unavailable_or_not(error)
            if translated is error:
                raise
            raise translated from error

    return run


async def calls_ended() -> None:
    """Wait (``SETTLE_SECONDS`` at most) for the calls running on this event loop to end: a
    store about to close its engine."""
    loop, me = asyncio.get_running_loop(), asyncio.current_task()
    running = [t for t in _under_way if t.get_loop() is loop and t is not me]
    if running:
        await asyncio.wait(running, timeout=SETTLE_SECONDS)


def _unheard(task: asyncio.Future[Any]) -> None:
    """A call whose caller went away: its error is nobody's now (not logged as unretrieved)."""
    if not task.cancelled():
        task.exception()


def uninterrupted_calls(cls: C) -> C:
    """Every public coroutine method of ``cls`` made ``uninterrupted``."""
    for name, member in list(vars(cls).items()):
        if not name.startswith("_") and inspect.iscoroutinefunction(member):
            setattr(cls, name, uninterrupted(member))
    return cls
