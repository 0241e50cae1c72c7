"""Jobs that must run on one process at a time, however many share the database: the email
notices (each process hears every player's channel through Redis: two would email twice), the
clean-up of idle guests, the games' index at start.

A job runs while its process holds the job's claim (``store.job_leases``: a lease with a
fencing token), renewed as it runs. When the holder dies its claim lapses, and the next process
to ask takes the job over. On one process (SQLite, ``make run``) the claim is always granted: the
job runs as it always did.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace

from ..store.leases import Lease, Leases
from ..store.uninterrupted import to_its_end
from .clock import Clock

log = logging.getLogger("dominohall.hall")

# How long a claim holds without being renewed: a dead holder's job waits at most this long.
CLAIM_SECONDS = 30.0


class Claim:
    """This process's claim on one job."""

    def __init__(
        self, leases: Leases, job: str, owner: str, clock: Clock, ttl: float = CLAIM_SECONDS
    ) -> None:
        self.leases = leases
        self.job = job
        self.owner = owner
        self.clock = clock
        self.ttl = ttl
        self._lease: Lease | None = None

    @property
    def held(self) -> bool:
        """Whether this process held the job at its last ``claim``."""
        return self._lease is not None

    async def claim(self) -> bool:
        """Hold the job from now for ``ttl`` (taken, or the hold renewed); False when another
        process holds it."""
        now = self.clock.now()
        if self._lease is not None:
            lost = await self.leases.renew([self._lease], now, self.ttl)
            if not lost:
                self._lease = replace(self._lease, expires_at=now + self.ttl)
                return True
            log.warning("job %s: the claim was lost (another process runs it now)", self.job)
            self._lease = None
        acquiring = asyncio.ensure_future(self.leases.acquire(self.job, self.owner, now, self.ttl))
        try:
            # Awaited to its end even if this caller is cancelled: the claim it took is known
            # (below), and so released.
            self._lease = await to_its_end(acquiring)
        finally:
            # Cancelled meanwhile (a process stopping): the claim it took is still released.
            if not acquiring.cancelled() and acquiring.exception() is None:
                self._lease = acquiring.result()
        return self._lease is not None

    async def release(self) -> None:
        """Give the job up at once (a process that stops), so another need not wait."""
        if self._lease is not None:
            lease, self._lease = self._lease, None
            await self.leases.release(lease)  # (a store call runs to its end: uninterrupted.py)


async def every_round(
    claim: Claim, seconds: float, work: Callable[[], Awaitable[object]], what: str
) -> None:
    """A round of ``work`` now and every ``seconds`` after, each while this process holds
    ``claim`` (skipped when another does), a failed round logged (the next one tries again);
    until cancelled, the claim then given up."""
    try:
        while True:
            try:
                if await claim.claim():
                    await work()
            except Exception:  # noqa: BLE001 - the next round tries again
                log.exception("%s: a round failed", what)
            await asyncio.sleep(seconds)
    finally:
        await claim.release()


class ClaimedJob:
    """A lasting job (``start`` it, ``stop`` it) that runs while this process holds its claim,
    asked again every ``every`` seconds (a third of the claim's time by default): started when
    the claim is taken, stopped when it is lost, and given up when the process stops; ``keep``
    is run at each renewal while it runs (the job's look at what changed elsewhere)."""

    def __init__(
        self,
        claim: Claim,
        start: Callable[[], Awaitable[None]],
        stop: Callable[[], Awaitable[None]],
        every: float | None = None,
        keep: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.claim = claim
        self._start = start
        self._stop = stop
        self._keep = keep  # asked each time the claim is renewed while the job runs
        self.every = every if every is not None else claim.ttl / 3
        self.running = False
        self._task: asyncio.Task[None] | None = None

    async def begin(self) -> None:
        """Ask for the claim once now (the job starts before this returns if it is this
        process's), then again and again in the background."""
        await self.ask()
        self._task = asyncio.create_task(self._keep_asking(), name=f"job-{self.claim.job}")

    async def end(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        if self.running:
            self.running = False
            await self._stop()
        with contextlib.suppress(Exception):  # (the claim lapses by itself anyway)
            await self.claim.release()

    async def _keep_asking(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            await self.ask()

    async def ask(self) -> None:
        """Ask for the claim now: start the job if it was taken, stop it if it was lost."""
        try:
            held = await self.claim.claim()
        except Exception:  # noqa: BLE001 - the database away: the job stops until it is back
            log.exception("job %s: the claim could not be asked", self.claim.job)
            held = False
        if held and not self.running:
            await self._start()
            self.running = True
            log.info("job %s runs on this process", self.claim.job)
        elif held and self._keep is not None:
            try:
                await self._keep()
            except Exception:  # noqa: BLE001 - asked again at the next renewal
                log.exception("job %s: keeping up failed", self.claim.job)
        elif self.running and not held:
            self.running = False
            await self._stop()
