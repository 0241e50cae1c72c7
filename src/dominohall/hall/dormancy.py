"""Which live tables may leave memory while they wait, and when one must come back.

A turn-based game waits hours or days for each move, so a hall of many keeps most of them
asleep: out of memory, with a note in the store (``store/wakes.py``) of what a start needs
without replaying the table's log: its next deadline, its people (for "how many games do I
play" and the index of their tables), its lobby entry and its line in "My games". Its owner
writes the note as the table falls asleep and, for every table in memory that may sleep, at a
clean stop (a table changed since its note when its process was killed is read from its log at
the next start, as before); a start reads every current note in one query, arms each table's
wake-up (``Wakeups``) and loads none of them. A table is loaded again, replayed
from its log and resumed with the downtime its note owes, at the first command, socket, view
or deadline that needs it (``Rooms.load``), and falls asleep again once nobody has used it for
the hall's idle time (``Hall.sleep_idle``).

Only a table that nothing in memory would move may sleep: a person's turn in a turn-based game
under way (a computer player's turn, a deal or a forced move is run at once), with no resign
request pending (a request lives in memory only). Real-time tables never sleep.
"""

from __future__ import annotations

from typing import Any

from .deadlines import DeadlineKey, Scheduler
from .listing import Listing
from .table import Phase, TableState
from .table.clocks import Due

# What wakes a sleeping table: each of these is armed for it as the table's own deadline.
WAKING = (Due.TURN, Due.REMINDER)
IDLE_SECONDS = 600.0  # a table nobody used for this long falls asleep (one process's memory)
# Tables asleep are woken a minute at a time: one deadline a minute, not one a table (100,000
# deadlines took a start seconds and their timers memory), each up to this much early.
GRAIN = 60.0
_MINUTE = "wake:"  # a minute's deadline is keyed by this and its number (no table id has ':')


class Wakeups:
    """When each table asleep must be loaded, kept as one deadline of ``scheduler`` a minute
    (``Due.WAKE``; at the minute's start, so a table is woken up to a minute early, never
    late): the scheduler's own rules hold (fired once, held while an outage pauses it)."""

    def __init__(self, scheduler: Scheduler) -> None:
        self.scheduler = scheduler
        self._minutes: dict[int, set[str]] = {}
        self._minute_of: dict[str, int] = {}

    def set(self, table_id: str, when: float) -> None:
        """Wake the table at ``when`` (within the minute before), instead of when it was."""
        self.cancel(table_id)
        minute = int(when // GRAIN)
        tables = self._minutes.get(minute)
        if tables is None:
            tables = self._minutes[minute] = set()
            self.scheduler.set(DeadlineKey(f"{_MINUTE}{minute}", Due.WAKE), minute * GRAIN)
        tables.add(table_id)
        self._minute_of[table_id] = minute

    def cancel(self, table_id: str) -> None:
        minute = self._minute_of.pop(table_id, None)
        if minute is None:
            return
        tables = self._minutes[minute]
        tables.discard(table_id)
        if not tables:
            del self._minutes[minute]
            self.scheduler.cancel(DeadlineKey(f"{_MINUTE}{minute}", Due.WAKE))

    def when(self, table_id: str) -> float | None:
        """When the table is woken (None: it is not to be)."""
        minute = self._minute_of.get(table_id)
        return None if minute is None else minute * GRAIN

    def due(self, key: DeadlineKey) -> list[str]:
        """The tables of a minute that fell due, no longer to be woken by it."""
        minute = int(key.table.removeprefix(_MINUTE))
        tables = self._minutes.pop(minute, set())
        for table_id in tables:
            del self._minute_of[table_id]
        return sorted(tables)


def may_sleep(state: TableState) -> bool:
    """Whether the table as it is may be out of memory until its next deadline."""
    turn = state.turn
    return (
        state.options.turn_based is not None
        and state.phase is Phase.PLAYING
        and turn is not None
        and state.seats[turn].is_person
        and state.resign_request is None
    )


def wake_at(state: TableState) -> float | None:
    """When the sleeping table must be loaded: its earliest deadline (None: it has none). Early
    is harmless (loaded, it sets its own deadlines again); late never happens, since a
    table's deadlines only move later while nothing happens at it (downtime given back)."""
    due = state.deadlines()
    times = [due[what] for what in WAKING if what in due]
    return min(times) if times else None


def listing_of(state: TableState) -> dict[str, Any]:
    """How "My games" lists the table, and each person's seat, as kept in its note."""
    seats = {s.player: s.seat for s in state.people() if s.player is not None}
    return {**Listing.of(state).to_json(), "seats": seats}


def players_of(state: TableState) -> tuple[str, ...]:
    """The people playing a seat (as ``TableState.seat_of`` finds them)."""
    return tuple(sorted({s.player for s in state.people() if s.player is not None}))
