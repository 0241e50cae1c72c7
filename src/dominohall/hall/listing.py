"""A table as "My games" lists it (docs/protocol.md 2, 8): made once a change, for any of its
seats, so that a player's socket on any process keeps its list current from the changes it
hears, without asking for the table."""

from __future__ import annotations

from dataclasses import dataclass

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
