"""The service: tables and seats, turn clocks and computer players, each table's event log."""

from .broker import Broker, MemoryBroker
from .clock import Clock, ManualClock, SystemClock
from .errors import HallError
from .hall import Hall
from .options import Options
from .rooms import Room
from .seating import Person
from .table import Phase, TableState

__all__ = [
    "Broker",
    "Clock",
    "Hall",
    "HallError",
    "ManualClock",
    "MemoryBroker",
    "Options",
    "Person",
    "Phase",
    "Room",
    "SystemClock",
    "TableState",
]
