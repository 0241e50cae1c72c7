"""Every deadline of the hall, kept by one scheduler: keyed, replaced by key, fired once, never early.

A deadline is data: a key (the table, what runs out, and for whom) and the time it falls due.
What happens then is decided by the one handler the scheduler was given, from the key and the
table as it is by then, so a scheduler that stores deadlines elsewhere (several processes) can
take this one's place without changing its callers. Deadlines are derived from the table's stored
state (a turn's start plus the timer, ...), so after a restart the hall sets them again from it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from .clock import Clock, Timer
from .table.clocks import Due as Due


@dataclass(frozen=True)
class DeadlineKey:
    table: str
    due: Due
    seat: int | None = None


Handler = Callable[[DeadlineKey], Awaitable[None]]


class Scheduler(Protocol):
    """Fires each deadline exactly once, at or after its time, through the scheduler's handler."""

    def set(self, key: DeadlineKey, when: float) -> None:
        """Fire ``key`` at ``when`` (at once if that is past), replacing its earlier deadline."""
        ...

    def cancel(self, key: DeadlineKey) -> None:
        """Forget ``key``'s deadline, if it has one."""
        ...

    def cancel_table(self, table: str) -> None:
        """Forget every deadline of a table."""
        ...

    def when(self, key: DeadlineKey) -> float | None:
        """When ``key`` falls due, or None when it has no deadline (fired or never set)."""
        ...

    def close(self) -> None:
        """Forget every deadline."""
        ...

    def pause(self) -> None:
        """Fire nothing until ``unpause``: a deadline that falls due meanwhile is held, still
        set (a part of the hall is away: ``outage.py``)."""
        ...

    def shift(self, seconds: float) -> None:
        """Every deadline set, later by ``seconds`` (an outage's length given back)."""
        ...

    def unpause(self) -> None:
        """Fire again: the deadlines held fire at once, the others when due."""
        ...


@dataclass(eq=False)
class _Deadline:
    when: float
    timer: Timer | None = None


class LoopScheduler:
    """The deadlines of this process, kept in memory and woken through the clock's ``call_at``.

    An event loop may wake a callback before its time (uvloop by up to a millisecond): such a
    wake-up sets the alarm again instead of firing, or returning with nothing set.
    """

    def __init__(self, clock: Clock, handler: Handler) -> None:
        self.clock = clock
        self.handler = handler
        self._tables: dict[str, dict[DeadlineKey, _Deadline]] = {}
        self.paused = False
        self.early_wakeups = 0  # how often the clock woke a deadline before its time (benchmarks)

    def set(self, key: DeadlineKey, when: float) -> None:
        if self.when(key) == when:
            return  # set again as it was (the table changed, its clock did not)
        self.cancel(key)
        deadline = _Deadline(when)
        self._tables.setdefault(key.table, {})[key] = deadline
        self._arm(key, deadline)

    def cancel(self, key: DeadlineKey) -> None:
        table = self._tables.get(key.table)
        deadline = table.pop(key, None) if table is not None else None
        if deadline is None:
            return
        if not table:
            del self._tables[key.table]
        if deadline.timer is not None:
            deadline.timer.cancel()

    def cancel_table(self, table: str) -> None:
        for key in list(self._tables.get(table, ())):
            self.cancel(key)

    def when(self, key: DeadlineKey) -> float | None:
        deadline = self._tables.get(key.table, {}).get(key)
        return deadline.when if deadline is not None else None

    def close(self) -> None:
        for table in list(self._tables):
            self.cancel_table(table)

    def pause(self) -> None:
        self.paused = True

    def shift(self, seconds: float) -> None:
        for table in self._tables.values():
            for key, deadline in table.items():
                if deadline.timer is not None:
                    deadline.timer.cancel()
                deadline.when += seconds
                self._arm(key, deadline)

    def unpause(self) -> None:
        if not self.paused:
            return
        self.paused = False
        for table in list(self._tables.values()):
            for key, deadline in list(table.items()):
                if deadline.timer is None:  # held while paused
                    self._arm(key, deadline)

    def _arm(self, key: DeadlineKey, deadline: _Deadline) -> None:
        async def wake() -> None:
            await self._wake(key, deadline)

        deadline.timer = self.clock.call_at(deadline.when, wake)

    async def _wake(self, key: DeadlineKey, deadline: _Deadline) -> None:
        if self._tables.get(key.table, {}).get(key) is not deadline:
            return  # replaced or cancelled after the alarm went off
        if self.paused:
            deadline.timer = None  # held, still set: armed again by ``unpause``
            return
        if self.clock.now() < deadline.when:
            self.early_wakeups += 1
            self._arm(key, deadline)
            return
        self.cancel(key)  # before the handler runs: it fires once, and the handler may set it again
        await self.handler(key)
