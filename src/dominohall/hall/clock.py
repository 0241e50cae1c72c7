"""The hall's time: the real clock in service, a hand-driven one in tests (timers fire on ``advance``)."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

Callback = Callable[[], Awaitable[None]]
log = logging.getLogger("dominohall.hall")


class Timer(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch."""
        ...

    def call_at(self, when: float, callback: Callback) -> Timer:
        """Run ``callback`` (a coroutine function) at ``when`` unless cancelled first."""
        ...


class SystemClock:
    def __init__(self) -> None:
        self._running: set[asyncio.Task[None]] = set()

    def now(self) -> float:
        return time.time()

    def call_at(self, when: float, callback: Callback) -> Timer:
        loop = asyncio.get_running_loop()
        # The loop's clock is not the wall clock: a little late, never early (a callback that
        # finds its deadline not yet reached by time.time() would not run at all).
        return loop.call_later(max(0.0, when - time.time()) + 0.02, self._run, callback)

    def _run(self, callback: Callback) -> None:
        task: asyncio.Task[None] = asyncio.create_task(callback())  # type: ignore[arg-type]
        self._running.add(task)  # keep a reference until it is done
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._running.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a timer failed", exc_info=task.exception())


class _ManualTimer:
    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A clock that moves only when told to; ``advance`` runs every timer that falls due, in order."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.t = start
        self._timers: list[tuple[float, int, _ManualTimer, Callback]] = []
        self._seq = itertools.count()

    def now(self) -> float:
        return self.t

    def call_at(self, when: float, callback: Callback) -> Timer:
        timer = _ManualTimer()
        heapq.heappush(self._timers, (when, next(self._seq), timer, callback))
        return timer

    async def advance(self, seconds: float) -> None:
        end = self.t + seconds
        while self._timers and self._timers[0][0] <= end:
            when, _, timer, callback = heapq.heappop(self._timers)
            if timer.cancelled:
                continue
            self.t = max(self.t, when)
            await callback()
        self.t = end
