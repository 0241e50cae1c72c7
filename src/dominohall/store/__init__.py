"""Persistence: players, tables, each table's append-only event log, finished games' records."""

from .errors import Conflict
from .store import Finish, Store, StoredPlayer

__all__ = ["Conflict", "Finish", "Store", "StoredPlayer"]
