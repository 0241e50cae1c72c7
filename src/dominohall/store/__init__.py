"""Persistence: players, tables, each table's append-only event log, finished games' records."""

from .errors import Conflict, Fenced, StoreUnavailable
from .leases import Lease
from .store import Finish, Store, StoredPlayer

__all__ = ["Conflict", "Fenced", "Finish", "Lease", "Store", "StoreUnavailable", "StoredPlayer"]
