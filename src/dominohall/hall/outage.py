"""A part the hall needs is unreachable (the database, or Redis between processes): the clocks
stop until it is back, then the time it was away is given back to every table held here.

The database away, a table cannot change: its commands are refused at once with
``store_unavailable`` (nothing is done, nothing shown as done; trying again later is safe),
and no deadline may fire, since nobody could have moved. Redis away, a table still changes
through this process's own sockets, but people connected through the other processes cannot
reach it (``owner_unreachable``): no deadline fires either.

So while any part is away (``Outage.down``), the scheduler holds every deadline that falls due
(``deadlines.Scheduler.pause``). Once every part is back, before any command is let in again:
every deadline still set is moved later by the outage's length (``shift``), every table held
here is resumed (a ``resumed`` event: its running clock given the same length back, the same
give-back as a restart's, and stored so that a restart keeps it), the held deadlines fire or
wait on, and every socket behind hears of its table (``announce``). The outage's length runs
from the first failure seen to the first check that succeeded: the database is looked at every
``PROBE_SECONDS`` while it is away, and Redis reports its own return.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from enum import Enum

from ..store import StoreUnavailable
from .clock import Clock

log = logging.getLogger("dominohall.hall")

PROBE_SECONDS = 0.5  # how often the database is tried while it is away


class Part(Enum):
    STORE = "database"
    REDIS = "Redis"


class Outage:
    """Which parts are away now and since when; the clocks' pause and give-back."""

    def __init__(
        self,
        clock: Clock,
        *,
        probe: Callable[[], Awaitable[object]],
        pause: Callable[[], None],
        give_back: Callable[[float], Awaitable[None]],
        probe_seconds: float = PROBE_SECONDS,
    ) -> None:
        """``probe``: a store call that succeeds once the database is back; ``pause``: hold
        the deadlines; ``give_back(seconds)``: the outage over, its length given back (and the
        deadlines let go); it raises ``StoreUnavailable`` if the database went away again."""
        self.clock = clock
        self.probe = probe
        self.pause = pause
        self.give_back = give_back
        self.probe_seconds = probe_seconds
        self.away: set[Part] = set()
        self.was_away: set[Part] = set()  # every part away during this outage
        self.since: float | None = None  # when the first part of this outage went away
        self._prober: asyncio.Task[None] | None = None
        self._ending: asyncio.Task[None] | None = None
        self.ended = asyncio.Event()  # (set after each outage's give-back; for tests and logs)

    @property
    def down(self) -> bool:
        """Whether the clocks are stopped: a part is away, or its outage is being given back."""
        return self.since is not None

    @property
    def store_down(self) -> bool:
        """Whether the database is away (or just back, its outage not yet given back):
        commands are refused."""
        return Part.STORE in self.away or (self.since is not None and Part.STORE in self.was_away)

    def noticed(self, part: Part) -> None:
        """A call found ``part`` unreachable."""
        if part in self.away:
            return
        log.warning("the %s is unreachable: the clocks stop until it is back", part.value)
        self.away.add(part)
        self.was_away.add(part)
        if self.since is None:
            self.since = self.clock.now()
            self.ended.clear()
            self.pause()
        if part is Part.STORE and (self._prober is None or self._prober.done()):
            self._prober = asyncio.create_task(self._probe_until_back())

    def back(self, part: Part) -> None:
        """``part`` is reachable again (the database's probe, Redis's own report)."""
        if part not in self.away:
            return
        self.away.discard(part)
        log.info("the %s is reachable again", part.value)
        if not self.away and (self._ending is None or self._ending.done()):
            self._ending = asyncio.create_task(self._end())

    async def _probe_until_back(self) -> None:
        while Part.STORE in self.away:
            await asyncio.sleep(self.probe_seconds)
            try:
                await self.probe()
            except StoreUnavailable:
                continue
            except Exception:  # noqa: BLE001 - reachable, if not well: the commands will say
                log.exception("probing the database")
            self.back(Part.STORE)

    async def _end(self) -> None:
        """Every part is back: the outage's length given back, then the clocks run again."""
        while self.since is not None and not self.away:
            length = max(0.0, self.clock.now() - self.since)
            try:
                await self.give_back(length)
            except StoreUnavailable:
                self.noticed(Part.STORE)  # away again: given back once it is back
                return
            except Exception:  # noqa: BLE001 - the clocks must not stay stopped for one table
                log.exception("giving back an outage of %.1f s", length)
            if not self.away:
                log.info("outage over: %.1f s given back to the running clocks", length)
                self.since = None
                self.was_away.clear()
                self.ended.set()

    async def close(self) -> None:
        for task in (self._prober, self._ending):
            if task is not None:
                task.cancel()
        await asyncio.gather(
            *(t for t in (self._prober, self._ending) if t is not None), return_exceptions=True
        )
