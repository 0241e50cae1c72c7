"""One table as pure data: its state and queries, deciding commands into events, applying
events (what happened kept as typed values), its clocks' arithmetic, its record. No asyncio,
no sockets, no client JSON."""

from .applying import WrongTransition
from .machine import TableState
from .parts import Phase, Seat
from .state import State

__all__ = ["Phase", "Seat", "State", "TableState", "WrongTransition"]
