"""One table as a state machine: its state (``state.py``), ``decide`` (``deciding.py``) turning a
command into events, ``apply`` (``applying.py``) changing it by one committed event.

Phases: seating -> playing <-> between hands -> finished (a table that closed before its game
started is finished with no game).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from .. import commands as c
from ..events import Event, from_body
from . import applying, deciding
from .happened import Happened
from .record import record
from .state import State


class TableState(State):
    """A table's state, and the only ways it is decided about and changed. The command path
    calls ``deciding.decide_ending`` and ``applying.apply``/``note`` itself (a hop fewer each
    on a move's path); these are for the table's other callers."""

    @classmethod
    def replay(
        cls, table_id: str, events: Iterable[tuple[int, float, dict[str, Any]]]
    ) -> TableState:
        """A table as its log of (version, at, body) events leaves it."""
        state = cls(table_id)
        for _version, at, body in events:
            state.apply(from_body(body), at)
        return state

    def decide(self, command: c.Command, rng: random.Random) -> list[Event]:
        """The events ``command`` causes (none: it no longer applies), or a ``HallError``; the
        table is left as it was."""
        return deciding.decide(self, command, rng)

    def apply(self, event: Event, at: float) -> list[Happened]:
        """Apply one committed event (``applying.apply``): what happened."""
        return applying.apply(self, event, at)

    def record(self) -> dict[str, Any] | None:
        """The finished game as a game record (DESIGN.md), or None when no game was played."""
        return record(self)
