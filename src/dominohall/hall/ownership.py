"""Which live tables this process owns, by lease (several processes on one database: the hall's
``redis_url`` is set; one process on SQLite holds no leases at all).

A process holds a table's lease (``store/leases.py``) while it plays the table: it renews every
lease it holds every third of the lease time, and its writes carry the lease's fencing token, so
that once the lease is lost (renewal found it taken, or a commit was fenced) nothing it still
has in flight can land. It lets such a table go at once (``Adopter.let_go``: its clocks and its
computer player stopped, the table out of memory); the new owner's first change tells every
socket, and the ones behind resync.

The same loop takes over the live tables nobody holds (their process died, or never was:
several processes starting at once each take a share), and ``Adopter.adopt`` loads and resumes
each; a table asked for that nobody holds is taken over on demand the same way (``take_over``).
The time a table had no owner is charged to no clock: it is given back from the later of its
last event and its last owner's last renewal (``Adopter.adopt``'s ``since``).

A process of the socket tier (``serve --sockets-only``: ``plays=False``) plays no table: it
never takes a lease, so it renews and takes over nothing; its tables' commands all go to the
game tier (``owners.py``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import secrets
import socket
from collections.abc import Callable
from typing import Protocol

from ..store import StoreUnavailable
from ..store.leases import Lease, TableLeases
from .clock import Clock

log = logging.getLogger("dominohall.hall")

LEASE_SECONDS = 10.0  # a dead process's tables wait this long at most before another takes them
TAKE_BATCH = 100  # tables taken over per round, so that a round stays short


def new_process_id() -> str:
    """A name for this start of this process: the host, the pid and a random part, so that a
    restarted process never mistakes its earlier life's leases for its own."""
    host = socket.gethostname()[:32]
    return f"{host}-{os.getpid()}-{secrets.token_hex(4)}"


class Adopter(Protocol):
    """What the hall does when it gains or loses a table (``Hall``)."""

    async def adopt(self, table_id: str, since: float | None) -> None:
        """Load and resume a table just taken over; ``since``: its last owner's last renewal
        (None: it never had one)."""
        ...

    def let_go(self, table_id: str) -> None:
        """Stop playing a table whose lease was lost: its clocks, its computer player, its room."""
        ...


class Ownership:
    """The leases this process holds, renewed, and the tables nobody holds, taken over."""

    def __init__(
        self,
        leases: TableLeases,
        clock: Clock,
        *,
        process_id: str,
        lease_seconds: float = LEASE_SECONDS,
        rng: random.Random | None = None,
        plays: bool = True,
    ) -> None:
        self.leases = leases
        self.plays = plays  # False: the socket tier, holding no table ever
        self.clock = clock
        self.process_id = process_id
        self.lease_seconds = lease_seconds
        self.rng = rng or random.Random()
        self.held: dict[str, Lease] = {}
        self.adopter: Adopter | None = None  # set by the hall
        # Told when a round finds the database away (the hall's outage: ``outage.py``).
        self.unreachable: Callable[[], None] | None = None
        # Told each table this process begins or stops holding (the broker listens to the
        # changes of the tables it does not hold only: ``redis_broker.py``).
        self.changed: Callable[[str], None] = lambda _table_id: None
        # One take-over at a time: acquiring a lease this process holds already would give it a
        # new token and fence the writes of the first.
        self._taking = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None

    # The fence the command path asks (``command_path.Fence``) --------------------------------
    def token(self, table_id: str) -> int | None:
        """The fencing token to write the table with (None: this process does not hold it)."""
        lease = self.held.get(table_id)
        return None if lease is None else lease.token

    def holds(self, table_id: str) -> bool:
        return table_id in self.held

    async def acquire(self, table_id: str) -> bool:
        """Take the table's lease (a new table, opened here); False when someone holds it, or
        when this process plays no table (the one check that keeps the socket tier leaseless)."""
        if not self.plays:
            return False
        lease = await self.leases.acquire(
            table_id, self.process_id, self.clock.now(), self.lease_seconds
        )
        if lease is not None:
            self.held[table_id] = lease
            self.changed(table_id)
        return lease is not None

    def lost(self, table_id: str) -> None:
        """The table's lease is gone (a commit was fenced, or its renewal failed): let it go."""
        if self.held.pop(table_id, None) is not None:
            self.changed(table_id)
            log.warning("table %s: lease lost, let go", table_id)
            if self.adopter is not None:
                self.adopter.let_go(table_id)

    # Taking over ----------------------------------------------------------------------------
    async def take_over(self, table_id: str) -> bool:
        """Take a table nobody holds, then load and resume it here; False: another process
        holds it (or took it first)."""
        async with self._taking:
            if self.holds(table_id):
                return True
            since = await self.leases.last_renewal(table_id, self.lease_seconds)
            if not await self.acquire(table_id):
                return False
            try:
                if self.adopter is not None:
                    await self.adopter.adopt(table_id, since)
            except BaseException:
                # Not resumed: given up at once, for another process (or the next round) to take.
                lease = self.held.pop(table_id, None)
                if lease is not None:
                    self.changed(table_id)
                    await self.leases.release(lease)  # (run to its end: store/uninterrupted.py)
                raise
            return True

    async def tick(self) -> None:
        """One round: renew every lease held (letting go of the lost), then take over up to
        ``TAKE_BATCH`` of the live tables nobody holds, in random order (processes starting
        together then mostly try different tables first)."""
        if not self.plays:
            return
        await self.renew()
        now = self.clock.now()
        free = await self.leases.claimable(now, TAKE_BATCH)
        self.rng.shuffle(free)
        for table_id in free:
            try:
                await self.take_over(table_id)
            except Exception:  # noqa: BLE001 - one table that fails to load stops no other
                log.exception("taking over table %s failed", table_id)

    async def renew(self) -> None:
        """Renew every lease held, letting go of the tables whose lease was lost (also the
        first thing done once the database is back after an outage: a lease that expired
        meanwhile is kept if nobody took it)."""
        now = self.clock.now()
        held = list(self.held.values())
        lost = {lease.name for lease in await self.leases.renew(held, now, self.lease_seconds)}
        for lease in held:
            if lease.name in lost:
                self.lost(lease.name)
            elif self.held.get(lease.name) is lease:
                self.held[lease.name] = Lease(
                    lease.name, lease.owner, lease.token, now + self.lease_seconds
                )

    # The loop -------------------------------------------------------------------------------
    def start(self) -> None:
        if self.plays:  # (the socket tier has nothing to renew or take)
            self._task = asyncio.create_task(self._loop())

    async def _loop(self) -> None:
        # Real seconds between rounds (the lease's arithmetic is the clock's: a test's hand-driven
        # clock moves leases only when told, and these rounds then renew in place).
        while True:
            await asyncio.sleep(self.lease_seconds / 3)
            try:
                await self.tick()
            except StoreUnavailable:  # the next round tries again
                log.warning("renewing the tables' leases: the database is unreachable")
                if self.unreachable is not None:
                    self.unreachable()
            except Exception:  # noqa: BLE001 - the next round tries again
                log.exception("renewing the tables' leases failed")

    async def stop(self, *, release: bool = True) -> None:
        """Stop renewing; ``release``: give every lease up, so that another process takes the
        tables at once (a clean shutdown), rather than after the lease time."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        if release:
            held, self.held = list(self.held.values()), {}
            for lease in held:
                self.changed(lease.name)
                try:
                    await self.leases.release(lease)
                except Exception:  # noqa: BLE001 - it expires by itself
                    log.exception("releasing the lease of table %s failed", lease.name)
