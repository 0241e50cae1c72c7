"""The cycle collector while the hall serves: short pauses, often, instead of long ones.

Every open socket keeps a chain of waiting coroutines and futures that is replaced at each
message. Each new chain is young, and the old one it replaces is freed, so the collector's
allocation count barely moves while its youngest generation fills up with thousands of live
chains; when a collection finally comes it walks all of them at once (tens of milliseconds with
a thousand tables, every move on the server waiting). So the hall collects the youngest
generation itself every ``YOUNG_EVERY`` seconds, a few milliseconds each time, and the middle
generation, which holds the chains that survived, only rarely. What the hall loaded at start is
frozen out of every pass (``gc.freeze``).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import AsyncIterator

YOUNG_EVERY = 0.05  # seconds between collections of the youngest generation
# Thresholds: the youngest as a backstop between our passes; the middle generation after five
# thousand young passes (every five minutes or so: it holds every socket's live chain, so a pass
# there is the long one, 0.1-0.2 s with a thousand tables); the oldest as Python's default.
THRESHOLDS = (50_000, 5_000, 10)


@contextlib.asynccontextmanager
async def collector_for_serving() -> AsyncIterator[None]:
    """Run the collector as described above; everything is undone when the hall stops."""
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    task = asyncio.create_task(_collect_young(), name="collect-young")
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        gc.set_threshold(*before)
        gc.unfreeze()


async def _collect_young() -> None:
    while True:
        await asyncio.sleep(YOUNG_EVERY)
        gc.collect(0)
