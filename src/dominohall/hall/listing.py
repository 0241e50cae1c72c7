"""A table as "My games" lists it (docs/protocol.md 2, 8): made once a change, for any of its
seats, so that a player's socket on any process keeps its list current from the changes it
hears, without asking for the table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import messages
from .table import Phase, TableState
from .views import summary


@dataclass(frozen=True)
class Listing:
    summary: messages.TableSummary
    turn: int | None
    deadline: float | None  # when the clock running now runs out (whoever's it is)
    waiting: frozenset[int]  # the seats whose person the table waits for
    wait_ends: float | None  # when what it waits for runs out
    finished: bool

    @classmethod
    def of(cls, state: TableState) -> Listing:
        waiting = frozenset(s.seat for s in state.seats if state.waits_for(s.seat))
        between = state.phase is Phase.BETWEEN_HANDS
        return cls(
            summary(state),
            state.turn,
            state.clock_deadline(),
            waiting,
            state.next_hand_deadline if between else state.turn_deadline,
            state.phase is Phase.FINISHED,
        )

    def to_json(self) -> dict[str, Any]:
        """The listing as JSON (kept with a table asleep: ``dormancy.py``)."""
        return {
            "summary": self.summary,
            "turn": self.turn,
            "deadline": self.deadline,
            "waiting": sorted(self.waiting),
            "wait_ends": self.wait_ends,
            "finished": self.finished,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], later_by: float = 0.0) -> Listing:
        """A listing kept as JSON, its clock's deadlines ``later_by`` seconds later (the
        downtime its table is owed: given back to the clock running, when it is loaded)."""
        deadline, ends = data["deadline"], data["wait_ends"]
        return cls(
            data["summary"],
            data["turn"],
            None if deadline is None else deadline + later_by,
            frozenset(data["waiting"]),
            None if ends is None else ends + later_by,
            data["finished"],
        )

    def entry(self, seat: int, now: float) -> messages.MyTable:
        """The table in the list of the person at ``seat``: whether it waits for them, and
        when the clock running now runs out."""
        deadline = self.deadline
        return {
            **self.summary,
            "seat": seat,
            "turn": self.turn,
            "your_turn": seat in self.waiting,
            "deadline": deadline,
            "left": None if deadline is None else max(0.0, deadline - now),
        }

    def urgency(self, seat: int) -> tuple[bool, float, float]:
        """Where the table goes in its person's list: those that wait for them first, the
        nearest deadline first, then the others, newest first."""
        ends = self.wait_ends if seat in self.waiting else None
        return (ends is None, ends or 0.0, -self.summary["created_at"])
