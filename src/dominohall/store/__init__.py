"""Persistence: players, tables, each table's append-only event log, finished games' records."""

from .store import Conflict, Finish, Store, StoredPlayer

__all__ = ["Conflict", "Finish", "Store", "StoredPlayer"]
